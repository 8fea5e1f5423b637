"""play.hand: one hand at the table, every seat scored, then settled; every problem found at
once, under the paths an entry names them by (no Django, no database)."""

from __future__ import annotations

import pytest

from play import HandInputError, Seating, SessionRules, check_entry, compute_hand
from play.hand import _nest_settlement_errors
from scoring.engine import get_house_rule

SEATING = Seating({1: "E", 2: "S", 3: "W", 4: "N"}, "E")
PUNG_HAND = {"melds": [{"kind": "pung", "tile": "b2"}, {"kind": "pung", "tile": "c5"},
                       {"kind": "pung", "tile": "d7"}], "concealed": ["dr", "dr", "dr", "we", "we"],
             "win": {"tile": "we"}}


def computed(entry, rule="bmja", seating=SEATING, pot=0):
    return compute_hand(SessionRules(get_house_rule(rule)), seating,
                        check_entry(entry, seating), pot)


def test_quick_scores_settle_to_nothing_lost_or_made():
    hand = computed({"winner": "S", "discarder": "W", "win_from": "discard",
                     "seats": {"E": {"score": 8}, "S": {"score": 64}, "W": {"score": 0},
                               "N": {"score": 16}}})
    assert {w: s.kind for w, s in hand.seats.items()} == dict.fromkeys("ESWN", "quick")
    assert sum(hand.settlement.net.values()) == 0
    assert hand.settlement.net["S"] > 0 > hand.settlement.net["W"]


def test_a_winners_tiles_are_scored_and_the_others_typed():
    hand = computed({"winner": "E", "win_from": "wall",
                     "seats": {"E": PUNG_HAND, "S": {"score": 4}, "W": {"score": 2},
                               "N": {"score": 0}}})
    east = hand.seats["E"]
    assert east.kind == "full" and east.result is not None and east.score == east.result.score
    # The dealer's win from the wall: everyone pays East double (bmja).
    assert hand.settlement.net["E"] == sum(-hand.settlement.net[w] for w in "SWN")


def test_every_seats_problem_is_said_at_once():
    broken = {**PUNG_HAND, "concealed": ["dr", "dr", "we", "we", "b9"]}
    with pytest.raises(HandInputError) as caught:
        computed({"winner": "E", "win_from": "wall",
                  "seats": {"E": broken, "S": {"score": 4}, "W": {"score": 2},
                            "N": {"score": 0}}})
    assert set(caught.value.errors["seats"]) == {"E"}


def test_an_agreed_score_under_the_rules_minimum_is_refused_at_the_winners_score():
    with pytest.raises(HandInputError) as caught:
        computed({"winner": "S", "win_from": "wall",
                  "seats": {"E": {"score": 0}, "S": {"score": 2}, "W": {"score": 0},
                            "N": {"score": 0}}}, rule="balsall-common")
    assert "at least 3 points" in caught.value.errors["seats"]["S"]["score"][0]


def test_a_goulash_is_scored_by_the_nights_goulash_rule():
    night = SessionRules(get_house_rule("bmja-west-wind"), get_house_rule("west-wind-goulash"))
    assert night.for_hand(goulash=True).slug == "west-wind-goulash"
    assert night.for_hand(goulash=False).slug == "bmja-west-wind"
    assert SessionRules(get_house_rule("bmja")).for_hand(goulash=True).slug == "bmja"


def test_the_settlement_engines_field_names_become_the_entrys():
    assert _nest_settlement_errors({
        "hands.E": ["a"], "scores.S.x": ["b"], "penalties.0": ["c"], "clean_hands": ["d"],
        "pot": ["e"], "": ["f"],
    }) == {"seats": {"E": ["a"], "S": ["b"]}, "facts": {"penalties": ["c"], "clean_hands": ["d"]},
           "pot": ["e"], "non_field_errors": ["f"]}
