"""The ``guide`` house rule, checked against 002_1b03d2f4abf31b8e.txt (line numbers cited).

Most hands share three exposed chows (b1, c5, d3: no points, and not all simples) and a pair of
7 circles won on a discard, so each test changes one set and its points and doublings are the
table row under test: score = (20 + row points) x 2^(row doublings).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import get_house_rule
from tests.houserules.conftest import hand, score

CHOWS = "chow b1, chow c5, chow d3"


def base(fourth: str, pair: str = "d7 d7", win: str = "d7 discard", **kw):
    return hand(f"{CHOWS}, {fourth}", pair, win=win, rules="guide", **kw)


def test_house_rule_parameters_002_lines_205_460_477_281():
    """Only the winner scores (lines 205, 460); limit 2,000 caps every hand (477-478);
    2,000 points each at the start (281-283); no minimum to go out; any number of chows."""
    rule = get_house_rule("guide")
    assert rule.scoring.only_winner_scores is True
    assert rule.scoring.limit == 2000
    assert rule.scoring.cap_ordinary_hands is True
    assert rule.scoring.go_out_minimum == ()
    assert rule.scoring.max_chows is None
    assert rule.payment.scheme == "winner_table"
    assert rule.payment.starting_tally == 2000
    assert rule.rotation.scheme == "winner_deals"
    # 002 lines 442-443 (#21): the round's wind moves on when the dealer loses the 5th game
    # or later, and the description names that reading.
    assert rule.rotation.wind_moves_on == "after_games_per_wind"
    assert "wind_moves_on" in rule.description and "5th game" in rule.description
    assert "002" in rule.source
    for reading in ("flower", "limit", "doubling"):
        assert reading in rule.description.lower()


# -- basic scoring tables, lines 641-894: (melded points, doublings), (concealed points, doublings)

SUIT_ROWS = [
    # line 675: minor pong 2/- melded, 4/1 concealed
    ("pung c8", 2, 0),
    ("pung c8 concealed", 4, 1),
    # line 683: minor kong 8/1, 16/1
    ("kong c8", 8, 1),
    ("kong c8 concealed", 16, 1),
    # line 715: terminal pong 4/-, 8/1
    ("pung c9", 4, 0),
    ("pung c9 concealed", 8, 1),
    # line 724: terminal kong 16/1, 32/1
    ("kong c9", 16, 1),
    ("kong c9 concealed", 32, 1),
    # line 782: wind pong (neither own nor prevailing wind) 4/-, 8/1
    ("pung wn", 4, 0),
    ("pung wn concealed", 8, 1),
    # lines 792, 802: prevailing or personal wind pong 4/1, 8/1
    ("pung we", 4, 1),
    ("pung we concealed", 8, 1),
    ("pung ws", 4, 1),
    ("pung ws concealed", 8, 1),
    # line 823: wind kong 16/1, 32/1
    ("kong wn", 16, 1),
    ("kong wn concealed", 32, 1),
    # lines 825-842: prevailing or personal wind kong 16/2, 32/2
    ("kong we", 16, 2),
    ("kong ws concealed", 32, 2),
    # line 886: dragon pong 4/2, 8/2
    ("pung dr", 4, 2),
    ("pung dg concealed", 8, 2),
    # line 894: dragon kong 16/2, 32/2
    ("kong dw", 16, 2),
    ("kong dr concealed", 32, 2),
]


@pytest.mark.parametrize(("fourth", "points", "doublings"), SUIT_ROWS)
def test_set_rows_002_basic_scoring_tables_lines_641_to_894(fourth, points, doublings):
    result = score(base(fourth))
    assert (result.points, result.doubles) == (20 + points, doublings)
    assert result.score == (20 + points) * 2**doublings


@pytest.mark.parametrize(
    ("fourth", "points", "doublings"),
    [
        # line 815: double wind pong (personal and prevailing) 8/2, 16/2
        ("pung we", 8, 2),
        ("pung we concealed", 16, 2),
        # line 855: double wind kong 32/4, 64/4
        ("kong we", 32, 4),
        ("kong we concealed", 64, 4),
    ],
)
def test_double_wind_sets_002_lines_804_815_and_844_855(fourth, points, doublings):
    result = score(base(fourth, seat="E", round="E"))
    assert (result.points, result.doubles) == (20 + points, doublings)
    assert result.score == (20 + points) * 2**doublings


@pytest.mark.parametrize(
    ("pair", "seat", "points"),
    [
        ("c5 c5", "S", 0),  # line 662: minor pair 0
        ("c9 c9", "S", 0),  # line 706: terminal pair 0
        ("wn wn", "S", 0),  # line 747: ordinary wind pair 0
        ("we we", "S", 2),  # line 754: pair of the prevailing wind 2
        ("ws ws", "S", 2),  # line 761: pair of the personal wind 2
        ("we we", "E", 4),  # line 774: double wind pair 4
        ("dr dr", "S", 2),  # line 878: pair of dragons 2
    ],
)
def test_pair_rows_002_lines_656_to_878(pair, seat, points):
    tile = pair.split()[0]
    result = score(base("pung c8", pair=pair, win=f"{tile} discard", seat=seat))
    # 20 Mah Jong + 2 for the exposed minor pung + the pair.
    assert (result.points, result.doubles) == (22 + points, 0)


# -- Mah Jong bonus table, lines 548-638 -----------------------------------------------------


def test_mahjong_on_a_discard_scores_20_line_573():
    assert score(base("pung c8")).points == 22


def test_mahjong_from_the_wall_scores_22_line_578():
    assert score(base("pung c8", win="d7 wall")).points == 24


def test_mahjong_from_the_kong_box_scores_20_line_564():
    assert score(base("pung c8", win="d7 kong_box", kong_replacement=True)).points == 22


def test_concealed_hand_adds_10_line_586():
    """All concealed, won from the wall: 20 + 2 (wall) + 10 (concealed) + 4 (concealed minor
    pong, 1 doubling)."""
    result = score(hand("", "b1 b2 b3 c5 c6 c7 d3 d4 d5 c8 c8 c8 d7 d7", win="d7 wall"))
    assert (result.points, result.doubles) == (36, 1)
    assert result.score == 72


@pytest.mark.parametrize(
    ("win", "flags"),
    [
        ("d7 wall", {"last_wall_tile": True}),  # line 595: last wall tile, 1 doubling
        ("d7 discard", {"last_discard": True}),  # line 607: last discard, 1 doubling
    ],
)
def test_last_tile_doublings_lines_588_607(win, flags):
    plain = score(base("pung c8", win=win))
    result = score(base("pung c8", win=win, **flags))
    assert result.points == plain.points
    assert result.doubles == plain.doubles + 1
    assert result.score == plain.score * 2


def test_robbing_a_kong_one_doubling_line_619():
    data = hand("chow c5, chow d3, pung c8", "b1 b2 b3 d7 d7", win="b3 robbed_kong",
                robbed_kong=True)
    result = score(data)
    assert (result.points, result.doubles) == (22, 1)


@pytest.mark.parametrize(
    ("seat", "flag"),
    [("E", "heavenly"), ("S", "earthly")],  # lines 621-638: automatically the maximum
)
def test_heavenly_and_earthly_hands_score_the_maximum_lines_621_638(seat, flag):
    source = "wall" if flag == "heavenly" else "discard"
    tiles = "b1 b2 b3 c5 c6 c7 d3 d4 d5 c8 c8 c8 d7 d7"
    data = hand("", tiles, win=f"d7 {source}", seat=seat, **{flag: True})
    result = score(data)
    assert result.score == 2000
    assert result.limit is not None


# -- flowers and seasons, lines 897-945 ------------------------------------------------------


@pytest.mark.parametrize(
    ("bonus", "points", "doublings"),
    [
        ("f3", 2, 0),  # line 905: each flower 2
        ("s4", 2, 0),  # line 903: each season 2
        ("f3 s4", 4, 0),
        ("f2", 2, 1),  # lines 916-923: own flower (South = 2), 1 doubling
        ("s2", 2, 1),  # lines 907-914: own season, 1 doubling
        ("f2 s2", 4, 2),
        ("f1", 2, 0),  # the prevailing wind's flower, read as not the player's own
        ("f1 f2 f3 f4", 8, 4),  # line 945: bouquet, 1 doubling per tile (own flower included)
        ("s1 s2 s3 s4", 8, 4),  # line 943: four seasons, 1 doubling per tile
    ],
)
def test_flowers_and_seasons_002_lines_897_to_945(bonus, points, doublings):
    result = score(base("pung c8", bonus=bonus))
    assert (result.points, result.doubles) == (22 + points, doublings)


def test_own_flower_reading_is_a_parameter_line_920():
    """Line 920 ties the flower to the prevailing wind; a club that reads it so changes the
    item's argument, not the engine."""
    rule = get_house_rule("guide")
    item = rule.item("own_flower")
    variant = rule.derive(
        "guide-round-flower",
        {"items": {"own_flower": {"args": {**item.kwargs, "wind": "round"}}}},
    )
    assert score(base("pung c8", bonus="f1"), variant).doubles == 1
    assert score(base("pung c8", bonus="f2"), variant).doubles == 0


