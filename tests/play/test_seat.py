"""play.seat: what settlement needs of one seat, from a quick entry or a hand of tiles, and the
hand at the table built from the seats (no Django, no database)."""

from __future__ import annotations

import pytest

from play import HandInputError
from play.seat import SeatFacts, full_seat, quick_facts, quick_minimum_problem, quick_seat, table_of
from scoring.engine import get_house_rule, parse_hand, score_hand

BMJA = get_house_rule("bmja")
KONG_HAND = {"seat_wind": "S", "prevailing_wind": "E", "mahjong": True,
             "melds": [{"kind": "kong", "tile": "b2", "concealed": True},
                       {"kind": "pung", "tile": "c5"}, {"kind": "pung", "tile": "d7"}],
             "concealed": ["dr", "dr", "dr", "we", "we"], "bonus": ["f2"],
             "win": {"tile": "we", "from": "discard"}}


def test_a_quick_entry_keeps_its_kongs_and_flowers():
    facts = quick_seat({"score": 24, "kongs": ["claimed"], "bonus": ["f1", "s3"]})
    assert facts == SeatFacts(24, ("claimed",), ("f1", "s3"))
    assert facts.items == frozenset() and facts.result is None
    assert quick_facts({"score": 0}) == SeatFacts(0)


@pytest.mark.parametrize("data, path", [({"score": -2}, "score"), ({}, "score"),
                                        ({"score": 8, "bonus": ["x9"]}, "bonus")])
def test_a_bad_quick_entry_names_its_field(data, path):
    with pytest.raises(HandInputError) as caught:
        quick_seat(data)
    assert path in caught.value.errors


def test_a_hand_of_tiles_is_scored_by_the_engine():
    hand = parse_hand(KONG_HAND)
    facts = full_seat(hand, BMJA)
    assert facts.score == score_hand(hand, BMJA).score > 0
    assert facts.kongs == ("concealed",) and facts.bonus == ("f2",)
    assert facts.win.source == "discard"
    assert facts.items == facts.result.item_codes and facts.items


@pytest.mark.parametrize("slug, score, goulash, refused", [
    ("bmja", 0, False, False),                  # no minimum to go out
    ("balsall-common", 2, False, True),         # 3 points needed
    ("balsall-common", 3, False, False),
    ("balsall-common", 4, True, True),          # 5 in a goulash
    ("west-wind-goulash", 0, False, False),     # a typed score says nothing of doubles
    ("bmja-2-players", 400, False, False),      # "4 doubles or 500": doubles may be met
])
def test_the_minimum_to_go_out_read_from_an_agreed_score(slug, score, goulash, refused):
    problem = quick_minimum_problem(get_house_rule(slug), score, goulash)
    assert (problem is not None) is refused
    if refused:
        assert f"the agreed score is {score}" in problem


def test_the_hand_at_the_table_reads_how_the_winner_went_out_from_the_tiles():
    winner = full_seat(parse_hand(KONG_HAND), BMJA)
    seats = {"E": quick_facts({"score": 8}), "S": winner, "W": quick_facts({"score": 4}),
             "N": quick_facts({"score": 0, "kongs": ["claimed"]})}
    table = table_of(seats, winner="S", discarder="W", draw=False, goulash=False, dealer="E",
                     pot=0, prevailing_wind="E")
    assert table.win_source == "discard"  # the hand's own win.from
    assert table.scores == {"E": 8, "S": winner.score, "W": 4, "N": 0}
    assert table.kongs == {"S": ("concealed",), "N": ("claimed",)}
    assert table.winner_items == winner.items
    assert not table.kong_replacement_win
    said = table_of(seats, winner="S", discarder=None, draw=False, goulash=False, dealer="E",
                    pot=0, prevailing_wind="E", win_from="kong_box", kong_replacement=True)
    assert said.win_source == "kong_box" and said.kong_replacement_win
    wall = table_of(seats, winner=None, discarder=None, draw=True, goulash=False, dealer="E",
                    pot=0, prevailing_wind="E", win_from="wall")
    assert wall.win_source is None and wall.winner_items == frozenset()
