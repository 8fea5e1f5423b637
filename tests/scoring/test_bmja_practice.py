"""004 Sheet 19 (Scoring practice) and its answer sheet: the three hands of
``shared/examples/bmja-scoring-practice.json`` give exactly the points, doubles and scores shown.

Each hand is scored twice: on the sets exactly as the answer sheet lists them, and through the
public path (the contract's JSON, parsed, validated, arranged and scored).
"""

from __future__ import annotations

import pytest

from scoring.engine import get_house_rule, parse_hand, score_hand
from scoring.engine.hand import Arrangement, Hand, Set, Win
from scoring.engine.score import score_arrangements
from tests.conftest import load_example

PRACTICE = load_example("bmja-scoring-practice.json")
HANDS = PRACTICE["hands"]
BMJA = get_house_rule(PRACTICE["rules"])

# The answer sheet's words for each double, and the item of the house rule that gives it.
DOUBLE_CODES = {
    "clean hand (one suit with honours)": "clean",
    "no chows": "no_chows",
    "pung of dragons": "dragon_set",
    "own flower/season": "own_flower",
    "own flower": "own_flower",
    "own season": "own_season",
    "pung of own wind (North)": "own_wind_set",
    "pung of own wind (West)": "own_wind_set",
    "pung of the wind of the round (West)": "round_wind_set",
    "Mah Jong with the last discarded tile": "last_discard",
}


def _win(example: dict, tile: str | None) -> Win:
    return Win(tile=tile, source=example["win_from"],
               last_discard=example.get("last_discard", False))


def _as_listed(example: dict) -> tuple[Hand, Arrangement]:
    sets = tuple(
        Set(m["kind"], m["tile"], m["concealed"],
            ("concealed" if m["concealed"] else "claimed") if m["kind"] == "kong" else None,
            declared=True)
        for m in example["melds"]
    )
    hand = Hand(seat_wind=example["seat_wind"], prevailing_wind=example["prevailing_wind"],
                mahjong=True, bonus=tuple(example["bonus"]), win=_win(example, None),
                goulash=example["goulash"])
    return hand, Arrangement("standard", sets)


def _contract_hand(example: dict) -> dict:
    """The hand as a player enters it: exposed sets and concealed kongs declared, the other
    concealed sets held as tiles; the pair's tile is the winning tile."""
    melds, held = [], []
    for m in example["melds"]:
        if m["concealed"] and m["kind"] != "kong":
            if m["kind"] == "chow":
                suit, n = m["tile"][0], int(m["tile"][1])
                held += [f"{suit}{n + i}" for i in range(3)]
            else:
                held += [m["tile"]] * (2 if m["kind"] == "pair" else 3)
        else:
            melds.append({"kind": m["kind"], "tile": m["tile"], "concealed": m["concealed"]})
    pair = next(m["tile"] for m in example["melds"] if m["kind"] == "pair")
    return {
        "rules": PRACTICE["rules"],
        "seat_wind": example["seat_wind"],
        "prevailing_wind": example["prevailing_wind"],
        "mahjong": True,
        "melds": melds,
        "concealed": held,
        "bonus": example["bonus"],
        "win": {"tile": pair, "from": example["win_from"],
                "last_discard": example.get("last_discard", False)},
        "goulash": example["goulash"],
        "fishing": False,
    }


def _check(result, expected: dict) -> None:
    assert (result.points, result.doubles, result.score) == (
        expected["points"], expected["doubles"], expected["score"])
    assert result.limit is None
    doubles = sorted(ln.code for ln in result.lines for _ in range(ln.doubles))
    assert doubles == sorted(DOUBLE_CODES[words] for words in expected["doubles_items"])
    assert sum(ln.points for ln in result.lines) == sum(expected["points_items"].values())


@pytest.mark.parametrize("example", HANDS, ids=[h["name"] for h in HANDS])
def test_sheet_19_hand_scores_as_the_answer_sheet_on_its_listed_sets(example):
    hand, arrangement = _as_listed(example)
    _check(score_arrangements(hand, BMJA, [arrangement]), example["expected"])


@pytest.mark.parametrize("example", HANDS, ids=[h["name"] for h in HANDS])
def test_sheet_19_hand_scores_as_the_answer_sheet_from_the_contract_json(example):
    result = score_hand(parse_hand(_contract_hand(example)), BMJA)
    _check(result, example["expected"])
    assert result.mahjong and result.meets_minimum


def test_sheet_19_hand_3_gets_no_no_chows_double_in_a_goulash():
    example = next(h for h in HANDS if h["goulash"])
    hand, arrangement = _as_listed(example)
    result = score_arrangements(hand, BMJA, [arrangement])
    assert "no_chows" not in {ln.code for ln in result.lines}
    assert "no_chows_double" in example["expected"]  # the example says so, in its words