# -- special hands by doublings, lines 948-1121 ----------------------------------------------


def test_no_points_hand_one_doubling_line_961():
    result = score(hand(f"{CHOWS}, chow c1", "d7 d7", win="d7 discard"))
    assert (result.points, result.doubles, result.score) == (20, 1, 40)


def test_all_simples_one_doubling_line_967():
    result = score(hand("chow b2, chow c5, chow d3, pung c8", "d7 d7", win="d7 discard"))
    assert (result.points, result.doubles, result.score) == (22, 1, 44)


def test_three_consecutive_chows_one_doubling_line_969():
    result = score(hand("chow b1, chow b2, chow b3, pung c8", "d7 d7", win="d7 discard"))
    assert (result.points, result.doubles) == (22, 1)


def test_four_triplets_none_concealed_one_doubling_line_974():
    result = score(hand("pung c8, pung d2, pung b3, pung c9", "d7 d7", win="d7 discard"))
    assert (result.points, result.doubles, result.score) == (30, 1, 60)


def test_three_and_one_one_doubling_line_980():
    """Three concealed minor pongs (4 points, 1 doubling each) and a chow, won from the wall."""
    data = hand(
        "pung c8 concealed, pung d2 concealed, pung b3 concealed, chow c1", "d7 d7", win="d7 wall"
    )
    result = score(data)
    assert (result.points, result.doubles) == (34, 4)
    assert result.score == 544


