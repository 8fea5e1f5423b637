"""A hand won on another player's tile whose discarder nobody knows (``"discarder":
"unknown"``): checked by ``play.check_entry``, settled as ``settlements.engine`` documents
(nobody is charged as the discarder; every loser pays the winner), replayed from storage the
same way. Plain Python: no Django, no database."""

from __future__ import annotations

import pytest

from play import (
    UNKNOWN,
    HandInputError,
    RecordedHand,
    SeatInfo,
    Seating,
    SessionRules,
    check_entry,
    compute_hand,
    replay,
)
from scoring.engine import get_house_rule

SEATING = Seating({1: "E", 2: "S", 3: "W", 4: "N"}, "E")
SCORES = {"E": {"score": 8}, "S": {"score": 64}, "W": {"score": 0}, "N": {"score": 16}}


def nets(entry, rule="bmja"):
    hand = compute_hand(SessionRules(get_house_rule(rule)), SEATING, check_entry(entry, SEATING), 0)
    return hand.settlement.net, hand


def test_the_entry_check_takes_an_unknown_discarder():
    outcome = check_entry({"winner": "S", "discarder": UNKNOWN, "seats": SCORES}, SEATING)
    assert (outcome.discarder, outcome.discarder_unknown, outcome.win_from) == (None, True,
                                                                               "discard")
    assert outcome.discarder_entered == UNKNOWN
    robbed = check_entry({"winner": "S", "discarder": UNKNOWN, "win_from": "robbed_kong",
                          "seats": SCORES}, SEATING)
    assert robbed.discarder_unknown and robbed.win_from == "robbed_kong"


@pytest.mark.parametrize(("change", "path", "fragment"), [
    ({"win_from": "wall"}, "discarder", "has no discarder"),
    ({"win_from": "kong_box"}, "discarder", "has no discarder"),
    ({"winner": None, "draw": True}, "draw", "no discarder"),
    ({"discarder": "unknwon"}, "discarder", "'unknown'"),
])
def test_an_unknown_discarder_only_where_a_tile_was_given(change, path, fragment):
    with pytest.raises(HandInputError) as caught:
        check_entry({"winner": "S", "discarder": UNKNOWN, "seats": SCORES, **change}, SEATING)
    assert fragment in " ".join(caught.value.errors[path])


def test_a_discard_without_a_discarder_still_asks_who_or_unknown():
    with pytest.raises(HandInputError) as caught:
        check_entry({"winner": "S", "win_from": "discard", "seats": SCORES}, SEATING)
    assert "'unknown' when nobody knows" in caught.value.errors["discarder"][0]


@pytest.mark.parametrize("discarder", ["E", "W", "N"])
def test_under_bmja_it_pays_what_any_named_discarder_would(discarder):
    """BMJA (and Kajongg): everyone pays the winner whoever discarded, so the nets are the
    same as with any discarder named."""
    unknown, _ = nets({"winner": "S", "discarder": UNKNOWN, "seats": SCORES})
    named, _ = nets({"winner": "S", "discarder": discarder, "seats": SCORES})
    assert unknown == named
    assert sum(unknown.values()) == 0


def test_where_the_discarder_pays_more_every_loser_pays_as_self_drawn():
    """002's winner_table: on a named discard only the discarder pays, double; unknown, nobody
    is singled out: every loser pays the winner's value (East double), as self-drawn."""
    unknown, hand = nets({"winner": "S", "discarder": UNKNOWN, "seats": SCORES}, "guide")
    wall, _ = nets({"winner": "S", "win_from": "wall", "seats": SCORES}, "guide")
    assert unknown == wall == {"E": -128, "S": 256, "W": -64, "N": -64}
    assert all("the discarder unknown" in p.why for p in hand.settlement.payments)
    named, _ = nets({"winner": "S", "discarder": "W", "seats": SCORES}, "guide")
    assert named == {"E": 0, "S": 128, "W": -128, "N": 0}


def test_a_stored_hand_with_no_discarder_on_a_discard_replays_as_unknown():
    seats = tuple(SeatInfo(i, n, i - 1, w, None) for i, n, w in
                  ((1, "A", "E"), (2, "B", "S"), (3, "C", "W"), (4, "D", "N")))
    hand = RecordedHand(1, 1, False, "E", 1, 2, None, False, False, "discard", {},
                        {i: {"kind": "quick", "data": SCORES[w], "wind": w}
                         for i, w in ((1, "E"), (2, "S"), (3, "W"), (4, "N"))})
    state = replay(seats, [hand], SessionRules(get_house_rule("bmja")))
    assert state.hands[0].error is None
    assert hand.outcome(SEATING).discarder_unknown
    expected, _ = nets({"winner": "S", "discarder": UNKNOWN, "seats": SCORES})
    assert state.totals == {1: expected["E"], 2: expected["S"], 3: expected["W"],
                            4: expected["N"]}
