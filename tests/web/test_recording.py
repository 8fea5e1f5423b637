"""The recording service (clubs.recording): hands saved atomically, numbered, derived results
appended, and corrections that recompute the table with an audit trail."""

from __future__ import annotations

import pytest

from clubs.models import AuditEntry, Hand, HandResult
from clubs.recording import (
    HandConflict,
    HandInputError,
    correct_hand,
    preview_hand,
    recompute_table,
    record_hand,
    swap_seats,
    void_hand,
)
from clubs.table_state import build_table_state
from tests.conftest import load_example

pytestmark = pytest.mark.django_db


def sheet19_hand(n: int) -> dict:
    """A winning hand of 004 Sheet 19 (bmja-scoring-practice.json) as the contract's JSON."""
    hand = load_example("bmja-scoring-practice.json")["hands"][n]
    win = {"from": hand["win_from"]}
    if hand.get("last_discard"):
        win["last_discard"] = True
    return {"melds": hand["melds"], "concealed": [], "bonus": hand["bonus"], "win": win}


def contract_hand(**over) -> dict:
    """The settle contract's example: S wins 864 on W's discard; E 12, W 36, N 0."""
    entry = {
        "winner": "S",
        "discarder": "W",
        "win_from": "discard",
        "seats": {"E": {"score": 12}, "S": sheet19_hand(0), "W": {"score": 36}, "N": {"score": 0}},
    }
    return {**entry, **over}


def quick(winner="E", discarder=None, scores=(100, 10, 20, 30), **over) -> dict:
    entry = {
        "winner": winner,
        "discarder": discarder,
        "win_from": "discard" if discarder else "wall",
        "seats": {w: {"score": s} for w, s in zip("ESWN", scores, strict=True)},
    }
    return {**entry, **over}


def totals_by_name(table) -> dict[str, int]:
    state = build_table_state(table)
    return {state.seat(seat_id).name: total for seat_id, total in state.totals.items()}


def test_preview_scores_and_settles_without_saving(table):
    """004 Sheet 19 hand 1 (864) settled as the contract's example: nothing is saved."""
    preview = preview_hand(table, contract_hand())
    assert preview.number == 1
    assert preview.computed.seats["S"].score == 864
    assert preview.computed.seats["S"].result.points == 54
    assert preview.computed.settlement.net == {"E": -1752, "S": 3456, "W": -780, "N": -924}
    assert not Hand.objects.exists()


def test_record_appends_numbered_hands_with_running_totals(table, users):
    first = record_hand(table, contract_hand(), users["scorer"])
    assert first.number == 1
    stored = Hand.objects.get(pk=first.pk)
    assert stored.created is not None and stored.created.tzinfo is not None
    assert stored.created_by == users["scorer"] and stored.facts == {}
    assert totals_by_name(table) == {"Alice": -1752, "Bob": 3456, "Carol": -780, "David": -924}
    results = {r.seat.member.display_name: r for r in HandResult.objects.filter(hand=first)}
    assert results["Bob"].score == 864 and results["Bob"].running_total == 3456
    assert first.entries.get(seat_wind="S").kind == "full"
    # Bob (South) won, so the winds move on (004 Sheet 16): Bob is East for hand 2.
    table.refresh_from_db()
    state = build_table_state(table)
    assert state.seat(state.next.dealer).name == "Bob"
    second = record_hand(table, quick(winner="E", scores=(50, 0, 0, 0)), users["scorer"])
    assert second.number == 2
    assert second.dealer.name == "Bob" and second.winner.name == "Bob"
    assert HandResult.objects.filter(hand__table=table).count() == 8


def test_cached_state_equals_a_full_replay(table, users):
    record_hand(table, contract_hand(), users["scorer"])
    record_hand(table, quick(winner="S", discarder="N"), users["scorer"])
    record_hand(table, quick(winner=None, draw=True, scores=(0, 0, 0, 0)), users["scorer"])
    table.refresh_from_db()
    cached = table.state
    assert recompute_table(table).snapshot(rev=cached["rev"]) == cached


def test_bad_hand_is_refused_with_field_paths_and_nothing_saved(table, users):
    entry = contract_hand()
    entry["seats"]["S"] = {**entry["seats"]["S"], "bonus": ["f2", "x9"]}
    with pytest.raises(HandInputError) as err:
        record_hand(table, entry, users["scorer"])
    assert "bonus" in err.value.errors["seats"]["S"]
    assert not Hand.objects.exists()


def test_inconsistent_outcome_is_refused(table, users):
    with pytest.raises(HandInputError) as err:
        record_hand(table, quick(winner="E", draw=True), users["scorer"])
    assert "draw" in err.value.errors
    with pytest.raises(HandInputError) as err:
        record_hand(table, quick(winner="E", discarder="E"), users["scorer"])
    assert "discarder" in err.value.errors