def test_four_triplets_three_concealed_two_doublings_line_982():
    data = hand(
        "pung c8 concealed, pung d2 concealed, pung b3 concealed, pung c9", "d7 d7", win="d7 wall"
    )
    result = score(data)
    # 20 + 2 wall + 3 x 4 + 4; doublings 3 (concealed pongs) + 2.
    assert (result.points, result.doubles) == (38, 5)
    assert result.score == 38 * 32


def test_one_suit_only_eight_doublings_capped_at_the_limit_lines_988_and_477():
    result = score(hand("chow c1, chow c4, chow c5, pung c8", "c9 c9", win="c9 discard"))
    assert result.doubles == 8
    assert result.score == 2000
    assert result.limit is not None


def test_all_honours_or_terminals_line_1036():
    """Pongs of 1 characters, 9 circles, North and Red with a pair of 1 bamboo: 20 + 16
    points; doublings: dragon pong 2, all honours/terminals 1, honour/terminal in each set 1,
    four triplets 1."""
    result = score(hand("pung c1, pung d9, pung wn, pung dr", "b1 b1", win="b1 discard"))
    assert (result.points, result.doubles) == (36, 5)
    assert result.score == 1152


def test_honour_or_terminal_in_each_set_line_1044():
    result = score(hand("chow b1, chow c7, pung d9, pung wn", "dr dr", win="dr discard"))
    assert (result.points, result.doubles, result.score) == (30, 1, 60)


def test_one_suit_with_honours_line_1053():
    result = score(hand("chow c1, chow c4, pung c8, pung wn", "c5 c5", win="c5 discard"))
    assert (result.points, result.doubles, result.score) == (26, 1, 52)


def test_little_three_dragons_line_1061():
    result = score(hand("pung dr, pung dg, chow c1, chow b4", "dw dw", win="dw discard"))
    # 20 + 4 + 4 + 2; doublings 2 + 2 (dragon pongs) + 1.
    assert (result.points, result.doubles, result.score) == (30, 5, 960)


MAXIMUM_HANDS = [
    # line 994: four triplets, all concealed
    ("", "c8 c8 c8 d2 d2 d2 b3 b3 b3 c9 c9 c9 d7 d7", "d7 wall"),
    # line 1002: four concealed triplets (the pair from a discard)
    ("", "c8 c8 c8 d2 d2 d2 b3 b3 b3 c9 c9 c9 d7 d7", "d7 discard"),
    # line 1013: nine gates
    ("", "c1 c1 c1 c2 c3 c4 c5 c5 c6 c7 c8 c9 c9 c9", "c5 discard"),
    # line 1069: big three dragons
    ("pung dr, pung dg, pung dw, chow c1", "b5 b5", "b5 discard"),
    # line 1076: little four winds
    ("pung we, pung ws, pung ww, chow c1", "wn wn", "wn discard"),
    # line 1086: big four winds
    ("pung we, pung ws, pung ww, pung wn", "c5 c5", "c5 discard"),
    # line 1093: all honours
    ("pung we, pung ws, pung dr, pung dg", "wn wn", "wn discard"),
    # line 1100: all terminals
    ("pung b1, pung b9, pung c1, pung d9", "c9 c9", "c9 discard"),
    # line 1107: thirteen orphans
    ("", "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw discard"),
]


@pytest.mark.parametrize(("melds", "concealed", "win"), MAXIMUM_HANDS)
def test_special_hands_score_the_maximum_lines_994_to_1121(melds, concealed, win):
    result = score(hand(melds, concealed, win=win))
    assert result.score == 2000
    assert result.limit is not None
    assert result.special is not None


def test_only_the_winner_scores_line_460():
    losing = hand("pung dr, kong c8 concealed", "b1 b2 d5 d6 wn wn ww")
    result = score(losing)
    assert result.score == 0


def test_a_club_limit_caps_at_its_own_value_line_477():
    rule = get_house_rule("guide").derive("guide-3000", {"scoring": {"limit": 3000}})
    result = score(hand("chow c1, chow c4, chow c5, pung c8", "c9 c9", win="c9 discard"), rule)
    assert result.score == 3000


def test_special_hand_items_carry_the_limit_fraction_one():
    rule = get_house_rule("guide")
    assert rule.item("big_three_dragons").limit == Fraction(1)
