"""Every scoring item of the ``bmja`` house rule against the sheet of 004 it comes from.

The arrangements are written out here, so each test checks the items and the orchestrator on
exactly the sets the sheet describes (the arrangement search is tested on its own). A set is
written ``"pung b1"``, ``"pung b6 c"`` (concealed), ``"kong b9 added"``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine import HandError, get_house_rule
from scoring.engine.hand import Arrangement, Hand, Set, Win
from scoring.engine.score import score_arrangements

BMJA = get_house_rule("bmja")


def sets(text: str) -> tuple[Set, ...]:
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, tile, *flags = part.split()
        concealed = "c" in flags
        how = None
        if kind == "kong":
            how = "concealed" if concealed else ("added" if "added" in flags else "claimed")
        out.append(Set(kind, tile, concealed, how))
    return tuple(out)


def group(tiles: str) -> Arrangement:
    """A special shape held concealed: every tile in one group."""
    return Arrangement("special", (Set("group", "", True, tiles=tuple(tiles.split())),))


def score(arrangement: str | Arrangement, *, win: str | None = None, seat="S", round="E",
          bonus="", goulash=False, fishing=False, completions=(), rule=BMJA, **flags):
    """Score one arrangement; ``win`` ("wall", "discard", ...) makes it a Mah Jong hand."""
    if isinstance(arrangement, str):
        arrangement = Arrangement("standard" if win else "partial", sets(arrangement))
    hand = Hand(seat_wind=seat, prevailing_wind=round, mahjong=win is not None,
                bonus=tuple(bonus.split()), goulash=goulash, fishing=fishing,
                win=Win(flags.pop("tile", None), win, **flags) if win else None)
    return score_arrangements(hand, rule, [arrangement], completions)


def line(result, code):
    found = [ln for ln in result.lines if ln.code == code]
    return (found[0].points, found[0].doubles, found[0].count) if found else None


ORDINARY = "pung c2, pung c4, pung c6 c, pung c8, pair c3"  # minor, one suit, no honours
PURITY_UNCAPPED = BMJA.derive("purity-uncapped", {"items": {"purity": {"capped_at_limit": False}}})


# -- Sheet 14: points ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "code", "points"), [
    ("pung c5", "pung_minor_exposed", 2),
    ("pung c5 c", "pung_minor_concealed", 4),
    ("pung c1", "pung_major_exposed", 4),
    ("pung we c", "pung_major_concealed", 8),
    ("kong c5", "kong_minor_exposed", 8),
    ("kong c5 added", "kong_minor_exposed", 8),
    ("kong c5 c", "kong_minor_concealed", 16),
    ("kong dg", "kong_major_exposed", 16),
    ("kong c9 c", "kong_major_concealed", 32),
])
def test_sheet_14_pungs_and_kongs_score_for_every_player(text, code, points):
    """004 Sheet 14's table, scored for a losing player as for the winner."""
    result = score(text)
    assert line(result, code) == (points, 0, 1)
    assert result.points == points


def test_sheet_14_a_chow_scores_nothing():
    result = score("chow c2, chow d5 c")
    assert result.points == 0 and result.lines == ()


@pytest.mark.parametrize(("pair", "code", "seat", "round"), [
    ("dr", "pair_dragons", "S", "E"),
    ("ws", "pair_own_wind", "S", "E"),
    ("we", "pair_round_wind", "S", "E"),
])
def test_sheet_14_pairs_of_dragons_own_wind_and_round_wind_score_2(pair, code, seat, round):
    assert line(score(f"pair {pair}", seat=seat, round=round), code) == (2, 0, 1)


def test_sheet_14_pairs_of_other_tiles_score_nothing():
    assert score("pair wn", seat="S", round="E").points == 0
    assert score("pair c9").points == 0


def test_sheet_15_quiz_8_pair_of_own_wind_that_is_also_the_round_wind_scores_4():
    """004 Sheet 15 question 8 (answer: 4): both Sheet 14 pair items count."""
    assert score("pair wn", seat="N", round="N").points == 4


