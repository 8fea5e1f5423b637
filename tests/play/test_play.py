"""play/: the plain-Python core of a table. One validator of quick entries for every way in (the
clubs' recording and the public settle calculator say the same), and replay under another house
rule settling a hand that rule refuses as a wall game."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from play import (
    MAX_SCORE,
    HandInputError,
    RecordedHand,
    SeatInfo,
    Seating,
    SessionRules,
    check_entry,
    quick_problems,
    replay,
)
from scoring.engine import get_house_rule

SEATS = tuple(SeatInfo(i, n, i, w, None) for i, (n, w) in enumerate(
    zip(("Ann", "Ben", "Cat", "Dan"), "ESWN", strict=True), start=1))
SEATING = Seating({1: "E", 2: "S", 3: "W", 4: "N"}, "E")
# bmja: mixed seven pairs is not a Mah Jong there (004 has only All Pair Honours, Sheet 22) but
# every house rule reads a plain pung hand.
PUNG_HAND = {"melds": [{"kind": "pung", "tile": "b2"}, {"kind": "pung", "tile": "c5"},
                       {"kind": "pung", "tile": "d7"}], "concealed": ["dr", "dr", "dr", "we", "we"],
             "win": {"tile": "we"}}


def entries(winner_data, winner=1, east=1):
    return {seat: {"kind": "full" if seat == winner else "quick",
                   "data": winner_data if seat == winner else {"score": 4 * seat},
                   "wind": "ESWN"[(seat - east) % 4]} for seat in (1, 2, 3, 4)}


def recorded(number, winner_data=None, winner=1, draw=False, east=1):
    """A hand as stored, seated with ``east`` (a seat id) as East."""
    data = winner_data or {"score": 100}
    return RecordedHand(number, number, False, "E", None, None if draw else winner, None, draw,
                        False, "" if draw else "wall", {}, entries(data, winner, east))


@pytest.mark.parametrize("data, path", [
    ({"score": MAX_SCORE + 1}, "score"),
    ({"score": -1}, "score"),
    ({"score": True}, "score"),
    ({"score": 8, "kongs": ["hidden"]}, "kongs"),
    ({"score": 8, "bonus": ["f1", "f1"]}, "bonus"),
    ({"score": 8, "tiles": []}, "tiles"),
])
def test_one_validator_of_quick_entries(data, path):
    assert path in quick_problems(data)
    with pytest.raises(HandInputError) as caught:
        check_entry({"winner": "E", "seats": {"E": data, "S": {"score": 0}, "W": {"score": 0},
                                              "N": {"score": 0}}}, SEATING)
    assert caught.value.errors["seats"]["E"] == quick_problems(data)


@pytest.mark.django_db
def test_the_settle_calculator_reads_quick_entries_with_the_same_validator():
    body = {"rules": "bmja", "winner": "S", "hands": {
        "E": {"score": MAX_SCORE + 1}, "S": {"score": 100}, "W": {"score": 0}, "N": {"score": 0}}}
    answer = APIClient().post("/api/v1/settle", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["hands"]["E"]["score"] == quick_problems({"score": MAX_SCORE + 1})["score"]


def test_replay_matches_hand_by_hand_settlement_and_moves_the_deal():
    rules = SessionRules(get_house_rule("bmja"))
    state = replay(SEATS, [recorded(1), recorded(2, winner=2), recorded(3, draw=True, east=2)],
                   rules)
    assert [row.counted for row in state.hands] == [True, True, True]
    assert sum(state.totals.values()) == 0
    assert state.totals == {s: sum(row.net.get(s, 0) for row in state.hands) for s in state.totals}
    # Ann (East) won hand 1 and keeps the deal; Ben (South) won hand 2, so he deals hand 3 and,
    # hand 3 being a wall game, hand 4 too (004 Sheet 16).
    assert state.next.dealer == 2


def test_a_hand_another_rule_refuses_is_a_wall_game_there_when_comparing():
    chow_hand = {**PUNG_HAND, "melds": [{"kind": "chow", "tile": "b2"}, *PUNG_HAND["melds"][1:]]}
    hands = [recorded(1), recorded(2, chow_hand, winner=2), recorded(3)]
    no_chows = SessionRules(get_house_rule("west-wind-goulash"))  # 000 line 7: no chows
    as_errors = replay(SEATS, hands, no_chows)
    as_walls = replay(SEATS, hands, no_chows, refused="wall_game")
    assert [bool(row.error) for row in as_errors.hands] == [False, True, False]
    assert not as_errors.hands[1].counted and not as_errors.hands[1].net
    walled = as_walls.hands[1]
    assert walled.error == as_errors.hands[1].error and walled.scores
    assert sum(walled.net.values()) + walled.pot_after - walled.pot_before == 0
    assert sum(as_walls.totals.values()) + as_walls.pot == sum(as_errors.totals.values()) + \
        as_errors.pot
