"""The ``balsall-common`` house rule, checked against 003_332fcd91a722cdf3.txt (lines cited).

Points only, no doubles. The chicken hand below (line 369: mixed chows and pongs, a pair) is
worth nothing on its own; it holds the red flower 3 (not the round's, not the seat's) so that
the "no flowers" extra stays out of the way. Each test changes one thing and checks its points.
"""

from __future__ import annotations

import pytest

from scoring.engine import get_house_rule
from tests.houserules.conftest import hand, score

CHICKEN = "chow b1, pung c8, chow d3, pung b6"


def bc(melds=CHICKEN, pair="d7 d7", win="d7 discard", bonus="f3", **kw):
    return hand(melds, pair, win=win, bonus=bonus, rules="balsall-common", **kw)


def test_house_rule_parameters_003():
    """Points rather than doubles (line 315); any number of chows (lines 173, 197: "any of
    Chi, Pong or Kong"); minimum 3 points, 5 in a goulash (lines 311, 537, 569); kong chips
    3/2/1 (lines 238-250); goulash pot 5 each (line 535); dealer repeats after a win or a draw
    (lines 49-55), but a goulash passes the dice (lines 569-571)."""
    rule = get_house_rule("balsall-common")
    s = rule.scoring
    assert s.use_doubles is False
    assert s.max_chows is None
    assert s.go_out_minimum == (("points", 3),)
    assert s.goulash_go_out_minimum == (("points", 5),)
    assert s.wild_tiles is None
    p = rule.payment
    assert p.scheme == "discarder_pays"
    assert (p.kong_chips_concealed, p.kong_chips_claimed, p.kong_chips_added) == (3, 2, 1)
    assert p.goulash_pot_per_player == 5
    assert p.points_to_payment, "003 gives no table: the house rule must carry a default"
    values = [pay for _, pay in p.points_to_payment]
    assert values == sorted(values)
    # The chosen default, as the description documents it: 3 points (the minimum) pay 8 chips,
    # 10 points or more pay 128.
    table = dict(p.points_to_payment)
    assert (table[3], table[10]) == (8, 128)
    assert p.goulash_pays_pot_only is True
    r = rule.rotation
    assert r.scheme == "dealer_repeats"
    assert r.dealer_repeats_on_win and r.dealer_repeats_on_draw
    assert r.max_consecutive_dealer is None
    assert r.goulash_passes_dealer is True
    assert "points-to-payment" in rule.description or "points to payment" in rule.description


def test_chicken_hand_scores_nothing_and_cannot_go_out_lines_311_369():
    result = score(bc())
    assert result.points == 0
    assert result.meets_minimum is False
    assert "3" in result.minimum_reason
    assert "points" in result.minimum_reason


# -- the "+" extras, lines 315-359: one point each -----------------------------------------

EXTRAS = [
    # line 319: pong/kong of dragons, one point each
    ({"melds": "chow b1, pung c8, chow d3, pung dr"}, 1),
    ({"melds": "chow b1, pung dg, chow d3, kong dr"}, 2),
    # lines 320-322: pong/kong of the wind of the round (East)
    ({"melds": "chow b1, pung c8, chow d3, pung we"}, 1),
    # lines 324-326: pong/kong of the wind of your seat (South)
    ({"melds": "chow b1, pung c8, chow d3, kong ws"}, 1),
    # both at once: East seat in the East round
    ({"melds": "chow b1, pung c8, chow d3, pung we", "seat": "E"}, 2),
    # a wind that is neither: nothing
    ({"melds": "chow b1, pung c8, chow d3, pung wn"}, 0),
    # lines 328-330 and 337: last tile of the wall, self-drawn
    ({"win": "d7 wall", "last_wall_tile": True}, 2),
    # line 331: last discard
    ({"last_discard": True}, 1),
    # lines 333-335, 258-264: replacement tile from the flower wall (and self-drawn)
    ({"win": "d7 kong_box", "kong_replacement": True}, 2),
    # line 337: self-draw
    ({"win": "d7 wall"}, 1),
    # line 347: no flowers
    ({"bonus": ""}, 1),
    # lines 349-351 and 357: all four red flowers, one of them the round's (1 = East)
    ({"bonus": "f1 f2 f3 f4"}, 2),
    # lines 353-355 and 359: all four blue flowers, one of them the seat's (2 = South)
    ({"bonus": "s1 s2 s3 s4"}, 2),
    # line 357: the red flower for the round
    ({"bonus": "f1"}, 1),
    # line 359: the blue flower for the seat
    ({"bonus": "s2"}, 1),
    # a blue flower that is not the seat's
    ({"bonus": "s1"}, 0),
]