def test_sheet_14_each_flower_or_season_scores_4():
    assert line(score("pung c5", bonus="f1 s3 f4"), "bonus_tile") == (12, 0, 3)


def test_sheet_14_mah_jong_scores_20_for_the_winner_only():
    assert line(score(ORDINARY, win="discard"), "mahjong") == (20, 0, 1)
    assert line(score("pung b2, pung b4"), "mahjong") is None


@pytest.mark.parametrize(("source", "flags", "points"), [
    ("wall", {}, 2),
    ("kong_box", {}, 2),  # replacement tile: drawn, not a discard (the house rule's reading)
    ("discard", {}, None),
    ("robbed_kong", {"robbed_kong": True}, None),
])
def test_sheet_14_two_points_when_the_winning_tile_was_drawn_from_the_wall(source, flags,
                                                                          points):
    # ORDINARY is also Purity, which the kong box's double takes past the limit (capped
    # there under bmja, issue #21): the lines are read where Purity may pass the limit.
    found = line(score(ORDINARY, win=source, rule=PURITY_UNCAPPED, **flags), "wall_tile")
    assert found == ((points, 0, 1) if points else None)


# -- Sheet 17: doubles for every player ----------------------------------------------------

@pytest.mark.parametrize(("text", "code", "seat", "round"), [
    ("pung dr", "dragon_set", "S", "E"),
    ("kong dw c", "dragon_set", "S", "E"),
    ("pung ws", "own_wind_set", "S", "E"),
    ("kong we", "round_wind_set", "S", "E"),
])
def test_sheet_17_a_double_for_pungs_and_kongs_of_dragons_and_own_and_round_wind(text, code,
                                                                               seat, round):
    assert line(score(text, seat=seat, round=round), code) == (0, 1, 1)


def test_sheet_17_every_pung_of_dragons_doubles():
    result = score("pung dr, pung dg c")
    assert line(result, "dragon_set") == (0, 2, 2)
    assert result.score == (4 + 8) * 4


def test_sheet_16_item_5_own_wind_that_is_the_round_wind_doubles_twice():
    """004 Sheet 16 item 5: West in West's round with a pung of West scores two doubles."""
    result = score("pung ww", seat="W", round="W")
    assert result.doubles == 2 and result.score == 4 * 4


def test_sheet_17_pair_of_dragons_is_points_not_a_double():
    assert score("pair dr").doubles == 0


@pytest.mark.parametrize(("bonus", "seat", "own_flower", "own_season"), [
    ("f2", "S", (0, 1, 1), None),
    ("s4", "N", None, (0, 1, 1)),
    ("f1 s1", "E", (0, 1, 1), (0, 1, 1)),
    ("f3 s2", "E", None, None),
])
def test_sheet_17_own_flower_and_own_season_double(bonus, seat, own_flower, own_season):
    """004 Sheet 17, numbers from Sheet 20: 1 = East, 2 = South, 3 = West, 4 = North."""
    result = score("pung c5", bonus=bonus, seat=seat)
    assert line(result, "own_flower") == own_flower
    assert line(result, "own_season") == own_season


def test_sheet_17_bouquet_of_flowers_is_two_doubles_including_the_own_flower():
    result = score("pung c5", bonus="f1 f2 f3 f4", seat="S")
    assert line(result, "bouquet_flowers") == (0, 2, 1)
    assert line(result, "own_flower") is None
    assert result.doubles == 2 and result.score == (2 + 16) * 4


def test_sheet_17_full_set_of_seasons_is_two_doubles_including_the_own_season():
    result = score("pung c5", bonus="s1 s2 s3 s4 f2", seat="S")
    assert line(result, "bouquet_seasons") == (0, 2, 1)
    assert line(result, "own_season") is None
    assert line(result, "own_flower") == (0, 1, 1)
    assert result.doubles == 3


# -- Sheet 17: doubles for the Mah Jong player ---------------------------------------------

def test_sheet_17_clean_hand_one_suit_with_winds_and_dragons():
    result = score("pung b2, pung b4, pung dr, pung we, pair b3", win="discard")
    assert line(result, "clean") == (0, 1, 1)
    assert line(score("pung b2, pung c4, pung dr, pung we, pair b3", win="discard"),
                "clean") is None


