"""The ``west-wind-goulash`` house rule, checked against 000_af6e52a887d8d887.txt.

Line 31 is the basic points table, line 32 the doubles table, lines 7, 15 and 30 the permitted
sets and the minimum of 3 doubles, line 19 the kitty, lines 33-34 bouquets and clean hands.
Hands are South's in the West round, played as a goulash.
"""

from __future__ import annotations

import pytest

from scoring.engine import HandError, get_house_rule
from tests.houserules.conftest import hand, score

# Three exposed minor pungs of different suits and a minor pair: 6 points, no doubles.
MIXED = "pung b2, pung c3, pung d4"


def ww(melds, pair="d6 d6", win="d6 discard", bonus="", seat="S", **kw):
    return hand(melds, pair, win=win, bonus=bonus, seat=seat, round="W",
                rules="west-wind-goulash", goulash=True, **kw)


def lines(result) -> dict[str, object]:
    return {line.code: line for line in result.lines}


def test_house_rule_parameters_000_lines_7_19_30_33_34():
    rule = get_house_rule("west-wind-goulash")
    s = rule.scoring
    assert s.max_chows == 0 and s.goulash_max_chows == 0  # line 7: no runs (chows)
    assert s.wild_tiles is None  # line 7: no jokers
    assert s.go_out_minimum == (("doubles", 3),)  # line 7: a minimum of 3 doubles
    p = rule.payment
    assert p.scheme == "goulash_kitty"
    assert p.kitty_per_player == 500  # line 19
    assert p.kitty_after_another_draw == 1000  # line 19
    assert p.bouquet_payment == 1000  # line 33: real bouquet 1000 from all
    assert p.double_bouquet_payment == 5000  # line 33: double bouquet 5000 from all
    assert p.clean_hand_pays_score is True  # line 34: a clean hand is paid its count
    assert "kitty" in rule.description.lower() and "count" in rule.description.lower()


# -- basic points, line 31 -----------------------------------------------------------------

POINTS = [
    ("pung b8", 2), ("pung b8 concealed", 4), ("kong b8", 8), ("kong b8 concealed", 16),
    ("pung b9", 4), ("pung b9 concealed", 8), ("kong b9", 16), ("kong b9 concealed", 32),
    ("pung wn", 4), ("pung wn concealed", 8), ("kong dr", 16), ("kong dr concealed", 32),
]


@pytest.mark.parametrize(("fourth", "points"), POINTS)
def test_set_points_line_31(fourth, points):
    result = score(ww(f"{MIXED}, {fourth}"))
    assert result.points == 20 + 6 + points


@pytest.mark.parametrize(
    ("pair", "points"),
    [("d6 d6", 0), ("b1 b1", 2), ("c9 c9", 2), ("wn wn", 2), ("we we", 2), ("dr dr", 2)],
)
def test_any_major_pair_scores_2_line_31(pair, points):
    tile = pair.split()[0]
    result = score(ww(f"{MIXED}, pung c8", pair=pair, win=f"{tile} discard"))
    assert result.points == 20 + 8 + points


def test_each_flower_4_and_mahjong_20_line_31():
    result = score(ww(f"{MIXED}, pung c8", bonus="f4 s1"))
    assert result.points == 20 + 8 + 8
    assert lines(result)["mahjong"].points == 20


def test_no_extra_points_for_a_wall_draw_line_31():
    result = score(ww(f"{MIXED}, pung c8", win="d6 wall"))
    assert result.points == 28


# -- doubles, line 32 ------------------------------------------------------------------------

DOUBLE_ROWS = [
    # 3 doubles: all pungs/kongs of honours
    ("pung we, pung wn, pung dr, pung dg", "dw dw", "all_honours", 3),
    # 3 doubles: pure suit (one suit, no honours)
    ("pung c2, pung c5, pung c7, pung c8", "c9 c9", "pure_suit", 3),
    # one suit with honours: 1 double (line 15: "1 double + 2 more doubles needed")
    ("pung c2, pung c5, pung c7, pung wn", "c9 c9", "one_suit_with_honours", 1),
    # 2 doubles: four kongs
    ("kong b2, kong c3, kong d4, kong b8", "d6 d6", "four_kongs", 2),
    # 3 doubles: three kongs
    ("kong b2, kong c3, kong d4, pung b8", "d6 d6", "three_kongs", 3),
    # 1 double: all majors
    ("pung b1, pung b9, pung c1, pung wn", "dr dr", "all_majors", 1),
    # 1 double: pungs/kongs of 1s and 9s
    (f"{MIXED}, pung b9", "d6 d6", "terminal_set", 1),
    # 1 double: pung of own wind (South), pung of round wind (West), pung of dragon
    (f"{MIXED}, pung ws", "d6 d6", "own_wind_set", 1),
    (f"{MIXED}, pung ww", "d6 d6", "round_wind_set", 1),
    (f"{MIXED}, pung dr", "d6 d6", "dragon_set", 1),
    # 1 double: three pungs/kongs of dragons, of winds
    ("pung dr, pung dg, pung dw, pung b2", "d6 d6", "three_dragon_sets", 1),
    ("pung we, pung wn, kong ws, pung b2", "d6 d6", "three_wind_sets", 1),
    # 2 doubles: four pungs/kongs of winds
    ("pung we, pung wn, pung ws, pung ww", "d6 d6", "four_wind_sets", 2),
    # 1 double: all honours (3+) and one suit (3+), read as three or more sets of them
    ("pung we, pung wn, pung dr, pung b2", "d6 d6", "three_honour_sets", 1),
    ("pung c2, pung c5, pung c7, pung b2", "d6 d6", "three_sets_one_suit", 1),
    # 3 doubles: heads and tails (1s and 9s only)
    ("pung b1, pung b9, pung c1, pung d9", "c9 c9", "heads_and_tails", 3),
]


