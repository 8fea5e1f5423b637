"""The night's sequence after a correction or a void (issue #21): who deals, the seat winds and
the wind of the round of every later hand follow the corrected night (re-seated, the default) or
the table's own play ("the table played on as recorded"), and no stored night shows a sequence
its house rule's rotation forbids."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import AuditEntry, ClubSession, Hand, Seat, Table
from clubs.recording import HandInputError, correct_hand, record_hand, void_hand
from clubs.table_state import build_table_state, recorded_hands, rules_of, seats_of
from play import KEPT, sequence_breaks

pytestmark = pytest.mark.django_db

# A winning hand whose value hangs on its seat wind: a concealed pung of West wind doubles
# for the player sitting West only (004 Sheet 20: own wind).
WEST_PUNG = {"melds": [{"kind": "pung", "tile": "b2"}, {"kind": "pung", "tile": "c5"},
                       {"kind": "pung", "tile": "d7"}],
             "concealed": ["ww", "ww", "ww", "dr", "dr"], "win": {"tile": "dr", "from": "wall"}}


def quick(winner, scores=(100, 10, 20, 30), tiles=None) -> dict:
    """``winner`` a wind of the hand; the others' agreed scores by wind."""
    seats = {w: {"score": s} for w, s in zip("ESWN", scores, strict=True)}
    if tiles is not None:
        seats[winner] = tiles
    return {"winner": winner, "discarder": None, "win_from": "wall", "seats": seats}


@pytest.fixture
def night(club, house_rule_versions):
    """night(slug, players) -> a table of P1..Pn starting E S W N (a fifth sitting out)."""
    made = []

    def make(slug="bmja", players=4):
        session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 2 + len(made)),
                                             house_rule_version=house_rule_versions[slug])
        table = Table.objects.create(session=session, number=1)
        for position in range(players):
            Seat.objects.create(table=table, guest_name=f"P{position + 1}", position=position,
                                starting_wind="ESWN"[position] if position < 4 else "")
        made.append(table)
        return table

    return make


def seat_ids(table) -> dict[str, int]:
    return {s.guest_name: s.pk for s in table.seats.all()}


def wind_of(table, number: int, name: str) -> str:
    hand = Hand.objects.get(table=table, number=number)
    return hand.entries.get(seat_id=seat_ids(table)[name]).seat_wind


def east_of(table, number: int) -> str:
    hand = Hand.objects.get(table=table, number=number)
    return hand.entries.get(seat_wind="E").seat.guest_name


def dealer_of(table, number: int) -> str:
    return Hand.objects.get(table=table, number=number).dealer.guest_name


def winds_of(table, number: int) -> dict[str, str]:
    hand = Hand.objects.get(table=table, number=number)
    return {e.seat.guest_name: e.seat_wind for e in hand.entries.select_related("seat")}


def breaks(table) -> list:
    table.refresh_from_db()
    return sequence_breaks(seats_of(table), recorded_hands([table.pk])[table.pk],
                           rules_of(table.session, table).rule)


def record_by_name(table, user, winner: str, tiles=None):
    """Record the next hand won by the player ``winner`` from the wall, at whatever wind they
    sit now."""
    table.refresh_from_db()
    seating = build_table_state(table).next.seating
    wind = seating.winds[seat_ids(table)[winner]]
    return record_hand(table, quick(wind, tiles=tiles), user)


def issue_night(table, user):
    """004 rotation, P1-P4 starting E S W N: P1 (East) wins hand 1 and deals again; P3 wins
    hand 2 (P1 East), so P2 deals hand 3; P4 wins hand 3 with a pung of West wind, sitting
    West."""
    first = record_by_name(table, user, "P1")
    record_by_name(table, user, "P3")
    record_by_name(table, user, "P4", tiles=WEST_PUNG)
    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P1", "P2"]
    assert wind_of(table, 3, "P4") == "W"
    assert breaks(table) == []
    return first