def test_sheet_17_clean_hand_is_for_the_mah_jong_player_only():
    assert line(score("pung b2, pung b4"), "clean") is None


def test_sheet_17_no_chows_double_for_the_mah_jong_player():
    assert line(score("pung b2, pung c4, pung dr, pung we, pair b3", win="discard"),
                "no_chows") == (0, 1, 1)
    assert line(score("chow b2, pung c4, pung dr, pung we, pair b3", win="discard"),
                "no_chows") is None


def test_sheet_19_hand_3_no_chows_double_is_not_claimed_in_a_goulash():
    """004 Sheet 17 ("assuming that chows were allowed") and Sheet 19 hand 3."""
    result = score("pung b2, pung c4, pung dr, pung we, pair b3", win="discard", goulash=True)
    assert line(result, "no_chows") is None


def test_sheet_17_all_concealed_double():
    concealed = "pung b2 c, pung c4 c, pung dr c, kong we c, pair b3 c"
    assert line(score(concealed, win="wall"), "all_concealed") == (0, 1, 1)
    assert line(score("pung b2, pung c4 c, pung dr c, pung we c, pair b3 c", win="wall"),
                "all_concealed") is None


def test_sheet_17_all_majors_double():
    result = score("pung b1, pung c9, pung dr, pung we, pair d1", win="discard")
    assert line(result, "all_majors") == (0, 1, 1)
    assert line(score("pung b1, pung c9, pung dr, pung we, pair d2", win="discard"),
                "all_majors") is None


def test_sheet_17_east_double_is_an_item_left_off_unless_the_club_enables_it():
    """004 Sheet 17 "If you are East: one double" against Sheet 21 item 7 (East's advantage is
    the payment): the house rule keeps the item with no double; a club can give it one."""
    hand = "pung b2, pung c4, pung dr, pung we, pair b3"
    assert line(score(hand, win="discard", seat="E"), "east") is None
    club = BMJA.derive("east-doubles", {"items": {"east": {"doubles": 1}}})
    assert line(score(hand, win="discard", seat="E", rule=club), "east") == (0, 1, 1)
    assert line(score(hand, win="discard", seat="S", rule=club), "east") is None


@pytest.mark.parametrize(("source", "flags", "code"), [
    ("wall", {"last_wall_tile": True}, "last_wall_tile"),
    ("discard", {"last_discard": True}, "last_discard"),
    ("kong_box", {}, "kong_box"),
    ("wall", {"kong_replacement": True}, "kong_box"),
    ("robbed_kong", {}, "robbed_kong"),
    ("discard", {"robbed_kong": True}, "robbed_kong"),
    ("discard", {"original_call": True}, "original_call"),
])
def test_sheet_17_a_double_for_each_way_of_going_mah_jong(source, flags, code):
    result = score("pung b2, pung c4, pung dr, pung we, pair b3", win=source, **flags)
    assert line(result, code) == (0, 1, 1)


def test_sheet_17_no_way_of_going_out_double_for_an_ordinary_discard():
    result = score("pung b2, pung c4, pung dr, pung we, pair b3", win="discard")
    codes = {ln.code for ln in result.lines}
    assert not codes & {"last_wall_tile", "last_discard", "kong_box", "robbed_kong",
                        "original_call"}


def test_sheet_31_item_11_ordinary_hands_are_not_capped_at_the_limit():
    result = score("kong dr c, kong dg c, kong we c, pung b9 c, pair ws", win="wall",
                   seat="E", round="E", bonus="f1 s1")
    assert result.score > 1000 and result.limit is None
    assert result.score == result.points * 2 ** result.doubles


# -- Sheets 22-28: special hands, winning and fishing ---------------------------------------