def test_expected_number_taken_is_a_conflict(table, users):
    first = record_hand(table, quick(number=1), users["scorer"])
    # Other figures for hand 1: a clash for the scorer to mend or discard.
    with pytest.raises(HandConflict):
        record_hand(table, quick(number=1, scores=(100, 10, 20, 32)), users["scorer"])
    # The same figures again (another phone, a resend): the hand saved first, nothing written.
    assert record_hand(table, quick(number=1), users["scorer"]).pk == first.pk
    assert Hand.objects.count() == 1


def test_correct_void_and_swap_recompute_and_audit(table, users):
    scorer = users["scorer"]
    first = record_hand(table, quick(winner="E", scores=(100, 0, 0, 0)), scorer)
    record_hand(table, quick(winner="E", scores=(40, 0, 0, 0)), scorer)
    before = totals_by_name(table)
    correct_hand(first, {"seats": {"E": {"score": 200}}}, scorer, note="typo")
    after = totals_by_name(table)
    assert after["Alice"] - before["Alice"] == (200 - 100) * 6  # East is paid double by three
    audit = AuditEntry.objects.get(action="update", object_id=str(first.pk))
    assert audit.before["seats"]["E"] == {"score": 100}
    assert audit.after["seats"]["E"] == {"score": 200}
    assert audit.user == scorer and audit.note == "typo"

    void_hand(first, scorer, reason="entered twice")
    voided = totals_by_name(table)
    assert voided["Alice"] == 40 * 6
    assert AuditEntry.objects.filter(action="void").count() == 1

    seats = {s.name: s for s in table.seats.all()}
    swap_seats(table, seats["Alice"], seats["Bob"], 2, scorer)
    swapped = totals_by_name(table)
    assert swapped["Bob"] == 40 * 6 and swapped["Alice"] == -80



def test_a_swap_is_audited_hand_by_hand_from_what_to_what(table, users):
    """The audit keeps, for every hand from the swap on, which seat played each wind before
    and after: the two players exchanged, the others where they were."""
    scorer = users["scorer"]
    for _ in range(3):
        record_hand(table, quick(winner="S", scores=(0, 40, 0, 0)), scorer)
    seats = {s.name: s.pk for s in table.seats.all()}
    alice, bob = seats["Alice"], seats["Bob"]
    swap_seats(table, table.seats.get(pk=alice), table.seats.get(pk=bob), 2, scorer)
    audit = AuditEntry.objects.get(object_type="table")
    assert sorted(audit.before["hands"]) == sorted(audit.after["hands"]) == ["2", "3"]
    exchanged = {alice: bob, bob: alice}
    for number, winds in audit.before["hands"].items():
        assert len(winds) == 4
        assert audit.after["hands"][number] == {
            wind: exchanged.get(seat, seat) for wind, seat in winds.items()
        }

@pytest.fixture
def table_of(club_session, club, house_rule_versions):
    """table_of(rule slug, players) -> a table of that many guests under that house rule."""
    import datetime as dt

    from clubs.models import ClubSession, Seat, Table

    def make(slug: str, players: int):
        session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 22),
                                             house_rule_version=house_rule_versions[slug])
        table = Table.objects.create(session=session, number=1)
        winds = {3: "ESW", 4: "ESWN", 5: "ESWN"}[players]
        for position in range(players):
            wind = winds[position] if position < len(winds) else ""
            Seat.objects.create(table=table, guest_name=f"Guest {position}", position=position,
                                starting_wind=wind)
        return table

    return make


def test_five_players_the_dreamer_sits_out_and_comes_in(table_of, users):
    """001 'For 5 Players': one sits out; an East who does not win retires and the player
    sitting out comes in."""
    table = table_of("bmja-5-players", 5)
    state = build_table_state(table)
    dreamer = next(s.id for s in state.seats if s.name == "Guest 4")
    assert dreamer not in state.next.seating.winds
    hand = record_hand(table, quick(winner="S"), users["scorer"])
    assert HandResult.objects.filter(hand=hand).count() == 4
    assert not HandResult.objects.filter(hand=hand, seat_id=dreamer).exists()
    table.refresh_from_db()
    state = build_table_state(table)
    assert dreamer in state.next.seating.winds
    assert state.totals[dreamer] == 0 and sum(state.totals.values()) == 0


def test_three_players_record_with_three_winds(table_of, users):
    table = table_of("bmja-3-players", 3)
    entry = {"winner": "E", "win_from": "wall",
             "seats": {"E": {"score": 30}, "S": {"score": 4}, "W": {"score": 0}}}
    hand = record_hand(table, entry, users["scorer"])
    assert sorted(hand.entries.values_list("seat_wind", flat=True)) == ["E", "S", "W"]
    with pytest.raises(HandInputError) as err:
        record_hand(table, {**entry, "seats": {**entry["seats"], "N": {"score": 0}}},
                    users["scorer"])
    assert "N" in err.value.errors["seats"]
