"""``score_hand`` end to end under ``bmja``: the contract's JSON parsed, validated, arranged
(and, for a fishing hand, completed) and scored, for the special hands and part-scores of
004 Sheets 21-28."""

from __future__ import annotations

import pytest

from scoring.engine import HandError, get_house_rule, parse_hand, score_hand

BMJA = get_house_rule("bmja")


def hand(concealed: str, *, win: str | None = None, melds=(), seat="S", round="E", bonus="",
         fishing=False, **flags) -> dict:
    data = {"rules": "bmja", "seat_wind": seat, "prevailing_wind": round,
            "mahjong": win is not None, "melds": list(melds), "concealed": concealed.split(),
            "bonus": bonus.split(), "fishing": fishing}
    if win:
        tile, source = win.split()
        data["win"] = {"tile": tile, "from": source, **flags}
    return data


def score(data: dict):
    return score_hand(parse_hand(data), BMJA)


ORPHANS_13 = "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw"
KNITTING_13 = "b1 c1 b3 c3 b4 c4 b7 c7 b8 c8 b9 c9 b2"


def test_sheet_22_thirteen_unique_wonders_won_on_a_discard_scores_the_limit():
    result = score(hand(ORPHANS_13 + " dw", win="dw discard"))
    assert (result.score, result.limit, result.special) == (1000, "limit",
                                                           "thirteen_unique_wonders")


def test_sheet_22_fishing_for_thirteen_unique_wonders_scores_two_fifths():
    result = score(hand(ORPHANS_13, fishing=True))
    assert result.score == 400 and result.fishing_for == "thirteen_unique_wonders"
    assert result.limit == "two fifths of the limit (fishing for 13 Unique Wonders)"


def test_sheet_24_knitting_scores_half_limit_and_fishing_one_fifth():
    won = score(hand(KNITTING_13 + " c2", win="c2 wall"))
    assert (won.score, won.limit, won.special) == (500, "half limit", "knitting")
    fishing = score(hand(KNITTING_13, fishing=True))
    assert fishing.score == 200 and fishing.fishing_for == "knitting"


def test_sheet_21_item_6_flowers_on_top_of_a_part_score():
    result = score(hand(KNITTING_13, fishing=True, seat="S", bonus="f2 s4"))
    assert result.score == 200 + 8 * 2


def test_sheet_21_without_calling_fishing_a_losing_hand_scores_its_sets_only():
    result = score(hand(ORPHANS_13))
    assert result.fishing_for is None and result.limit is None
    assert result.score == 0


def test_sheet_28_fishing_for_three_great_scholars_takes_the_actual_value_if_greater():
    melds = [{"kind": "kong", "tile": "dr", "concealed": True},
             {"kind": "kong", "tile": "dg", "concealed": True}]
    result = score(hand("dw dw dw c3 c3 c7 c7", melds=melds, fishing=True))
    # 32 + 32 + 8 points, three dragon doubles: 72 x 8 = 576 > 400.
    assert result.fishing_for == "three_great_scholars"
    assert result.score == 576 and result.limit is None


def test_sheet_28_fishing_for_four_blessings_scores_two_fifths_when_that_is_greater():
    melds = [{"kind": "pung", "tile": "we"}, {"kind": "pung", "tile": "ws"}]
    result = score(hand("ww ww ww wn wn b5 b5", melds=melds, fishing=True, seat="N"))
    # Actual: 4 + 4 + 8 + 2 (pair of own wind) = 18, one double (round wind) = 36 < 400.
    assert result.fishing_for == "four_blessings"
    assert (result.score, result.limit) == (400, "two fifths of the limit (fishing for "
                                                 "Four Blessings Hovering over the Door)")


def test_sheet_28_fishing_for_four_blessings_scores_the_actual_value_when_greater():
    melds = [{"kind": "kong", "tile": t, "concealed": True} for t in ("we", "ws", "ww")]
    result = score(hand("wn wn b5 b5", melds=melds, fishing=True, seat="W", round="W",
                        bonus="f3 s3"))
    # 3 x 32 + 8 = 104 points; West's own and round wind, own flower and season: 4 doubles.
    assert result.fishing_for == "four_blessings"
    assert (result.score, result.limit) == (104 * 16, None)


def test_sheet_25_a_concealed_one_suit_pung_hand_drawn_from_the_wall_is_buried_treasure():
    result = score(hand("c2 c2 c2 c4 c4 c4 c6 c6 c6 we we we c3 c3", win="c3 wall"))
    assert (result.special, result.score) == ("buried_treasure", 1000)
    on_discard = score(hand("c2 c2 c2 c4 c4 c4 c6 c6 c6 we we we c3 c3", win="c3 discard"))
    assert on_discard.special is None


def test_sheet_23_purity_through_the_arrangement_search():
    melds = [{"kind": "pung", "tile": "c2"}]
    result = score(hand("c4 c4 c4 c6 c6 c6 c8 c8 c8 c3 c3", melds=melds, win="c3 discard"))
    codes = {ln.code for ln in result.lines}
    assert "purity" in codes and "clean" not in codes
    # 20 + 2 + 4 + 4 + 4 = 34 points; purity 3, no chows 1.
    assert (result.points, result.doubles, result.score) == (34, 4, 34 * 16)


def test_tiles_that_make_no_complete_hand_are_a_hand_error():
    with pytest.raises(HandError) as caught:
        score(hand("b1 b2 b4 c5 c6 c8 d1 d1 d3 we ws dr dg dw", win="dw discard"))
    assert caught.value.codes == ["not_a_winning_hand"]
    assert "mahjong" in caught.value.problems[0].message