SPECIALS = [
    # code, winning arrangement, limit, fishing fraction, a 13-tile partial, completing tile
    ("all_pair_honours", Arrangement("seven_pairs", sets(
        "pair b1 c, pair b9 c, pair c1 c, pair dr c, pair dg c, pair we c, pair wn c")),
     Fraction(1, 2), Fraction(1, 5)),
    ("thirteen_unique_wonders", group("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw"),
     Fraction(1), Fraction(2, 5)),
    ("wriggling_snake", group("we ws ww wn c1 c1 c2 c3 c4 c5 c6 c7 c8 c9"),
     Fraction(1), Fraction(2, 5)),
    ("knitting", group("b1 c1 b3 c3 b4 c4 b4 c4 b7 c7 b8 c8 b9 c9"),
     Fraction(1, 2), Fraction(1, 5)),
    ("triple_knitting", group("b1 c1 d1 b3 c3 d3 b5 c5 d5 b9 c9 d9 b2 d2"),
     Fraction(1, 2), Fraction(1, 5)),
    ("buried_treasure", Arrangement("standard", sets(
        "pung d2 c, pung d5 c, pung d7 c, pung wn c, pair d9 c")),
     Fraction(1), Fraction(2, 5)),
    ("fourfold_plenty", Arrangement("standard", sets(
        "kong b2, kong c5 c, kong dr added, kong we, pair d9 c")),
     Fraction(1), Fraction(2, 5)),
    ("imperial_jade", Arrangement("standard", sets(
        "pung b2, pung b3, pung b6 c, kong b8, pair dg c")),
     Fraction(1), Fraction(2, 5)),
    ("all_winds_and_dragons", Arrangement("standard", sets(
        "pung we, pung ws, pung dr c, kong dw, pair wn c")),
     Fraction(1), Fraction(2, 5)),
    ("heads_and_tails", Arrangement("standard", sets(
        "pung b1, pung c9, pung d1 c, kong d9, pair c1 c")),
     Fraction(1), Fraction(2, 5)),
    ("gates_of_heaven", group("d1 d1 d1 d2 d3 d4 d5 d6 d7 d8 d9 d9 d9 d5"),
     Fraction(1), Fraction(2, 5)),
    ("three_great_scholars", Arrangement("standard", sets(
        "pung dr, pung dg, kong dw, pung c3, pair c7 c")),
     Fraction(1), Fraction(2, 5)),
    ("four_blessings", Arrangement("standard", sets(
        "pung we, pung ws, pung ww c, kong wn, pair b5 c")),
     Fraction(1), Fraction(2, 5)),
]
LIMIT_ONLY = BMJA.derive("limit-only", {"scoring": {"special_or_ordinary_if_greater": False}})
SHEETS = {
    "all_pair_honours": 22, "thirteen_unique_wonders": 22, "wriggling_snake": 23,
    "knitting": 24, "triple_knitting": 24, "buried_treasure": 25, "fourfold_plenty": 25,
    "imperial_jade": 26, "all_winds_and_dragons": 26, "heads_and_tails": 27,
    "gates_of_heaven": 27, "three_great_scholars": 28, "four_blessings": 28,
}


def test_every_special_hand_of_sheets_22_to_28_is_an_item_citing_its_sheet():
    for code, sheet in SHEETS.items():
        assert BMJA.item(code).source == f"004 Sheet {sheet}"


@pytest.mark.parametrize(("code", "arrangement", "limit", "fishing"), SPECIALS,
                         ids=[s[0] for s in SPECIALS])
def test_sheets_22_to_28_special_hand_scores_its_limit(code, arrangement, limit, fishing):
    """Scored as the special hand; under ``bmja`` itself a hand that is also four sets and a
    pair may score more as an ordinary hand (Sheet 31 item 11), never less."""
    source = "wall" if code == "buried_treasure" else "discard"
    result = score(arrangement, win=source, seat="W", rule=LIMIT_ONLY)
    assert result.special == code
    assert result.score == int(1000 * limit)
    assert result.limit == ("limit" if limit == 1 else "half limit")
    assert [ln.code for ln in result.lines] == [code]
    assert score(arrangement, win=source, seat="W").score >= result.score


@pytest.mark.parametrize(("code", "arrangement", "limit", "fishing"), SPECIALS,
                         ids=[s[0] for s in SPECIALS])
