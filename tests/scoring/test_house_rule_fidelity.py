"""Issue #11: a house rule scores only the shapes it has, counts short losing hands where its
document says so, and caps every path to a score where it caps every hand."""

from __future__ import annotations

import pytest

from scoring.engine import HandError, get_house_rule, parse_hand, score_hand

BMJA = get_house_rule("bmja")


def winning(tiles: str, **extra) -> dict:
    held = tiles.split()
    return {"seat_wind": "E", "prevailing_wind": "E", "mahjong": True, "concealed": held,
            "win": {"tile": held[-1], "from": "wall"}, **extra}


def refusal(slug: str, data: dict) -> str:
    with pytest.raises(HandError) as caught:
        score_hand(parse_hand(data), get_house_rule(slug))
    [problem] = caught.value.problems
    assert (problem.path, problem.code) == ("concealed", "shape_not_in_house_rule")
    assert problem.message.startswith("Not a valid Mah Jong under this house rule")
    return problem.message


MIXED_SEVEN_PAIRS = "we we d2 d2 b9 b9 dg dg dr dr ws ws ww ww"
SNAKE_PAIR_OF_FIVES = "we ws ww wn c1 c2 c3 c4 c5 c6 c7 c8 c9 c5"
SNAKE_PAIR_OF_ONES = "we ws ww wn c1 c2 c3 c4 c5 c6 c7 c8 c9 c1"
PURE_SEVEN_PAIRS = "b1 b1 b3 b3 b5 b5 b7 b7 b9 b9 c2 c2 c4 c4"


# -- 1. shapes the house rule does not have ------------------------------------------------

def test_bmja_refuses_mixed_seven_pairs_it_has_only_all_pair_honours_sheet_22():
    message = refusal("bmja", winning(MIXED_SEVEN_PAIRS))
    assert "seven pairs" in message and "All Pair Honours" in message


def test_bmja_still_scores_all_pair_honours_sheet_22():
    result = score_hand(parse_hand(winning("we we b9 b9 b1 b1 dg dg dr dr ws ws ww ww")), BMJA)
    assert (result.special, result.score) == ("all_pair_honours", 500)


def test_bmja_refuses_a_snake_whose_pair_is_not_the_ones_sheet_23_and_31_item_8():
    message = refusal("bmja", winning(SNAKE_PAIR_OF_FIVES))
    assert "a snake" in message and "Wriggling Snake" in message


def test_bmja_snake_with_any_pair_where_the_club_reads_sheet_31_item_8_so():
    rule = BMJA.derive("any-pair", {"items": {"wriggling_snake": {"args": {"pair": "any"}}}})
    result = score_hand(parse_hand(winning(SNAKE_PAIR_OF_FIVES)), rule)
    assert result.special == "wriggling_snake"


@pytest.mark.parametrize("tiles", [MIXED_SEVEN_PAIRS, SNAKE_PAIR_OF_ONES])
def test_guide_has_only_four_sets_and_a_pair_002_line_201(tiles):
    assert "no special hand of that shape" in refusal("guide", winning(tiles))


def test_west_wind_goulash_has_no_knit_only_pungs_and_kongs_000_line_7():
    refusal("west-wind-goulash", winning(PURE_SEVEN_PAIRS))


def test_balsall_common_snake_needs_five_different_honours_003_line_518():
    message = refusal("balsall-common", winning(SNAKE_PAIR_OF_ONES))
    assert "Little Snake" in message and "Great Snake" in message


def test_a_standard_reading_of_the_same_tiles_still_scores():
    # Seven pairs that are also four sets and a pair? Not possible; but a hand that reads as
    # both a special shape and sets keeps its sets: 111 222 333 of one suit is chows or pungs.
    data = winning("b1 b1 b1 b2 b2 b2 b3 b3 b3 dr dr dr we we")
    assert score_hand(parse_hand(data), get_house_rule("guide")).shape == "standard"


# -- 2. short losing hands (004 Sheet 30 item 1) -------------------------------------------

