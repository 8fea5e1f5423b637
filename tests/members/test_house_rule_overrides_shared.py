"""The secretary's house-rule form and the house-rule API refuse the same overrides, in the same
words: one validator (``houserules.override_rules``) says what a valid override is. Each case
is typed into the form (a note on its field) and sent to the API as ``overrides`` (a 400 at
the override's path, e.g. ``overrides["items.knitting.limit"]``), and the sentences compared;
nothing is saved by either."""

from __future__ import annotations

import time

import pytest

from houserules.copies import update_copy
from houserules.models import HouseRuleRecord
from tests.members.test_house_rule_pages import as_sent
from tests.members.test_house_rule_special_hands import key

pytestmark = pytest.mark.django_db

API = "/api/v1/house-rules/"
WORTH = "A special hand is worth a part of the limit, more than 0 and at most 1"

# (form field: "special:<code>:<field>" or the form's own field name, typed,
#  the API's overrides, the override's path, the words both say)
CASES = [
    ("special:knitting:limit", "2", {"items": {"knitting": {"limit": "2"}}},
     "items.knitting.limit", "At most the limit itself (1); 2 is more than the limit."),
    ("special:knitting:limit", "11", {"items": {"knitting": {"limit": 11}}},
     "items.knitting.limit", "At most the limit itself (1); 11 is more than the limit."),
    ("special:knitting:limit", "0", {"items": {"knitting": {"limit": 0}}},
     "items.knitting.limit", "A part of the limit is more than 0."),
    ("special:knitting:limit", "-1/2", {"items": {"knitting": {"limit": "-1/2"}}},
     "items.knitting.limit", "A part of the limit cannot be negative."),
    ("special:knitting:limit", "a bit", {"items": {"knitting": {"limit": "a bit"}}},
     "items.knitting.limit",
     "Cannot read 'a bit' as a part of the limit: write it as \"1/2\" or \"0.5\"."),
    ("special:knitting:limit", "1/0", {"items": {"knitting": {"limit": "1/0"}}},
     "items.knitting.limit", "Cannot read '1/0' as a part of the limit"),
    ("special:knitting:limit", "1/1001", {"items": {"knitting": {"limit": "1/1001"}}},
     "items.knitting.limit", "Use a simpler fraction (up to thousandths)."),
    ("special:knitting:limit", "", {"items": {"knitting": {"limit": None}}},
     "items.knitting.limit", WORTH),
    ("special:knitting:fishing_limit", "3/2", {"items": {"knitting": {"fishing_limit": 1.5}}},
     "items.knitting.fishing_limit", "At most the limit itself (1); 3/2 is more than the limit."),
    ("special:knitting:fishing_limit", "0", {"items": {"knitting": {"fishing_limit": "0"}}},
     "items.knitting.fishing_limit",
     "A part of the limit is more than 0: leave it empty for nothing."),
    ("special:knitting:fishing_limit", "3/4", {"items": {"knitting": {"fishing_limit": 0.75}}},
     "items.knitting.fishing_limit",
     "Fishing for it cannot score more than the hand itself (half the limit)."),
    # A lower worth under the fishing the hand keeps (1/5): refused on fishing, as the form does.
    ("special:knitting:limit", "1/10", {"items": {"knitting": {"limit": "1/10"}}},
     "items.knitting.fishing_limit",
     "Fishing for it cannot score more than the hand itself (1/10 of the limit)."),
    ("payment__false_mahjong_penalty_limit_fraction", "11",
     {"payment": {"false_mahjong_penalty_limit_fraction": 11}},
     "payment.false_mahjong_penalty_limit_fraction", "At most 10 times the limit."),
    ("payment__false_mahjong_penalty_limit_fraction", "half a bit",
     {"payment": {"false_mahjong_penalty_limit_fraction": "half a bit"}},
     "payment.false_mahjong_penalty_limit_fraction", "Cannot read 'half a bit'"),
    ("payment__points_to_payment", "0: 1, 2: 4, 1: 2",
     {"payment": {"points_to_payment": [[0, 1], [2, 4], [1, 2]]}},
     "payment.points_to_payment",
     "Give the rows in rising order of points, each number of points once."),
    ("payment__points_to_payment", ", ".join(f"{n}: {n}" for n in range(41)),
     {"payment": {"points_to_payment": [[n, n] for n in range(41)]}},
     "payment.points_to_payment", "At most 40 rows."),
    ("scoring__go_out_minimum", "3 points or 4 points",
     {"scoring": {"go_out_minimum": [["points", 3], ["points", 4]]}},
     "scoring.go_out_minimum", "Give each of points, doubles and score once."),
    ("scoring__limit", "2000000000", {"scoring": {"limit": 2_000_000_000}},
     "scoring.limit",
     "Give a whole number from 0 to 1,000,000,000, or leave it empty (null) for none."),
    ("payment__east_multiplier", "-1", {"payment": {"east_multiplier": -1}},
     "payment.east_multiplier", "Give a whole number from 0 to 1,000,000,000."),
    ("item__pung_minor_exposed__points", "20000",
     {"items": {"pung_minor_exposed": {"points": 20_000}}},
     "items.pung_minor_exposed.points", "Give a whole number from 0 to 10,000."),
    ("item__pung_minor_exposed__doubles", "21",
     {"items": {"pung_minor_exposed": {"doubles": 21}}},
     "items.pung_minor_exposed.doubles", "Give a whole number from 0 to 20."),
    ("payment__scheme", "nope", {"payment": {"scheme": "nope"}}, "payment.scheme",
     "Unknown choice 'nope'; use one of bmja, discarder_pays, goulash_kitty, winner_table."),
    ("rotation__scheme", "<b>x</b>", {"rotation": {"scheme": "<b>x</b>"}}, "rotation.scheme",
     "Unknown choice '<b>x</b>'; use one of bmja, dealer_repeats, winner_deals."),
    ("rotation__goulash_winds", ["W", "X"], {"rotation": {"goulash_winds": ["W", "X"]}},
     "rotation.goulash_winds",
     "Winds of the round are E, S, W and N: give those wanted, e.g. [\"W\"], or none ([])."),
    ("scoring__wild_tiles", "dragons", {"scoring": {"wild_tiles": "dragons"}},
     "scoring.wild_tiles", "Unknown choice 'dragons'; use one of b2, joker, or null for none."),
]