def test_sheets_22_to_28_fishing_for_a_special_hand_scores_its_part_score(code, arrangement,
                                                                        limit, fishing):
    """A losing hand that called fishing, one tile short of the special hand: one fifth or
    two fifths of the limit (Sheet 28's two: that or the actual value, whichever greater)."""
    partial = Arrangement("partial", ())
    result = score(partial, fishing=True, completions=[("x", [arrangement])])
    assert result.fishing_for == code
    assert result.score == int(1000 * fishing)
    words = "one fifth" if fishing == Fraction(1, 5) else "two fifths"
    assert result.limit.startswith(f"{words} of the limit (fishing for ")


def test_sheet_21_a_losing_hand_that_did_not_call_fishing_gets_no_part_score():
    arrangement = SPECIALS[1][1]
    result = score(Arrangement("partial", ()), fishing=False,
                   completions=[("x", [arrangement])])
    assert result.fishing_for is None and result.score == 0


def test_sheet_21_item_6_flowers_are_added_to_a_limit_hand_with_their_own_doubles_only():
    """Limit 1000 + (4 + 4) flowers doubled once for the own flower; no 20 for Mah Jong."""
    result = score(SPECIALS[1][1], win="discard", seat="S", bonus="f2 s3")
    assert result.score == 1000 + 8 * 2
    assert {ln.code for ln in result.lines} == {"thirteen_unique_wonders", "bonus_tile",
                                                "own_flower"}
    assert "mahjong" not in {ln.code for ln in result.lines}


def test_sheet_21_item_6_a_bouquet_with_a_limit_hand():
    result = score(SPECIALS[1][1], win="discard", seat="S", bonus="f1 f2 f3 f4")
    assert result.score == 1000 + 16 * 4


def test_sheet_28_fishing_scores_the_actual_value_when_it_is_greater():
    """Three Great Scholars: "two fifths of a limit (400) or actual hand value, whichever is
    the greater". The losing hand's own sets here are worth 32 x 2^4 = 512."""
    partial = Arrangement("partial", sets("kong dr c, kong dg, pung dw c"), loose=("c3", "c7"))
    scholars = Arrangement("standard", sets("kong dr c, kong dg, pung dw c, pung c3 c, pair c7 c"))
    result = score(partial, fishing=True, seat="S", bonus="f2 s2",
                   completions=[("c3", [scholars])])
    assert result.fishing_for == "three_great_scholars"
    assert result.limit is None
    assert result.score == (32 + 16 + 8 + 8) * 2 ** 5


def test_sheet_26_fishing_part_score_replaces_a_smaller_actual_value():
    partial = Arrangement("partial", sets("pung b2, pung b3"))
    jade = SPECIALS[7][1]
    result = score(partial, fishing=True, completions=[("b8", [jade])])
    assert result.score == 400 and result.limit == "two fifths of the limit (fishing for " \
        "Imperial Jade)"


def test_sheet_23_purity_doubles_three_times_instead_of_the_clean_double():
    result = score("pung c2, pung c4, pung c6 c, kong c8, pair c3", win="discard")
    assert line(result, "purity") == (0, 3, 1)
    assert line(result, "clean") is None
    # 20 + 2 + 2 + 4 + 8 points; purity 3 and no chows 1.
    assert result.points == 36 and result.doubles == 4 and result.score == 36 * 16


def test_sheet_23_purity_needs_no_honours_and_no_chows():
    assert line(score("pung b2, pung b4, pung dr, kong b8, pair b3", win="discard"),
                "purity") is None
    assert line(score("chow b2, pung b5, pung b6 c, kong b8, pair b3", win="discard"),
                "purity") is None


def test_sheet_23_fishing_for_purity_also_gets_three_doubles():
    partial = Arrangement("partial", sets("pung c2, pung c4, pung c6 c"), loose=("c8", "c3"))
    pure = Arrangement("standard", sets("pung c2, pung c4, pung c6 c, pung c8 c, pair c3 c"))
    result = score(partial, fishing=True, completions=[("c8", [pure])])
    assert result.fishing_for == "purity"
    assert result.points == 8 and result.doubles == 3 and result.score == 64


