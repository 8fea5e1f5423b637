"""play.seating: who plays which wind, and how the seating moves on from hand to hand under
each house rule's rotation, kept as JSON between hands (no Django, no database)."""

from __future__ import annotations

import pytest

from play import (
    SeatInfo,
    Seating,
    SeatingError,
    apply_swaps,
    rotation_advance,
    rotation_from_json,
    rotation_json,
    rotation_start,
    seating_of,
)
from scoring.engine import get_house_rule

# Ann drew North, Ben East, Cat South, Dan West; Eve came fifth, with no wind.
SEATS = tuple(SeatInfo(i, name, i - 1, wind, None) for i, (name, wind) in enumerate(
    zip(("Ann", "Ben", "Cat", "Dan", "Eve"), ("N", "E", "S", "W", ""), strict=True), start=1))
BMJA = get_house_rule("bmja")


def test_the_first_hand_is_seated_by_the_winds_drawn():
    first = seating_of(rotation_start(BMJA, SEATS[:4]))
    assert first.winds == {2: "E", 3: "S", 4: "W", 1: "N"}
    assert first.dealer_seat == 2 and first.dealer_wind == "E"
    assert first.prevailing_wind == "E" and not first.goulash
    assert first.winds_in_play == ("E", "S", "W", "N")
    assert first.seat_ids == {"E": 2, "S": 3, "W": 4, "N": 1} and first.seat_of("N") == 1
    with pytest.raises(KeyError):
        first.seat_of("X")


def test_bmja_east_keeps_the_deal_on_a_win_and_passes_it_when_another_wins():
    start = rotation_start(BMJA, SEATS[:4])
    assert seating_of(rotation_advance(BMJA, start, 2)).winds == seating_of(start).winds
    passed = seating_of(rotation_advance(BMJA, start, 1))
    assert passed.winds == {3: "E", 4: "S", 1: "W", 2: "N"} and passed.dealer_seat == 3


def test_after_a_wall_game_the_deal_stays_and_the_next_hand_is_a_goulash():
    after = seating_of(rotation_advance(BMJA, rotation_start(BMJA, SEATS[:4]), None))
    assert after.dealer_seat == 2 and after.goulash and after.after_draw


def test_where_the_winner_deals_the_winds_stay():
    guide = get_house_rule("guide")
    after = seating_of(rotation_advance(guide, rotation_start(guide, SEATS[:4]), 3))
    assert after.winds == {2: "E", 3: "S", 4: "W", 1: "N"}  # nobody changes wind
    assert after.dealer_seat == 3 and after.dealer_wind == "S"


def test_a_fifth_player_without_a_wind_sits_out_the_first_hand():
    five = get_house_rule("bmja-5-players")
    first = seating_of(rotation_start(five, SEATS))
    assert 5 not in first.winds and len(first.winds) == 4


def test_the_wrong_number_of_players_is_a_sentence():
    with pytest.raises(SeatingError) as caught:
        rotation_start(BMJA, SEATS[:3])
    assert "is for 4 players" in caught.value.errors["seats"][0]


def test_two_players_recorded_the_wrong_way_round_swap_places_and_the_deal():
    start = rotation_start(BMJA, SEATS[:4])
    swapped = seating_of(apply_swaps(start, {"swap_seats": [[1, 2]]}))
    assert swapped.winds == {1: "E", 3: "S", 4: "W", 2: "N"} and swapped.dealer_seat == 1
    assert apply_swaps(start, None) == start == apply_swaps(start, {})


def test_the_rotation_and_the_seating_come_back_whole_from_json():
    rot = rotation_advance(BMJA, rotation_start(BMJA, SEATS[:4]), None)
    assert rotation_from_json(rotation_json(rot)) == rot
    seating = seating_of(rot)
    assert Seating.from_json(seating.to_json()) == seating
    assert seating.to_json()["winds"] == {"2": "E", "3": "S", "4": "W", "1": "N"}
