"""play.table.replay: a table's recorded hands through both engines, in order, nothing
written: voided hands, seat swaps, the starting tally and the state kept for the next hand
(no Django, no database)."""

from __future__ import annotations

import pytest

from play import POT, STATE_VERSION, RecordedHand, SeatInfo, SessionRules, replay
from scoring.engine import get_house_rule

SEATS = tuple(SeatInfo(i, n, i - 1, w, None) for i, (n, w) in enumerate(
    zip(("Ann", "Ben", "Cat", "Dan"), "ESWN", strict=True), start=1))
BMJA = SessionRules(get_house_rule("bmja"))


def hand(number, winner=1, voided=False, facts=None, winds="ESWN", dealer=None):
    seat_of = dict(zip(winds, (1, 2, 3, 4), strict=True))
    entries = {seat: {"kind": "quick", "wind": wind,
                      "data": {"score": 100 if seat == winner else 4 * seat}}
               for wind, seat in seat_of.items()}
    return RecordedHand(number, number, voided, "E", dealer or seat_of["E"], winner, None,
                        winner is None, False, "wall" if winner else "", facts or {}, entries)


def test_a_voided_hand_counts_for_nothing_and_the_deal_does_not_move():
    # Ben won hand 1, so he is East in hand 2 (seated as played: the rotation goes on from it).
    played = replay(SEATS, [hand(1, winner=2), hand(2, winner=3, voided=True, winds="NESW")],
                    BMJA)
    skipped = replay(SEATS, [hand(1, winner=2)], BMJA)
    voided = played.hands[1]
    assert not voided.counted and voided.net == {} and voided.payments == ()
    assert played.totals == skipped.totals and played.pot == skipped.pot
    assert played.next.seating == skipped.next.seating
    assert played.next.number == 3 and skipped.next.number == 2


def test_totals_start_at_the_rules_tally_and_each_hand_adds_its_net():
    guide = SessionRules(get_house_rule("guide"))
    state = replay(SEATS, [hand(1, winner=1), hand(2, winner=2)], guide)
    tally = get_house_rule("guide").payment.starting_tally
    assert tally == 2000
    for seat in SEATS:
        assert state.totals[seat.id] == tally + sum(row.net.get(seat.id, 0)
                                                    for row in state.hands)
    first = state.hands[0]
    assert first.totals == {s: tally + first.net.get(s, 0) for s in first.totals}
    assert all(p.payer in (1, 2, 3, 4, POT) and p.amount > 0 for p in first.payments)


def test_a_swap_recorded_on_a_hand_moves_the_two_players_from_it_on():
    # Ann and Ben were entered the wrong way round from hand 2: Ben is East from there.
    state = replay(SEATS, [hand(1, winner=1), hand(2, winner=2, winds="SEWN",
                                                  facts={"swap_seats": [[1, 2]]})], BMJA)
    assert state.hands[1].seating.winds == {2: "E", 1: "S", 3: "W", 4: "N"}
    assert state.next.dealer == 2  # East (Ben, after the swap) won: he keeps the deal


def test_the_state_kept_for_the_next_hand():
    state = replay(SEATS, [hand(1, winner=2), hand(2, winner=None)], BMJA, table_id=7)
    snap = state.snapshot(rev=4)
    assert snap["v"] == STATE_VERSION and snap["rev"] == 4 and snap["last_number"] == 2
    assert snap["totals"] == {str(k): v for k, v in state.totals.items()}
    assert snap["next"] == state.next.seating.to_json() and snap["next"]["goulash"]
    assert snap["seats"][0] == [1, "Ann", 0, "E", None]
    assert state.table_id == 7 and state.seat(3).name == "Cat"


def test_an_unknown_way_of_treating_refused_hands_is_an_error():
    with pytest.raises(ValueError, match="refused='skip'"):
        replay(SEATS, [], BMJA, refused="skip")
