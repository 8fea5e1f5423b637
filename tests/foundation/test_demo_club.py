"""manage.py load_demo: the demo club, with Sheet 19's hands (004) entered as full hands."""

import json

import pytest
from django.core.management import CommandError, call_command

from clubs import demo
from clubs.models import Club, Hand, HandEntry, Member, Seat
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db

SHEET_19 = EXAMPLES / "bmja-scoring-practice.json"


def counts():
    return [m.objects.count() for m in (Club, Member, Seat, Hand, HandEntry)]


def test_loading_twice_changes_nothing(builtin_rules, settings, capsys):
    settings.DEBUG = True  # as on a development machine (pytest-django turns DEBUG off)
    call_command("load_demo")
    first = counts()
    call_command("load_demo")
    assert counts() == first == [1, 8, 4, 12, 48]
    assert "Demo club 'Demo Mah-Jong Club' ready" in capsys.readouterr().out


def test_demo_members_and_logins(demo_club):
    assert demo_club.published
    logins = dict(demo_club.members.filter(user__isnull=False).values_list("user__username", "role"))
    assert logins == {"demo-admin": "admin", "demo-scorer": "scorer"}
    admin = demo_club.members.get(user__username="demo-admin").user
    assert admin.is_superuser and admin.check_password(demo.LOGINS["demo-admin"])


def test_session_is_played_under_a_frozen_bmja_version(demo_club):
    session = demo_club.sessions.get()
    assert session.house_rule_version.record.slug == "bmja"
    assert session.house_rule_version.data["slug"] == "bmja"
    assert demo_club.default_house_rule == session.house_rule_version.record


def test_sheet_19_hands_are_stored_as_entered(demo_club, examples_dir):
    """004 Sheet 19 hands 1-3: full entries whose seat and round winds are the sheet's."""
    sheet = json.loads(SHEET_19.read_text())["hands"]
    full = HandEntry.objects.filter(kind="full").select_related("hand").order_by("hand__number")
    assert [e.hand.number for e in full] == [1, 2, 12]
    for entry, example in zip(full, sheet, strict=True):
        assert entry.data == demo.contract_hand(example)
        assert entry.seat_wind == example["seat_wind"] == entry.data["seat_wind"]
        assert entry.hand.prevailing_wind == example["prevailing_wind"]
        assert entry.hand.winner_id == entry.seat_id
        assert entry.hand.goulash == example["goulash"]


def test_every_hand_has_one_entry_per_wind_and_wall_games_have_no_winner(demo_club):
    for hand in Hand.objects.all():
        assert sorted(hand.entries.values_list("seat_wind", flat=True)) == ["E", "N", "S", "W"]
        assert hand.entries.get(seat=hand.dealer).seat_wind == "E"
        if hand.draw:
            assert hand.winner is None and hand.discarder is None
    draws = Hand.objects.filter(draw=True).values_list("number", flat=True)
    # 004: a wall game is followed by a goulash hand.
    assert all(Hand.objects.get(number=n + 1).goulash for n in draws)


def test_embedded_copy_matches_the_shared_examples(examples_dir):
    """The fallback used on a clone without ../shared must be Sheet 19's hands, unchanged."""
    sheet = json.loads(SHEET_19.read_text())["hands"]
    for copy, original in zip(demo.FALLBACK_EXAMPLES, sheet, strict=True):
        assert copy == {key: original[key] for key in copy}


def test_without_the_shared_folder_the_embedded_hands_are_used(tmp_path):
    assert demo.load_examples(tmp_path / "absent.json") is demo.FALLBACK_EXAMPLES


def test_demo_full_hands_score_as_sheet_19_says(demo_club):
    """004 Sheet 19 answer sheet: the stored entries score 864, 352 and 4352 under bmja."""
    engine = pytest.importorskip("scoring.engine")
    if not hasattr(engine, "score_hand"):
        pytest.skip("the scoring engine's score_hand is not there yet")
    from scoring.engine.rules.model import HouseRule

    sheet = json.loads(SHEET_19.read_text())["hands"]
    full = HandEntry.objects.filter(kind="full").select_related("hand__table__session")
    for entry, example in zip(full.order_by("hand__number"), sheet, strict=True):
        rule = HouseRule.from_dict(entry.hand.table.session.house_rule_version.data)
        result = engine.score_hand(engine.parse_hand({**entry.data, "rules": "bmja"}), rule)
        assert result.score == example["expected"]["score"], example["name"]


def test_refuses_a_live_service(settings, builtin_rules):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--allow-production"):
        call_command("load_demo")
    assert not Club.objects.exists()
    call_command("load_demo", "--allow-production")
    assert Club.objects.filter(slug="demo").exists()


def test_the_night_is_settled_from_what_was_entered(demo_club):
    """Hand 1 is the contract's settle example (004 Sheet 19 hand 1 with quick scores for the
    others): S receives 3456; the other players settle their differences, East paying double."""
    from clubs.models import HandResult

    assert HandResult.objects.count() == 48
    first = HandResult.objects.filter(hand__number=1)
    assert dict(first.values_list("seat_wind", "net")) == {
        "E": -1752, "S": 3456, "W": -780, "N": -924,
    }
    last = HandResult.objects.filter(hand__number=12)
    assert sum(last.values_list("running_total", flat=True)) == 0