def test_a_correction_that_moves_the_deal_reseats_every_later_hand(night, users):
    """The issue's example: hand 1 corrected from "P1 (East) won" to "P2 (South) won". P2 then
    deals hand 2 (P3 won it, so P3 deals hand 3, and P4 won that, so P4 deals hand 4): no
    later hand keeps the East the old result gave it."""
    table, scorer = night("bmja"), users["scorer"]
    first = issue_night(table, scorer)
    points_as_west = Hand.objects.get(table=table, number=3).computed["scores"][
        str(seat_ids(table)["P4"])]

    correct_hand(first, {"winner": "S"}, scorer, note="P2 went out, not P1")

    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P2", "P3"]
    assert [dealer_of(table, n) for n in (1, 2, 3)] == ["P1", "P2", "P3"]
    assert winds_of(table, 2) == {"P2": "E", "P3": "S", "P4": "W", "P1": "N"}
    assert winds_of(table, 3) == {"P3": "E", "P4": "S", "P1": "W", "P2": "N"}
    # P4's tiles are scored again as South: the West wind pung no longer doubles.
    hand3 = Hand.objects.get(table=table, number=3)
    assert hand3.computed["scores"][str(seat_ids(table)["P4"])] * 2 == points_as_west
    assert hand3.computed["seating"]["winds"][str(seat_ids(table)["P4"])] == "S"
    # The next hand is P4's deal, following the stored hands; nothing stored is forbidden.
    table.refresh_from_db()
    assert build_table_state(table).next.seating.dealer_seat == seat_ids(table)["P4"]
    assert table.state["next"]["dealer"] == seat_ids(table)["P4"]
    assert breaks(table) == []
    record_by_name(table, scorer, "P1")
    assert east_of(table, 4) == "P4" and breaks(table) == []
    # The audit entry says what moved: which hands got which East and winds.
    audit = AuditEntry.objects.get(action="update", object_id=str(first.pk))
    assert audit.note == "P2 went out, not P1"
    assert audit.after["later_hands"] == "reseat"
    moved = {m["hand"]: m for m in audit.after["seating_moved"]}
    assert sorted(moved) == [2, 3]
    assert moved[2]["dealer"] == {"from": "P1", "to": "P2"}
    assert moved[3]["dealer"] == {"from": "P2", "to": "P3"}
    assert {w["player"]: (w["from"], w["to"]) for w in moved[3]["winds"]} == {
        "P1": ("N", "W"), "P2": ("E", "N"), "P3": ("S", "E"), "P4": ("W", "S")}


def test_played_on_as_recorded_keeps_the_seating_and_the_rotation_goes_on_from_it(night, users):
    table, scorer = night("bmja"), users["scorer"]
    first = issue_night(table, scorer)
    scores_before = Hand.objects.get(table=table, number=3).computed["scores"]

    correct_hand(first, {"winner": "S"}, scorer, later_hands="as_recorded")

    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P1", "P2"]
    assert Hand.objects.get(table=table, number=3).computed["scores"] == scores_before
    # Hand 2 is marked as played: the one place the night starts again from what is stored.
    assert Hand.objects.get(table=table, number=2).facts[KEPT] is True
    assert not Hand.objects.get(table=table, number=3).facts.get(KEPT)
    assert breaks(table) == []
    # P4 won hand 3 from P2's deal: P3 deals next, not the P4 the corrected hand 1 would give.
    table.refresh_from_db()
    assert table.state["next"]["dealer"] == seat_ids(table)["P3"]
    record_by_name(table, scorer, "P2")
    assert east_of(table, 4) == "P3" and breaks(table) == []
    audit = AuditEntry.objects.get(action="update", object_id=str(first.pk))
    assert audit.after["later_hands"] == "as_recorded"
    assert audit.after["seating_kept"] == [2]


def test_voiding_a_hand_gives_the_next_hand_the_east_before_it(night, users):
    """Voiding hand 2 of another night: hand 3 no longer keeps the East the void hand gave it
    (a voided hand was never played, so the deal did not move on for it)."""
    table, scorer = night("bmja"), users["scorer"]
    record_by_name(table, scorer, "P1")
    second = record_by_name(table, scorer, "P2")
    record_by_name(table, scorer, "P3")
    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P1", "P2"]

    void_hand(second, scorer, reason="entered twice")

    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P1", "P1"]
    assert breaks(table) == []
    table.refresh_from_db()
    # P1 dealt hands 1 and 3 and P3 won hand 3 from him: P2 deals next.
    assert table.state["next"]["dealer"] == seat_ids(table)["P2"]
    audit = AuditEntry.objects.get(action="void")
    assert audit.note == "entered twice"
    assert [m["hand"] for m in audit.after["seating_moved"]] == [3]
    # Restored, the night is as it was recorded.
    void_hand(second, scorer, voided=False)
    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P1", "P2"]
    assert breaks(table) == []