SHORT = {"seat_wind": "N", "prevailing_wind": "E", "mahjong": False,
         "melds": [{"kind": "chow", "tile": "d4", "concealed": False}],
         "concealed": "d1 d2 d3 b6 b6 b7 b7 b8 b8".split(), "bonus": ["f4", "s4"]}


def test_bmja_counts_a_losing_hand_with_too_few_tiles_sheet_30_item_1():
    assert BMJA.scoring.count_short_losing_hands
    result = score_hand(parse_hand(SHORT), BMJA)
    assert (result.points, result.doubles, result.score) == (8, 2, 32)
    assert "count_short_losing_hands" in BMJA.to_dict()["scoring"]
    assert "too few tiles" in BMJA.description


def test_a_losing_hand_with_too_many_tiles_stays_an_error_sheet_30_item_1():
    data = {**SHORT, "concealed": SHORT["concealed"] + ["c1", "c2", "c3", "c4", "c5"]}
    with pytest.raises(HandError) as caught:
        score_hand(parse_hand(data), BMJA)
    assert caught.value.codes == ["wrong_tile_count"]


def test_a_rule_without_the_switch_says_which_switch_it_lacks():
    with pytest.raises(HandError) as caught:
        score_hand(parse_hand(SHORT), get_house_rule("guide"))
    assert "count_short_losing_hands" in caught.value.problems[0].message


# -- 3. every path to a score goes through the cap ----------------------------------------

CAPPED = BMJA.derive("capped", {"scoring": {"cap_ordinary_hands": True}})
# A losing hand fishing for Purity (Sheet 23: "Fishing also gets three doubles"): 48 points,
# 2 doubles of its own and 3 for fishing, 1,536 uncapped.
FISHING_PURITY = {"seat_wind": "N", "prevailing_wind": "E", "mahjong": False, "fishing": True,
                  "bonus": ["f4", "s4"],
                  "melds": [{"kind": "kong", "tile": "c1", "concealed": True},
                            {"kind": "pung", "tile": "c2"}, {"kind": "pung", "tile": "c4"}],
                  "concealed": ["c8", "c8", "c8", "c9"]}


def test_fishing_doubles_are_capped_where_every_hand_is():
    # Purity itself uncapped (under bmja it is capped as a special hand: issue #21).
    uncapped_purity = BMJA.derive("purity-uncapped",
                                  {"items": {"purity": {"capped_at_limit": False}}})
    uncapped = score_hand(parse_hand(FISHING_PURITY), uncapped_purity)
    capped = score_hand(parse_hand(FISHING_PURITY), CAPPED)
    assert (uncapped.points, uncapped.doubles, uncapped.score) == (48, 5, 1536)
    assert (capped.points, capped.doubles, capped.score, capped.limit) == (48, 5, 1000, "limit")
    assert capped.fishing_for == "purity"


def test_flowers_on_a_limit_hand_are_capped_where_every_hand_is_sheet_21_item_6():
    orphans = winning("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", bonus=["f1", "s1"])
    assert score_hand(parse_hand(orphans), BMJA).score > 1000
    result = score_hand(parse_hand(orphans), CAPPED)
    assert (result.score, result.limit) == (1000, "limit")


# -- 4. the readings are named in the descriptions -----------------------------------------

@pytest.mark.parametrize(("slug", "words"), [
    ("bmja", ["special_or_ordinary_if_greater", "4,864", "count_short_losing_hands"]),
    ("west-wind-goulash", ["a further 1000", "kitty_after_another_draw",
                           "'One suit with Honours' is 1 double", "add up"]),
    ("balsall-common", ["basic hands add up"]),
    ("guide-2-players", ["'4 pairs or 500 points'", "4 doubles", "go_out_minimum"]),
    ("bmja-2-players", ["'4 pairs or 500 points'", "4 doubles"]),
])
def test_each_house_rule_names_its_readings(slug, words):
    description = get_house_rule(slug).description
    for word in words:
        assert word in description, (slug, word)