@pytest.mark.parametrize(("melds", "pair", "code", "doubles"), DOUBLE_ROWS)
def test_doubles_table_line_32(melds, pair, code, doubles):
    tile = pair.split()[0]
    result = score(ww(melds, pair=pair, win=f"{tile} discard"))
    assert code in result.item_codes
    assert lines(result)[code].doubles == doubles


@pytest.mark.parametrize(
    ("melds", "code", "doubles"),
    [
        # 2 doubles: four hidden pungs; 1 double: three hidden pungs
        ("pung b2 concealed, pung c3 concealed, pung d4 concealed, pung b8 concealed",
         "four_hidden_pungs", 2),
        ("pung b2 concealed, pung c3 concealed, pung d4 concealed, pung b8",
         "three_hidden_pungs", 1),
        # 4 doubles: four hidden kongs; 2 doubles: three hidden kongs
        ("kong b2 concealed, kong c3 concealed, kong d4 concealed, kong b8 concealed",
         "four_hidden_kongs", 4),
        ("kong b2 concealed, kong c3 concealed, kong d4 concealed, pung b8",
         "three_hidden_kongs", 2),
    ],
)
def test_hidden_sets_doubles_line_32(melds, code, doubles):
    result = score(ww(melds, win="d6 wall"))
    assert lines(result)[code].doubles == doubles


@pytest.mark.parametrize(
    ("bonus", "code", "count"),
    [
        ("f2", "own_bonus", 1),  # own flower (South = 2)
        ("f2 s2", "own_bonus", 2),  # own flower and own season
        ("f3", "round_bonus", 1),  # round flower (West = 3)
        ("s3", "round_bonus", 1),
        ("f1 f2 f3 f4", "bouquet", 1),  # bouquet: 3 doubles
    ],
)
def test_flower_doubles_line_32(bonus, code, count):
    result = score(ww(f"{MIXED}, pung c8", bonus=bonus))
    line = lines(result)[code]
    assert line.count == count
    rule = get_house_rule("west-wind-goulash")
    assert rule.item(code).doubles == (3 if code == "bouquet" else 1)


# -- going out, lines 7, 15, 30 --------------------------------------------------------------


def test_pure_suit_covers_the_three_doubles_line_15():
    result = score(ww("pung c2, pung c5, pung c7, pung c8", pair="c9 c9", win="c9 discard"))
    assert result.doubles == 3
    assert result.points == 20 + 8 + 2
    assert result.score == 30 * 8
    assert result.meets_minimum is True


def test_one_suit_with_honours_needs_two_more_doubles_line_15():
    result = score(ww("pung c2, pung c5, pung c7, pung wn", pair="c9 c9", win="c9 discard"))
    assert result.doubles == 1
    assert result.meets_minimum is False
    assert "3 doubles" in result.minimum_reason


def test_all_honours_hand_covers_the_minimum_line_15():
    result = score(ww("pung we, pung wn, pung dr, pung dg", pair="dw dw", win="dw discard"))
    # all honours 3, all majors 1, two pungs of dragons 1 each
    assert result.doubles == 6
    assert result.meets_minimum is True


def test_a_chow_is_refused_line_7():
    with pytest.raises(HandError):
        score(ww("chow b2, pung c3, pung d4, pung b8"))


def test_a_joker_is_refused_line_7():
    with pytest.raises(HandError):
        score(ww("pung b2, pung c3, pung d4", pair="d6 jd6", win="d6 discard"))


def test_usable_as_a_sessions_goulash_rule():
    from scoring.engine.rules.variations import with_goulash_rule

    rule = with_goulash_rule(get_house_rule("bmja"), "west-wind-goulash")
    assert rule.goulash_rule == "west-wind-goulash"
    assert rule.based_on == "bmja"
    assert get_house_rule(rule.goulash_rule).scoring.go_out_minimum == (("doubles", 3),)