def test_voiding_as_recorded_marks_the_next_hand(night, users):
    table, scorer = night("bmja"), users["scorer"]
    record_by_name(table, scorer, "P1")
    second = record_by_name(table, scorer, "P2")
    record_by_name(table, scorer, "P3")
    void_hand(second, scorer, reason="not played", later_hands="as_recorded")
    assert [east_of(table, n) for n in (1, 2, 3)] == ["P1", "P1", "P2"]
    assert Hand.objects.get(table=table, number=3).facts[KEPT] is True
    assert breaks(table) == []


def test_reseating_moves_the_winds_penalties_name_with_their_players(night, users):
    table, scorer = night("bmja"), users["scorer"]
    first = record_by_name(table, scorer, "P1")
    table.refresh_from_db()
    entry = {**quick("S"), "facts": {"penalties": [
        {"kind": "false_mahjong", "offender": "W", "claimant": None}]}}
    record_hand(table, entry, scorer)  # P3, sitting West, called a false Mah Jong
    correct_hand(first, {"winner": "S"}, scorer)
    hand2 = Hand.objects.get(table=table, number=2)
    assert wind_of(table, 2, "P3") == "S"
    assert hand2.facts["penalties"][0]["offender"] == "S"
    assert breaks(table) == []


def test_five_players_a_hand_entered_by_others_than_the_reseating_seats_stays_as_played(
        night, users):
    """What was entered says who played a hand: where re-seating would have another player sit
    a later hand out, that hand keeps its seating, marked as played, and the deal goes on from
    it."""
    table, scorer = night("bmja-5-players", 5), users["scorer"]
    first = record_by_name(table, scorer, "P1")
    record_by_name(table, scorer, "P2")
    before = winds_of(table, 2)
    # P2 winning hand 1 retires P1 and brings P5 in for hand 2, but P1 entered hand 2, not P5.
    correct_hand(first, {"winner": "S"}, scorer)
    assert winds_of(table, 2) == before
    assert Hand.objects.get(table=table, number=2).facts[KEPT] is True
    assert breaks(table) == []
    audit = AuditEntry.objects.get(action="update")
    assert audit.after["seating_kept"] == [2] and audit.after["seating_moved"] == []


def test_an_unknown_choice_for_later_hands_is_refused(night, users):
    table, scorer = night("bmja"), users["scorer"]
    first = record_by_name(table, scorer, "P1")
    with pytest.raises(HandInputError) as refused:
        correct_hand(first, {"winner": "S"}, scorer, later_hands="shuffle")
    assert "later_hands" in refused.value.errors


def test_the_printed_night_says_which_hand_was_seated_as_played(night, users):
    """The score sheets show each hand's seating as stored: a hand kept as the table played on
    says so, so the printed sequence is one the rotation allows."""
    from sheets.data import ending, session_sheet

    table, scorer = night("bmja"), users["scorer"]
    first = issue_night(table, scorer)
    correct_hand(first, {"winner": "S"}, scorer, later_hands="as_recorded")
    sheet = session_sheet(ClubSession.objects.select_related(
        "club", "house_rule_version__record").get(pk=table.session_id))
    printed = sheet.tables[0]
    said = {hand.number: ending(hand, printed) for hand in printed.hands}
    assert said[2].startswith("Seated as played. Mah Jong: P3")
    assert not said[1].startswith("Seated") and not said[3].startswith("Seated")
    assert printed.hands[1].winds[seat_ids(table)["P1"]] == "E"


def test_a_reseated_night_prints_its_new_seating(night, users):
    from sheets.data import session_sheet

    table, scorer = night("bmja"), users["scorer"]
    first = issue_night(table, scorer)
    correct_hand(first, {"winner": "S"}, scorer)
    sheet = session_sheet(ClubSession.objects.select_related(
        "club", "house_rule_version__record").get(pk=table.session_id))
    ids = seat_ids(table)
    assert [next(s for s, w in h.winds.items() if w == "E") for h in sheet.tables[0].hands] == [
        ids["P1"], ids["P2"], ids["P3"]]


def test_two_swaps_sharing_a_player_keep_the_sequence(night, users):
    """P2 and P3 swapped from hand 3, then P3 and P4 from hand 2: the later swap is of the
    players as they sit after the earlier-numbered one, so the rotation seats hand 3 as
    stored (found by the randomised test)."""
    from clubs.recording import swap_seats

    table, scorer = night("bmja"), users["scorer"]
    for winner in ("P1", "P2", "P3", "P4"):
        record_by_name(table, scorer, winner)
    seat = {s.guest_name: s for s in table.seats.all()}
    swap_seats(table, seat["P2"], seat["P3"], 3, scorer)
    assert breaks(table) == []
    swap_seats(table, seat["P3"], seat["P4"], 2, scorer)
    assert breaks(table) == []
    table.refresh_from_db()
    assert table.state == build_table_state(table).snapshot(table.state["rev"])