@pytest.mark.parametrize(("change", "points"), EXTRAS)
def test_plus_extras_003_lines_315_to_359(change, points):
    result = score(bc(**change))
    assert result.points == points
    assert result.doubles == 0


@pytest.mark.parametrize("win", ["d7 discard", "c8 discard", "b6 wall"])
def test_concealed_hand_extra_line_341(win):
    """Nothing exposed before going out; the winning tile may be a discard (self-drawn adds its
    own point)."""
    data = hand("", "b1 b2 b3 c8 c8 c8 d3 d4 d5 b6 b6 b6 d7 d7", win=win,
                bonus="f3", rules="balsall-common")
    assert score(data).points == (2 if win.endswith("wall") else 1)


def test_an_exposed_set_is_not_a_concealed_hand_line_341():
    data = hand("pung c8", "b1 b2 b3 d3 d4 d5 b6 b6 b6 d7 d7", win="d7 discard",
                bonus="f3", rules="balsall-common")
    assert score(data).points == 0


# -- basic Mah Jong hands, lines 367-396 -----------------------------------------------------

BASIC = [
    ("chow b1, chow c5, chow d3, chow b6", "d7 d7", 1),  # line 373: sequence 1+
    ("pung b1, pung c8, pung d3, pung b6", "d7 d7", 3),  # line 380: all pongs 3+
    ("chow c1, pung c8, chow c4, pung wn", "c5 c5", 3),  # line 384: semi-pure 3+
    ("chow c1, chow c4, pung c8, chow c5", "c2 c2", 6),  # line 393: pure 6+
    ("pung c1, pung c8, pung c4, pung wn", "c5 c5", 6),  # all pongs + semi-pure
    ("pung c1, pung c8, pung c4, pung c6", "c5 c5", 9),  # all pongs + pure
]


@pytest.mark.parametrize(("melds", "pair", "points"), BASIC)
def test_basic_hands_003_lines_367_to_396(melds, pair, points):
    tile = pair.split()[0]
    result = score(bc(melds, pair, win=f"{tile} discard"))
    assert result.points == points


def test_any_number_of_chows_is_a_valid_hand_lines_173_197():
    result = score(bc("chow b1, chow c5, chow d3, chow b6", "we we", win="we discard",
                      bonus="", last_discard=True))
    # sequence 1 + no flowers 1 + last discard 1
    assert result.points == 3
    assert result.meets_minimum is True


# -- special hands, lines 399-450: the special value replaces the basic hand; "+" still adds -

SPECIAL = [
    # line 401: three big dragons 6, + 3 pongs of dragons
    ("pung dr, pung dg, pung dw, chow c1", "b5 b5", 9),
    # line 407: little winds 8, + round wind (East) + seat wind (South)
    ("pung we, pung ws, pung ww, chow c1", "wn wn", 10),
    # line 414: big four winds 10, + round and seat winds
    ("pung we, pung ws, pung ww, pung wn", "c5 c5", 12),
    # line 418: all honours 10, + 2 pongs of dragons
    ("pung ww, pung wn, pung dr, pung dg", "dw dw", 12),
    # line 422: all terminals 10
    ("pung b1, pung b9, pung c1, pung d9", "c9 c9", 10),
    # line 429: all kongs 10
    ("kong b2, kong c3, kong d4, kong b7", "d8 d8", 10),
    # line 435: jade dragon 10, + pong of dragons
    ("pung b2, pung b3, pung b8, pung dg", "b5 b5", 11),
    # line 441: ruby dragon 10 +1
    ("pung c2, pung c3, pung c8, pung dr", "c5 c5", 11),
    # line 447: pearl dragon 10 +1
    ("pung d2, pung d3, pung d8, pung dw", "d5 d5", 11),
]