def form_notes(client, edit, field: str, typed: str) -> list[str]:
    data = as_sent(client.get(edit).context["form"])
    if field.startswith("special:"):
        _, code, name = field.split(":")
        data[key(data, code, name)] = typed
    else:
        data[field] = typed
    answer = client.post(edit, data)
    assert answer.status_code == 400
    form = answer.context["form"]
    if field.startswith("special:"):
        errors = form.special.form_of(code).errors
        assert list(errors) == [name] or name == "limit", errors
        return [m for msgs in errors.values() for m in msgs]
    assert list(form.errors) == [field], form.errors
    return form.errors[field]


@pytest.mark.parametrize(("field", "typed", "overrides", "path", "words"), CASES,
                         ids=[f"{c[0]}={c[1][:12]}" for c in CASES])
def test_the_form_and_the_api_refuse_alike(ours, admin_api, field, typed, overrides, path,
                                           words):
    client, edit = ours
    notes = form_notes(client, edit, field, typed)
    assert any(words in note for note in notes), notes
    answer = admin_api.patch(f"{API}jade-rules/", {"overrides": overrides}, format="json")
    assert answer.status_code == 400, answer.json()
    said = answer.json()["overrides"]
    assert path in said, said
    # The form's own sentence, word for word, at the override's path.
    assert set(n for n in notes if words in n) <= set(said[path]), (notes, said[path])
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    assert record.overrides == {} and record.latest_version().number == 1


def test_a_new_copy_by_the_api_is_refused_alike(admin_api, club):
    answer = admin_api.post(API, {"club": club.slug, "base": "bmja", "slug": "jade-2",
                                  "name": "Jade 2", "overrides": {"items": {
                                      "knitting": {"limit": "3/2", "fishing_limit": "x"}}}},
                            format="json")
    assert answer.status_code == 400
    assert answer.json() == {"overrides": {
        "items.knitting.limit": ["At most the limit itself (1); 3/2 is more than the limit."],
        "items.knitting.fishing_limit": [
            "Cannot read 'x' as a part of the limit: write it as \"1/2\" or \"0.5\"."]}}
    assert not HouseRuleRecord.objects.filter(slug="jade-2").exists()


