"""Clubs' own house rules: a copy of another with overrides, frozen versions sessions keep.

The issue asks: deriving a club's copy changes only what it overrides; an old session keeps
its version after the copy is edited; an invalid copy (a negative limit, an unknown item) is
refused with a clear message naming the field.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model

from clubs.models import AuditEntry, Club, ClubSession, HouseRuleVersion
from houserules.copies import create_copy, house_rule_of, latest_version, update_copy
from houserules.resolve import resolve_house_rule
from scoring.engine import HouseRuleError, get_house_rule
from tests.houserules.conftest import hand, score


@pytest.fixture
def club(db):
    return Club.objects.create(name="Four Winds Club", slug="four-winds")


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user(username="secretary", password="x-tiles-42")


def _flatten(data, prefix=""):
    """Dotted path -> leaf value, items keyed by their code."""
    out = {}
    if isinstance(data, dict):
        for key, value in data.items():
            out.update(_flatten(value, f"{prefix}{key}."))
    elif isinstance(data, list) and data and all(isinstance(v, dict) and "code" in v
                                                 for v in data):
        for value in data:
            out.update(_flatten(value, f"{prefix}{value['code']}."))
    else:
        out[prefix.rstrip(".")] = json.dumps(data)
    return out


def test_a_copy_changes_only_what_it_overrides(club, user):
    overrides = {"scoring": {"limit": 3000}, "items": {"one_suit_only": {"doubles": 6}},
                 "payment": {"starting_tally": 5000}}
    record = create_copy(club, "guide", "four-winds-guide", "Four Winds guide", overrides, user)
    copy = house_rule_of(latest_version(record))
    base = get_house_rule("guide")
    before, after = _flatten(base.to_dict()), _flatten(copy.to_dict())
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    assert changed == {"slug", "name", "based_on", "scoring.limit",
                       "items.one_suit_only.doubles", "payment.starting_tally"}
    assert (copy.slug, copy.based_on, copy.version) == ("four-winds-guide", "guide", 1)
    assert record.club == club and record.based_on.slug == "guide"
    assert record.overrides == overrides


def test_the_copy_scores_with_its_overrides(club, user):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide",
                {"scoring": {"limit": 3000}}, user)
    one_suit = hand("chow c1, chow c4, chow c5, pung c8", "c9 c9", win="c9 discard",
                    rules="four-winds-guide")
    assert score(one_suit, resolve_house_rule("four-winds-guide")).score == 3000
    assert score({**one_suit, "rules": "guide"}).score == 2000


def test_editing_a_copy_makes_version_2_and_old_sessions_keep_version_1(club, user):
    record = create_copy(club, "guide", "four-winds-guide", "Four Winds guide",
                         {"scoring": {"limit": 3000}}, user)
    v1 = latest_version(record)
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 3),
                                         house_rule_version=v1)
    v2 = update_copy(record, {"scoring": {"limit": 1500}}, user)
    assert (v1.number, v2.number) == (1, 2)
    assert v2.pk != v1.pk
    v1.refresh_from_db()
    assert v1.data["scoring"]["limit"] == 3000  # never modified
    session.refresh_from_db()
    old_rule = house_rule_of(session.house_rule_version)
    one_suit = hand("chow c1, chow c4, chow c5, pung c8", "c9 c9", win="c9 discard")
    assert score(one_suit, old_rule).score == 3000
    assert score(one_suit, house_rule_of(v2)).score == 1500
    assert resolve_house_rule("four-winds-guide").scoring.limit == 1500


def test_saving_the_same_rule_again_makes_no_new_version(club, user):
    record = create_copy(club, "balsall-common", "ours", "Ours", {"scoring": {"players": 3}}, user)
    again = update_copy(record, {"scoring": {"players": 3}}, user)
    assert again.number == 1
    assert HouseRuleVersion.objects.filter(record=record).count() == 1


def test_a_copy_of_a_copy(club, user):
    create_copy(club, "west-wind-goulash", "ww-a", "A",
                {"payment": {"kitty_per_player": 200}}, user)
    record = create_copy(club, "ww-a", "ww-b", "B",
                         {"scoring": {"go_out_minimum": [["doubles", 2]]}}, user)
    rule = house_rule_of(latest_version(record))
    assert rule.based_on == "ww-a"
    assert rule.payment.kitty_per_player == 200
    assert rule.scoring.go_out_minimum == (("doubles", 2),)


def test_copies_are_audited(club, user):
    record = create_copy(club, "guide", "g2", "G2", {}, user)
    update_copy(record, {"scoring": {"limit": 2500}}, user)
    actions = list(AuditEntry.objects.filter(object_type="house_rule", object_id="g2")
                   .values_list("action", flat=True))
    assert sorted(actions) == ["create", "update"]


@pytest.mark.parametrize(
    ("overrides", "path", "words"),
    [
        ({"scoring": {"limit": -5}}, "scoring.limit", "positive"),
        ({"items": {"no_such_item": {"points": 2}}}, "items.no_such_item", "No such item"),
        ({"scoring": {"colour": "red"}}, "scoring.colour", "Unknown field"),
        ({"add_items": [{"code": "x", "wording": "X", "rule": "no_such_function"}]},
         "items[", "Unknown rule function"),
        ({"add_items": [{"code": "x", "wording": "X", "rule": "sets", "args": {"colour": 1}}]},
         "items[", "colour"),
        ({"goulash_rule": "nowhere"}, "goulash_rule", "nowhere"),
        ({"payment": {"kong_chips_claimed": -1}}, "payment.kong_chips_claimed", "negative"),
        # 002's optional limit: its "maximum" hands need one (lines 477, 998)
        ({"scoring": {"limit": None}}, "scoring.limit", "set a limit"),
        ("limit=3000", "overrides", "object"),
    ],
)
def test_invalid_copies_are_refused_with_the_field_and_a_reason(club, user, overrides, path,
                                                                words):
    with pytest.raises(HouseRuleError) as refused:
        create_copy(club, "guide", "broken", "Broken", overrides, user)
    errors = refused.value.errors
    matching = [key for key in errors if key.startswith(path)]
    assert matching, errors
    assert any(words in message for key in matching for message in errors[key])
    assert not club.house_rules.exists()


MALFORMED = [
    ({"scoring": {"go_out_minimum": [["points"]]}}, "scoring.go_out_minimum"),
    ({"scoring": {"go_out_minimum": "3 points"}}, "scoring.go_out_minimum"),
    ({"scoring": {"go_out_minimum": [["points", "x"]]}}, "scoring.go_out_minimum"),
    ({"scoring": {"go_out_minimum": [["fans", 3]]}}, "scoring.go_out_minimum"),
    ({"scoring": {"goulash_go_out_minimum": 5}}, "scoring.goulash_go_out_minimum"),
    ({"scoring": {"limit": 10**40}}, "scoring.limit"),
    ({"payment": {"points_to_payment": [[1]]}}, "payment.points_to_payment"),
    ({"payment": {"points_to_payment": [["a", 1]]}}, "payment.points_to_payment"),
    ({"rotation": {"goulash_winds": "W"}}, "rotation.goulash_winds"),
    ({"items": {"mahjong": {"points": None}}}, "items.mahjong.points"),
    ({"items": {"mahjong": {"replaces": "dragon_pung_melded"}}}, "items.mahjong.replaces"),
    ({"add_items": [{"code": 5, "wording": "w", "rule": "sets"}]}, "items["),
    ({"name": 5}, "name"),
    ({"goulash_rule": 5}, "goulash_rule"),
]


@pytest.mark.parametrize(("overrides", "path"), MALFORMED)
def test_malformed_overrides_are_refused_not_crashed_on(club, user, overrides, path):
    with pytest.raises(HouseRuleError) as refused:
        create_copy(club, "guide", "broken", "Broken", overrides, user)
    assert any(key.startswith(path) for key in refused.value.errors), refused.value.errors


def test_the_slug_must_be_new(club, user):
    create_copy(club, "guide", "mine", "Mine", {}, user)
    for slug in ("mine", "guide"):
        with pytest.raises(HouseRuleError) as refused:
            create_copy(club, "guide", slug, "Again", {}, user)
        assert "slug" in refused.value.errors


def test_an_unknown_base_is_refused(club, user):
    with pytest.raises(HouseRuleError) as refused:
        create_copy(club, "nowhere", "mine", "Mine", {}, user)
    assert "base" in refused.value.errors


def test_a_built_in_cannot_be_edited(club, user):
    from houserules.copies import base_record

    with pytest.raises(HouseRuleError):
        update_copy(base_record("guide"), {"scoring": {"limit": 1}}, user)


def test_a_points_rule_may_have_no_limit(club, user):
    """003 has no limit and no limit hands; a copy of it keeps none."""
    record = create_copy(club, "balsall-common", "bc", "BC", {"scoring": {"limit": None}}, user)
    assert house_rule_of(latest_version(record)).scoring.limit is None


def test_a_session_uses_west_wind_goulash_as_its_goulash_rule(club, user):
    """000 line 7: the goulash after a wall game is played by the West Wind Round's rules."""
    from clubs.table_state import rules_of
    from houserules.copies import base_record

    session = ClubSession.objects.create(
        club=club, date=dt.date(2026, 11, 3),
        house_rule_version=latest_version(base_record("bmja")),
        goulash_rule_version=latest_version(base_record("west-wind-goulash")),
    )
    rules = rules_of(session)
    assert rules.for_hand(False).slug == "bmja"
    goulash = rules.for_hand(True)
    assert goulash.slug == "west-wind-goulash"
    pure = hand("pung c2, pung c5, pung c7, pung c8", "c9 c9", win="c9 discard",
                goulash=True, round="W")
    result = score(pure, goulash)
    assert (result.doubles, result.meets_minimum) == (3, True)
    assert goulash.payment.kitty_per_player == 500