@pytest.mark.parametrize(("melds", "pair", "points"), SPECIAL)
def test_special_hands_003_lines_399_to_450(melds, pair, points):
    tile = pair.split()[0]
    result = score(bc(melds, pair, win=f"{tile} discard"))
    assert result.points == points


# -- special concealed hands, lines 453-524: no honour or concealed extras ------------------

CONCEALED_SPECIAL = [
    ("b1 b1 c3 c3 d5 d5 we we dr dr b7 b7 c9 c9", "c9 discard", "seven_pairs", 6),  # line 461
    ("b1 c1 b2 c2 b4 c4 b5 c5 b6 c6 b8 c8 b9 c9", "c9 discard", "double_knitting", 6),  # 465
    ("b1 c1 d1 b3 c3 d3 b5 c5 d5 b7 c7 d7 b9 c9", "c9 discard", "triple_knitting", 6),  # 472
    ("c1 c1 c1 c2 c3 c4 c5 c5 c6 c7 c8 c9 c9 c9", "c5 discard", "nine_gates", 10),  # 484
    ("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw discard", "thirteen_orphans", 10),  # 501
    # line 511: hidden treasure, self-drawn (+1 self-draw; no point for the dragon pong)
    ("b1 b1 b1 c8 c8 c8 d3 d3 d3 dr dr dr d7 d7", "d7 wall", "hidden_treasure", 11),
    ("c1 c2 c3 c4 c5 c6 c7 c8 c9 we ws ww dr dg", "dg discard", "little_snake", 10),  # 518
    ("c1 c2 c3 c4 c5 c6 c7 c8 c9 dr dr dr we we", "we discard", "great_snake", 10),  # 522
]


@pytest.mark.parametrize(("tiles", "win", "code", "points"), CONCEALED_SPECIAL)
def test_special_concealed_hands_003_lines_453_to_524(tiles, win, code, points):
    result = score(hand("", tiles, win=win, bonus="f3", rules="balsall-common"))
    assert result.points == points
    assert code in result.item_codes
    # Line 457: no points for pongs of honours or for being concealed; no basic hand either.
    assert not result.item_codes & {"concealed_hand", "dragon_set", "round_wind_set",
                                    "seat_wind_set", "pure", "semi_pure", "all_pongs"}
    assert result.meets_minimum is True


def test_great_snake_won_on_a_discard_inside_the_run_lines_459_522():
    """Line 459: special concealed hands may take the final tile from a discard."""
    tiles = "c1 c2 c3 c4 c5 c6 c7 c8 c9 dr dr dr we we"
    result = score(hand("", tiles, win="c5 discard", bonus="f3", rules="balsall-common"))
    assert "great_snake" in result.item_codes
    assert result.points == 10


def test_hidden_treasure_needs_a_self_drawn_win_line_511():
    tiles = "b1 b1 b1 c8 c8 c8 d3 d3 d3 dr dr dr d7 d7"
    result = score(hand("", tiles, win="d7 discard", bonus="f3", rules="balsall-common"))
    # Not hidden treasure: all pongs 3 + concealed 1 + pong of dragons 1.
    assert result.points == 5


# -- minimums, lines 311-313 and 537/569 -----------------------------------------------------


def test_three_points_go_out_line_311():
    result = score(bc("pung b1, pung c8, pung d3, pung b6"))
    assert result.points == 3
    assert result.meets_minimum is True


def test_goulash_needs_five_points_lines_537_and_569():
    three = score(bc("pung b1, pung c8, pung d3, pung b6", goulash=True))
    assert three.points == 3
    assert three.meets_minimum is False
    assert "5" in three.minimum_reason
    five = score(bc("pung b1, pung c8, pung d3, pung dr", bonus="", goulash=True))
    assert five.points == 5
    assert five.meets_minimum is True


def test_three_player_five_point_option_line_313():
    from scoring.engine.rules.balsall_common import three_player_five_point_minimum

    rule = three_player_five_point_minimum(get_house_rule("balsall-common"))
    assert rule.scoring.players == 3
    assert rule.scoring.go_out_minimum == (("points", 5),)
    assert score(bc("pung b1, pung c8, pung d3, pung b6"), rule).meets_minimum is False