def test_the_api_takes_a_part_as_the_form_does_and_stores_it_as_the_form_writes_it(
        ours, admin_api):
    answer = admin_api.patch(f"{API}jade-rules/", {"overrides": {
        "items": {"knitting": {"limit": "half", "fishing_limit": 0.1}},
        "payment": {"false_mahjong_penalty_limit_fraction": "a quarter"}}}, format="json")
    assert answer.status_code == 200, answer.json()
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    assert record.overrides == {
        "items": {"knitting": {"limit": "1/2", "fishing_limit": "1/10"}},
        "payment": {"false_mahjong_penalty_limit_fraction": "1/4"}}
    rule = answer.json()["rule"]
    knitting = next(i for i in rule["items"] if i["code"] == "knitting")
    assert (knitting["limit"], knitting["fishing_limit"]) == ("1/2", "1/10")
    # The form shows them back and saves them unchanged.
    client, edit = ours
    assert client.post(edit, as_sent(client.get(edit).context["form"])).status_code == 302


def test_a_copy_saved_before_the_ranges_is_renamed_without_its_overrides_checked(
        ours, admin_api):
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    # As saved before the API checked ranges (the engine took any worth above 0).
    HouseRuleRecord.objects.filter(pk=record.pk).update(
        overrides={"items": {"knitting": {"limit": "2"}}})
    answer = admin_api.patch(f"{API}jade-rules/", {"name": "Jade rules (old)"}, format="json")
    assert answer.status_code == 200, answer.json()
    record.refresh_from_db()
    assert record.name == "Jade rules (old)"
    # Sent again, they are checked.
    with pytest.raises(Exception) as refused:
        update_copy(record, record.overrides)
    assert "items.knitting.limit" in refused.value.errors


@pytest.mark.parametrize("overrides", [
    {"items": {"knitting": {"limit": "1e-3999999"}}},
    {"items": {"chow": {"limit": "1e-3999999"}}},  # an ordinary item made a special hand
    {"payment": {"false_mahjong_penalty_limit_fraction": "1e-3999999"}},
])
def test_a_part_with_a_huge_exponent_is_refused_at_once(ours, admin_api, overrides):
    """Python's Fraction reads "1e-3999999" (seconds of work; minutes with more nines): a part
    of the limit is read as "n", "n.n" or "n/n" only, by the API, the form and the engine."""
    started = time.perf_counter()
    answer = admin_api.patch(f"{API}jade-rules/", {"overrides": overrides}, format="json")
    assert answer.status_code == 400
    [said] = answer.json()["overrides"].values()
    assert said == ["Cannot read '1e-3999999' as a part of the limit: write it as \"1/2\" or "
                    "\"0.5\"."]
    client, edit = ours
    assert form_notes(client, edit, "special:knitting:limit", "1e-3999999") == [
        "Cannot read '1e-3999999' as a part of the limit: write it as \"1/2\" or \"0.5\"."]
    assert time.perf_counter() - started < 1.5


def test_the_engine_reads_no_exponent_in_a_fraction():
    from scoring.engine import builtin_house_rules
    from scoring.engine.rules.model import HouseRuleError

    data = builtin_house_rules()["bmja"].to_dict()
    data["items"].append({**data["items"][0], "code": "x", "limit": "1e-3999999"})
    started = time.perf_counter()
    with pytest.raises(HouseRuleError) as refused:
        type(builtin_house_rules()["bmja"]).from_dict(data)
    assert any(path.endswith(".limit") for path in refused.value.errors)
    assert time.perf_counter() - started < 0.5


def test_a_name_too_long_is_refused_alike(ours, admin_api):
    client, edit = ours
    long = "Jade " * 30
    [note] = form_notes(client, edit, "name", long)
    assert note.startswith("At most 120 characters; shorten it")
    for sent in ({"name": long}, {"overrides": {"name": long}}):
        answer = admin_api.patch(f"{API}jade-rules/", sent, format="json")
        assert answer.status_code == 400
        assert answer.json() == {"name": [note]}
    assert HouseRuleRecord.objects.get(slug="jade-rules").name == "Jade rules"
