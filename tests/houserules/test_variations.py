"""The variations of 001_45f7a47e7ab6ae61.txt as options on any house rule: the goulash with wild
tiles (lines 20-22, 49-65) and the games for two (lines 69-77), three (81-90) and five players
(94-100)."""

from __future__ import annotations

import pytest

from scoring.engine import HandError, get_house_rule, parse_hand, score_hand
from scoring.engine.arrange import arrangements
from scoring.engine.rules.variations import (
    players_overrides,
    with_goulash_rule,
    with_players,
    with_wild_goulash,
)
from tests.houserules.conftest import hand, score

BASES = ("bmja", "guide", "balsall-common", "west-wind-goulash")


def pung(tile, tiles=None):
    return {"kind": "pung", "tile": tile, "tiles": tiles or [tile] * 3}


def kong(tile, tiles):
    return {"kind": "kong", "tile": tile, "tiles": tiles}


def goulash_hand(melds, concealed="d7 d7", win="d7 discard", rules="guide", goulash=True):
    data = hand("", concealed, win=win, rules=rules, goulash=goulash)
    data["melds"] = melds
    return data


PLAIN = [pung("d3"), pung("b6"), pung("c8")]


# -- wild tiles, lines 57-65 ---------------------------------------------------------------


@pytest.mark.parametrize("slug", BASES)
def test_wild_goulash_limits_on_any_house_rule_lines_59_65(slug):
    base = get_house_rule(slug)
    rule = with_wild_goulash(base)
    s = rule.scoring
    assert s.wild_tiles == "b2"  # line 22: without jokers the 2 bamboo are wild
    assert (s.wild_max_in_pair, s.wild_max_in_pung) == (1, 1)  # line 61
    assert s.wild_max_in_kong == 2  # line 62
    assert s.wild_max_in_special == 4  # line 63
    assert s.wild_extra_on_wild_win is True  # line 65
    assert s.goulash_max_chows == 0  # line 51: no chows in the goulash
    assert rule.based_on == slug
    assert rule.items == base.items  # only the goulash's wild tiles change


def test_jokers_instead_of_the_two_bamboo_line_22():
    rule = with_wild_goulash(get_house_rule("guide"), "joker")
    assert rule.scoring.wild_tiles == "joker"
    ok = goulash_hand([pung("c5", ["c5", "c5", "jc5"]), *PLAIN])
    assert score(ok, rule).points == 20 + 4 * 2
    outside = goulash_hand([pung("c5", ["c5", "c5", "jc5"]), *PLAIN], goulash=False)
    with pytest.raises(HandError):
        score(outside, rule)


def test_one_wild_tile_in_a_pung_line_61():
    rule = with_wild_goulash(get_house_rule("guide"))
    result = score(goulash_hand([pung("c5", ["c5", "c5", "b2"]), *PLAIN]), rule)
    assert result.points == 28
    with pytest.raises(HandError) as refused:
        score(goulash_hand([pung("c5", ["c5", "b2", "b2"]), *PLAIN]), rule)
    assert "allows 1" in str(refused.value.as_drf())


def test_no_more_than_two_wild_tiles_in_a_kong_line_62():
    rule = with_wild_goulash(get_house_rule("guide"))
    result = score(goulash_hand([kong("c5", ["c5", "c5", "b2", "b2"]), *PLAIN]), rule)
    assert result.points == 20 + 8 + 6
    with pytest.raises(HandError):
        score(goulash_hand([kong("c5", ["c5", "b2", "b2", "b2"]), *PLAIN]), rule)


def test_never_a_set_of_wild_tiles_only_line_63():
    rule = with_wild_goulash(get_house_rule("guide")).derive(
        "wild-pungs", {"scoring": {"wild_max_in_pung": 3}}
    )
    with pytest.raises(HandError) as refused:
        score(goulash_hand([pung("c5", ["b2", "b2", "b2"]), *PLAIN]), rule)
    assert "wild tiles only" in str(refused.value.as_drf())


def test_no_chows_in_the_wild_goulash_line_51():
    rule = with_wild_goulash(get_house_rule("guide"))
    with pytest.raises(HandError):
        score(goulash_hand([{"kind": "chow", "tile": "c1"}, *PLAIN]), rule)


def test_an_extra_wild_tile_when_a_wild_tile_is_drawn_for_mahjong_line_65():
    """Two 2 bamboo with a 5 character can only be a pung of 5 characters with two wild
    tiles: allowed when the winning tile was a wild tile drawn, not otherwise."""
    rule = with_wild_goulash(get_house_rule("guide"))
    melds = [{"kind": "pair", "tile": "d7"}, *PLAIN]
    drawn_wild = parse_hand(goulash_hand(melds, "c5 b2 b2", win="b2 wall"))
    assert score_hand(drawn_wild, rule).points == 20 + 2 + 6 + 4
    drawn_real = parse_hand(goulash_hand(melds, "c5 b2 b2", win="c5 wall"))
    assert not arrangements(drawn_real, rule)
    without_extra = rule.derive("no-extra", {"scoring": {"wild_extra_on_wild_win": False}})
    assert not arrangements(drawn_wild, without_extra)