def test_sheet_31_item_8_wriggling_snake_pair_is_the_ones_unless_the_club_allows_any():
    snake_pair_5 = group("we ws ww wn c1 c2 c3 c4 c5 c5 c6 c7 c8 c9")
    assert score(snake_pair_5, win="discard").special is None
    club = BMJA.derive("any-snake", {"items": {"wriggling_snake": {"args": {"pair": "any"}}}})
    assert score(snake_pair_5, win="discard", rule=club).special == "wriggling_snake"


def test_sheet_31_item_9_imperial_jade_without_green_dragons_unless_the_club_requires_them():
    no_dragons = Arrangement("standard", sets("pung b2, pung b3, pung b6, pung b8, pair b4 c"))
    assert score(no_dragons, win="discard").special == "imperial_jade"
    club = BMJA.derive("jade-dragons", {"items": {"imperial_jade": {
        "args": {"dragon_pung_required": True}}}})
    assert score(no_dragons, win="discard", rule=club).special is None


def test_sheet_22_concealed_special_hands_fail_with_an_exposed_set():
    """With a pair exposed, All Pair Honours does not accept the seven pairs, and bmja has no
    other seven-pairs hand: not a Mah Jong (issue #11), rather than an ordinary score."""
    exposed = Arrangement("seven_pairs", sets(
        "pair b1, pair b9 c, pair c1 c, pair dr c, pair dg c, pair we c, pair wn c"))
    with pytest.raises(HandError) as caught:
        score(exposed, win="discard")
    assert caught.value.codes == ["shape_not_in_house_rule"]


def test_sheet_31_item_11_a_special_hand_worth_more_as_an_ordinary_hand_scores_that():
    """All Winds and Dragons: 16 x 2 + 4 + 4 + 20 + 2 (pair of dragons) = 62 points and 6
    doubles (two dragon pungs, own wind, round wind, all majors, no chows) = 3968 > 1000."""
    hand = Arrangement("standard", sets("pung dr, pung dg, kong we, kong ww, pair dw c"))
    result = score(hand, win="discard", seat="W", round="E")
    assert (result.special, result.score, result.limit) == (None, 62 * 64, None)
    assert "all_winds_and_dragons" in result.item_codes
    assert score(hand, win="discard", seat="W", round="E", rule=LIMIT_ONLY).score == 1000


def test_sheet_25_buried_treasure_must_be_drawn_from_the_wall():
    treasure = SPECIALS[5][1]
    assert score(treasure, win="wall").special == "buried_treasure"
    assert score(treasure, win="discard").special is None


# -- Sheet 29: limit, no part-score ----------------------------------------------------------

@pytest.mark.parametrize(("code", "seat", "source", "flags"), [
    ("heavens_blessing", "E", "wall", {"heavenly": True}),
    ("earths_blessing", "S", "discard", {"earthly": True}),
    ("twofold_fortune", "W", "kong_box", {"second_kong_replacement": True}),
    ("plum_blossom", "N", "kong_box", {"tile": "d5"}),
    ("moon_from_the_sea", "S", "wall", {"tile": "d1", "last_wall_tile": True}),
])
def test_sheet_29_hands_score_the_limit(code, seat, source, flags):
    result = score("chow d1 c, pung c5, pung d5, pung b2, pair d1 c", win=source, seat=seat,
                   **flags)
    assert result.special == code and result.score == 1000


def test_sheet_29_plum_blossom_needs_the_5_circles_from_the_kong_box():
    result = score("chow d1 c, pung c5, pung d5, pung b2, pair d1 c", win="wall", tile="d5")
    assert result.special is None


def test_sheet_29_hands_have_no_part_score_for_fishing():
    for code in ("heavens_blessing", "earths_blessing", "twofold_fortune", "plum_blossom",
                 "moon_from_the_sea"):
        item = BMJA.item(code)
        assert item.source == "004 Sheet 29"
        assert item.fishing_limit is None and item.fishing_doubles == 0
