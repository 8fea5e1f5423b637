"""Issue #21, "Hands that break 004": Purity is a special hand and stops at the limit under
``bmja`` (a named item field lets a club's rule let it pass), and a hand that claims Heaven's or
Earth's Blessing against its own facts is refused with a sentence, never scored as ordinary."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.engine import HandError, HouseRule, get_house_rule, parse_hand, score_hand

BMJA = get_house_rule("bmja")
PURITY_PASSES = BMJA.derive("purity-passes", {"items": {"purity": {"capped_at_limit": False}}})

# The hand: exposed pung c2, concealed pungs c3 c6, concealed kong c9, pair c5, f1 s2,
# South won on a discard. 70 points and 5 doubles (Purity 3, no chows, South's own season).
PURITY = {"seat_wind": "S", "prevailing_wind": "E", "mahjong": True,
          "melds": [{"kind": "pung", "tile": "c2"},
                    {"kind": "kong", "tile": "c9", "concealed": True}],
          "concealed": ["c3", "c3", "c3", "c6", "c6", "c6", "c5", "c5"],
          "bonus": ["f1", "s2"], "win": {"tile": "c5", "from": "discard"}}

# North one tile short of Purity, fishing: 48 points, 2 doubles of its own and 3 for fishing.
FISHING_PURITY = {"seat_wind": "N", "prevailing_wind": "E", "mahjong": False, "fishing": True,
                  "bonus": ["f4", "s4"],
                  "melds": [{"kind": "kong", "tile": "c1", "concealed": True},
                            {"kind": "pung", "tile": "c2"}, {"kind": "pung", "tile": "c4"}],
                  "concealed": ["c8", "c8", "c8", "c9"]}


def lines(result) -> list[tuple[str, int, int]]:
    return [(ln.code, ln.points, ln.doubles) for ln in result.lines]


# -- Purity: capped at the limit, flowers and seasons on top ---------------------------------

def test_purity_past_the_limit_scores_the_limit_with_the_flowers_on_top():
    result = score_hand(parse_hand(PURITY), BMJA)
    # 1000, and the flowers' 8 points doubled once for South's own season (Sheet 21 item 6).
    assert (result.score, result.limit, result.special) == (1016, "limit", "purity")
    assert lines(result) == [("purity", 1000, 0), ("bonus_tile", 8, 0), ("own_season", 0, 1)]


def test_a_club_rule_may_let_purity_pass_the_limit():
    result = score_hand(parse_hand(PURITY), PURITY_PASSES)
    assert (result.points, result.doubles, result.score, result.limit) == (70, 5, 2240, None)
    assert result.special is None and "purity" in result.item_codes


def test_purity_under_the_limit_is_scored_as_sheet_23_says():
    small = {**PURITY, "melds": [{"kind": "pung", "tile": "c2"}, {"kind": "pung", "tile": "c9"}],
             "bonus": []}
    result = score_hand(parse_hand(small), BMJA)
    # 2 + 4 + 4 + 4 + 20 = 34 points, doubled three times for Purity and once for no chows.
    assert (result.points, result.doubles, result.score, result.limit) == (34, 4, 544, None)


def test_fishing_for_purity_is_capped_the_same_way():
    result = score_hand(parse_hand(FISHING_PURITY), BMJA)
    assert result.fishing_for == "purity"
    # 1000, and f4 s4's 8 points doubled twice (North's own flower and season).
    assert (result.score, result.limit) == (1032, "limit (fishing for Purity)")
    assert lines(result) == [("purity", 1000, 0), ("bonus_tile", 8, 0), ("own_flower", 0, 1),
                             ("own_season", 0, 1)]
    passes = score_hand(parse_hand(FISHING_PURITY), PURITY_PASSES)
    assert (passes.points, passes.doubles, passes.score) == (48, 5, 1536)


def test_the_reading_is_named_and_old_versions_keep_theirs():
    assert BMJA.item("purity").capped_at_limit
    assert "capped_at_limit" in BMJA.description
    # A version frozen before the field existed reads it as it was scored then: uncapped.
    data = BMJA.to_dict()
    for item in data["items"]:
        item.pop("capped_at_limit")
    old = HouseRule.from_dict(data)
    assert not old.item("purity").capped_at_limit
    assert score_hand(parse_hand(PURITY), old).score == 2240


# -- Heaven's and Earth's Blessing: facts that contradict the claim --------------------------

# A Mah Jong of four sets and a pair, the winning tile c5, held concealed unless told.
BLESSED_TILES = ["c3", "c3", "c3", "c6", "c6", "c6", "c5", "c5", "d1", "d2", "d3"]


def blessed(seat: str, source: str, fact: str, melds=None) -> dict:
    melds = melds or []
    concealed = BLESSED_TILES + ([] if melds else ["c9", "c9", "c9"])
    return {"seat_wind": seat, "prevailing_wind": "E", "mahjong": True, "melds": melds,
            "concealed": concealed, "win": {"tile": "c5", "from": source, fact: True}}


def refused(data: dict, rule=BMJA) -> tuple[str, str, str]:
    with pytest.raises(HandError) as caught:
        score_hand(parse_hand(data), rule)
    [problem] = caught.value.problems
    return problem.path, problem.code, problem.message


@pytest.mark.parametrize(("seat", "source", "melds", "why"), [
    ("E", "wall", [{"kind": "kong", "tile": "c9", "concealed": True}],
     "it has a kong, whose replacement tile was not dealt"),
    ("E", "discard", None, "it was won on a discard"),
    ("E", "wall", [{"kind": "pung", "tile": "c9"}], "it has an exposed set"),
    ("S", "wall", None, "this is South's hand"),
])
def test_heavens_blessing_against_the_hands_facts_is_refused(seat, source, melds, why):
    path, code, message = refused(blessed(seat, source, "heavenly", melds))
    assert (path, code) == ("win.heavenly", "contradicts_heavenly")
    assert message == (f"Heaven's Blessing is Mah Jong with the 14 tiles dealt to East (004 "
                       f"Sheet 29), but {why}. Remove 'heavenly', or correct the hand.")


def test_heavens_blessing_lists_every_contradiction_at_once():
    _path, _code, message = refused(
        blessed("W", "discard", "heavenly", [{"kind": "pung", "tile": "c9"}]))
    assert ("this is West's hand and it was won on a discard and it has an exposed set"
            in message)


def test_earths_blessing_won_from_the_wall_is_refused():
    path, code, message = refused(blessed("S", "wall", "earthly"))
    assert (path, code) == ("win.earthly", "contradicts_earthly")
    assert message == ("Earth's Blessing is Mah Jong with the first discard made by East (004 "
                       "Sheet 29), but it was won with a tile drawn from the wall. Remove "
                       "'earthly', or correct the hand.")


def test_earths_blessing_is_not_easts():
    _path, code, message = refused(blessed("E", "discard", "earthly"))
    assert code == "contradicts_earthly" and "this is East's hand" in message


def test_blessings_that_fit_the_facts_score_the_limit():
    assert score_hand(parse_hand(blessed("E", "wall", "heavenly")), BMJA).special == \
        "heavens_blessing"
    assert score_hand(parse_hand(blessed("N", "discard", "earthly")), BMJA).special == \
        "earths_blessing"


def test_the_guides_earthly_hand_may_be_drawn_from_the_wall():
    # 002: "picking up the dealer's first discard or by taking the winning tile from the Wall".
    guide = get_house_rule("guide")
    result = score_hand(parse_hand(blessed("S", "wall", "earthly")), guide)
    assert result.special == "earthly_hand"
    assert refused(blessed("S", "wall", "heavenly"), guide)[1] == "contradicts_heavenly"


@pytest.mark.django_db
def test_the_calculator_answers_400_with_the_sentence():
    answer = APIClient().post("/api/v1/score", {**blessed("S", "wall", "heavenly"),
                                                "rules": "bmja"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["win"]["heavenly"][0].startswith("Heaven's Blessing is Mah Jong")


@pytest.mark.django_db
def test_east_pays_double_the_capped_purity_not_4480():
    """The issue's figure: uncapped, East paid 4,480 for this hand; capped, twice 1,016."""
    hand = {k: v for k, v in PURITY.items() if k not in ("seat_wind", "prevailing_wind")}
    body = {"rules": "bmja", "prevailing_wind": "E",
            "hands": {"E": {"score": 0}, "S": hand, "W": {"score": 0}, "N": {"score": 0}},
            "winner": "S", "discarder": "W", "draw": False, "goulash": False, "pot": 0}
    answer = APIClient().post("/api/v1/settle", body, format="json")
    assert answer.status_code == 200, answer.content
    paid_by_east = [p for p in answer.json()["payments"] if p["from"] == "E" and p["to"] == "S"]
    assert [p["amount"] for p in paid_by_east] == [2032]
    assert answer.json()["net"]["S"] == 2032 + 1016 + 1016