def test_wild_tiles_choice_is_checked():
    with pytest.raises(ValueError):
        with_wild_goulash(get_house_rule("guide"), "blank")


# -- two players, lines 69-77 ------------------------------------------------------------


def test_two_players_no_chows_line_74():
    rule = with_players(get_house_rule("guide"), 2)
    assert rule.scoring.players == 2
    assert rule.scoring.max_chows == 0
    with pytest.raises(HandError):
        score(hand("chow b1, pung c8, pung d3, pung b6", "d7 d7", win="d7 discard"), rule)


def test_two_players_need_four_doubles_or_500_line_75():
    rule = with_players(get_house_rule("guide"), 2)
    assert rule.scoring.go_out_minimum == (("doubles", 4), ("score", 500))
    # Four exposed pongs and a pair: 30 points, 1 doubling (four triplets).
    low = score(hand("pung c8, pung d2, pung b3, pung c9", "d7 d7", win="d7 discard"), rule)
    assert (low.doubles, low.score) == (1, 60)
    assert low.meets_minimum is False
    assert "4 doubles" in low.minimum_reason and "500" in low.minimum_reason
    # Pongs of red and green dragons, one concealed minor pong: 5 doublings.
    high = score(hand("pung dr, pung dg, pung b3 concealed, pung c9", "d7 d7",
                      win="d7 discard"), rule)
    assert high.doubles >= 4
    assert high.meets_minimum is True


def test_two_players_500_points_suffice_line_75():
    rule = with_players(get_house_rule("guide"), 2)
    # A concealed double wind kong (64 points, 4 doublings): more than 500 on its own.
    result = score(hand("kong we concealed, pung c8, pung d3, pung b6", "d7 d7",
                        win="d7 discard", seat="E"), rule)
    assert result.score >= 500
    assert result.meets_minimum is True


def test_two_players_east_does_not_pay_double_and_the_lower_winner_pays_lines_76_77():
    rule = with_players(get_house_rule("bmja"), 2)
    assert rule.payment.east_multiplier == 1
    assert rule.payment.winner_pays_difference_if_lower is True


def test_two_players_on_a_points_house_rule_keep_its_minimum():
    """003 counts points only: 001's 4 doubles or 500 points cannot be met, so its own
    3-point minimum stays."""
    rule = with_players(get_house_rule("balsall-common"), 2)
    assert rule.scoring.go_out_minimum == (("points", 3),)
    assert rule.scoring.max_chows == 0


# -- three and five players ----------------------------------------------------------------


def test_three_players_no_chows_lines_81_86():
    rule = with_players(get_house_rule("bmja"), 3)
    assert (rule.scoring.players, rule.scoring.max_chows) == (3, 0)
    assert rule.payment == get_house_rule("bmja").payment
    with pytest.raises(HandError):
        score(hand("chow b1, pung c8, pung d3, pung b6", "d7 d7", win="d7 discard",
                   rules="bmja"), rule)


def test_five_players_share_the_tallies_lines_96_98():
    rule = with_players(get_house_rule("guide"), 5)
    assert rule.scoring.players == 5
    assert rule.payment.starting_tally == 1600  # four players' 2,000 each shared by five
    assert rule.scoring.max_chows is None  # five players still play chows


def test_four_players_is_the_house_rule_itself():
    rule = get_house_rule("guide")
    assert with_players(rule, 4) is rule


def test_player_count_is_checked():
    with pytest.raises(ValueError):
        players_overrides(get_house_rule("guide"), 6)


# -- named combinations ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "base"),
    [("bmja-jokers", "bmja"), ("bmja-west-wind", "bmja"), ("bmja-2-players", "bmja"),
     ("guide-3-players", "guide"), ("guide-5-players", "guide")],
)
def test_named_variations_are_built_in(slug, base):
    rule = get_house_rule(slug)
    assert rule.based_on == base
    assert rule.items == get_house_rule(base).items


def test_west_wind_goulash_scores_the_goulash_of_bmja_west_wind():
    rule = get_house_rule("bmja-west-wind")
    assert rule.goulash_rule == "west-wind-goulash"
    assert with_goulash_rule(get_house_rule("bmja"), "west-wind-goulash").to_dict() == {
        **rule.to_dict(), "slug": "bmja-west-wind-goulash"
    }