def test_a_later_hand_the_engine_refuses_under_its_new_winds_undoes_the_correction(night, users):
    """Hand 2 is East's Heaven's Blessing (004 Sheet 29, "the 14 tiles dealt to East"). Re-seated
    after hand 1 is given to P2, P1 sits North in hand 2, where the claim cannot stand: the
    correction is refused whole, with a sentence; as the table played on, it is made."""
    table, scorer = night("bmja"), users["scorer"]
    first = record_by_name(table, scorer, "P1")
    heavenly = {"melds": [], "concealed": ["c3", "c3", "c3", "c6", "c6", "c6", "c5", "c5", "d1",
                                           "d2", "d3", "c9", "c9", "c9"],
                "win": {"tile": "c5", "from": "wall", "heavenly": True}}
    record_by_name(table, scorer, "P1", tiles=heavenly)
    before = {n: winds_of(table, n) for n in (1, 2)}
    with pytest.raises(HandInputError) as refused:
        correct_hand(first, {"winner": "S"}, scorer)
    [message] = refused.value.errors["later_hands"]
    assert message.startswith("Hand 2 cannot be scored seated again (")
    assert "Heaven's Blessing" in message and "Correct hand 2 first" in message
    assert {n: winds_of(table, n) for n in (1, 2)} == before
    assert Hand.objects.get(pk=first.pk).winner.guest_name == "P1"
    assert not AuditEntry.objects.exists() and breaks(table) == []
    correct_hand(first, {"winner": "S"}, scorer, later_hands="as_recorded")
    assert breaks(table) == [] and winds_of(table, 2) == before[2]


def test_hands_moved_from_a_table_started_twice_are_seated_as_played(night, users):
    """Hands moved after another table's own (clubs.mending.move_hands) keep the seating they
    were played with: the first one the target's rotation would seat otherwise is marked, and
    undoing the move takes the mark back."""
    from clubs.mending import move_hands, undo
    from clubs.models import Seat as SeatModel

    target, scorer = night("bmja"), users["scorer"]
    for winner in ("P1", "P2"):
        record_by_name(target, scorer, winner)
    again = Table.objects.create(session=target.session, number=2)
    for position in range(4):
        SeatModel.objects.create(table=again, guest_name=f"P{position + 1}", position=position,
                                 starting_wind="ESWN"[position])
    for winner in ("P3", "P4"):
        record_by_name(again, scorer, winner)
    entry = move_hands(again, target, user=scorer)
    assert entry.before["move_hands"]["kept"] == [3]
    assert Hand.objects.get(table=target, number=3).facts[KEPT] is True
    assert breaks(target) == []
    undo(entry, user=scorer)
    assert breaks(again) == [] and breaks(target) == []
    assert not Hand.objects.filter(table=again, facts__has_key=KEPT).exists()


def test_check_sequences_finds_and_marks_a_night_corrected_before(night, users):
    """A night corrected before this release keeps the seating the old result gave: the
    command lists each such hand (exit 1) and, told the table played on, marks it."""
    from io import StringIO

    from django.core.management import call_command

    table, scorer = night("bmja"), users["scorer"]
    first = issue_night(table, scorer)
    # As an older release corrected it: the winner changed, nothing re-seated or marked.
    Hand.objects.filter(pk=first.pk).update(winner_id=seat_ids(table)["P2"])
    out = StringIO()
    with pytest.raises(SystemExit) as status:
        call_command("check_sequences", "--club", table.session.club.slug, stdout=out,
                     stderr=StringIO())
    assert status.value.code == 1
    assert "table 1: Hand 2: P1 deals where the rotation gives P2" in out.getvalue()
    out = StringIO()
    call_command("check_sequences", "--mark", stdout=out)
    assert "marked 1 hand(s)" in out.getvalue()
    assert Hand.objects.get(table=table, number=2).facts[KEPT] is True
    assert breaks(table) == []
    call_command("check_sequences", stdout=StringIO())  # nothing left: exit 0
    with pytest.raises(Exception, match="No club 'nowhere'"):
        call_command("check_sequences", "--club", "nowhere")
