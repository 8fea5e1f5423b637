"""KDE Kajongg's BMJA test hands as an independent reference (issue #11), and where this
project and Kajongg read 004 apart.

``../shared/reference/kajongg-bmja-cases.json`` holds 195 of Kajongg's BMJA test hands in the
contract's format with Kajongg's answers. Each is scored under ``KAJONGG_RULE``: ``bmja`` with
Kajongg's readings where clubs may differ (no clean-hand double, the bouquet's two doubles on
top of the own flower's, every hand capped at the limit, one chow). A case agrees when both
refuse it (a Mah Jong Kajongg does not accept, or a long hand it will not count), or when both
give the same points, doubles and score (for a limit hand or a fishing part-score, the same
score). Every other case is in ``DIFFERENCES``, each with the sheet of 004 that decides it.

    .venv/bin/python -m tests.scoring.kajongg_reference     # write docs/kajongg-reference.md

The table in ``docs/kajongg-reference.md`` is rendered from this data; the test
(``test_kajongg_reference.py``) fails when it is out of date.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from scoring.engine import HandError, get_house_rule, parse_hand, score_hand

REPO = Path(__file__).resolve().parents[2]
CASES_FILE = REPO.parent / "shared" / "reference" / "kajongg-bmja-cases.json"
DOCS = REPO / "docs" / "kajongg-reference.md"

KAJONGG_OVERRIDES = {
    "name": "BMJA as KDE Kajongg reads it",
    "scoring": {"cap_ordinary_hands": True, "max_chows": 1},
    "items": {
        "clean": {"doubles": 0},
        "bouquet_flowers": {"replaces": [], "doubles": 2},
        "bouquet_seasons": {"replaces": [], "doubles": 2},
    },
}
KAJONGG_RULE = get_house_rule("bmja").derive("bmja-kajongg", KAJONGG_OVERRIDES)


@dataclass(frozen=True)
class Difference:
    topic: str
    sheet: str  # the sheet of 004 that decides it
    project: str  # how this project reads it
    kajongg: str  # how Kajongg reads it
    cases: tuple[str, ...]
    kind: str = "rule"  # "rule": a reading; "contract": the contract cannot state the hand
    # as Kajongg does; "kajongg": an error of Kajongg's


DIFFERENCES = (
    Difference(
        "Gates of Heaven's 14th tile", "Sheet 27",
        "'a run from 2 to 8 plus a further tile from the same suit': any tile of the suit, a "
        "fourth 1 or 9 included; fishing for it scores two fifths of the limit",
        "the further tile may not be a fourth 1 or 9: no Mah Jong, no fishing part-score",
        ("K047", "K048", "K050", "K051")),
    Difference(
        "Mah Jong with a tile from the kong box", "Sheet 17",
        "one double ('with a tile from the kong box'), besides the wall tile's 2 points",
        "the 2 points only", ("K073", "K076", "K105")),
    Difference(
        "A kong claimed onto a concealed pung", "Sheet 13",
        "exposed ('pick up the discard and expose all 4 tiles'): an exposed kong, and no "
        "all-concealed double",
        "a 'claimed kong' that keeps the all-concealed double", ("K078",)),
    Difference(
        "Scratching a Carrying Pole", "Sheet 29",
        "not a special hand of 004 (Sheet 29 lists five; robbing a kong is one double, "
        "Sheet 13): scored as an ordinary hand",
        "a limit hand", ("K092",)),
    Difference(
        "Three Great Scholars' pung and pair", "Sheet 28",
        "'a pung/kong and a pair in one suit': the other pung and the pair of one suit "
        "(argument rest_one_suit)",
        "any pung and pair", ("K095", "K096", "K098", "K099")),
    Difference(
        "Two chows in a losing hand", "Sheet 10",
        "'only one chow per hand is allowed': a losing hand with two is refused",
        "counts a losing hand with any number of chows", ("K107", "K132")),
    Difference(
        "Exposed pairs", "Sheets 13, 28",
        "a pair is exposed only when claimed for Mah Jong (Sheet 13), so the contract sends "
        "a losing hand's pairs concealed, and the hand fishes for Four Blessings (Sheet 28)",
        "exposed pairs that rule out the fishing part-score", ("K071",), kind="contract"),
    Difference(
        "Six red dragons", "Sheet 1",
        "four of each tile: the hand is refused ('a fifth dr')",
        "scores the exposed and the concealed pung of red dragons (an error in the test hand)",
        ("K070",), kind="kajongg"),
)
KNOWN = {case: difference for difference in DIFFERENCES for case in difference.cases}


def load_cases() -> list[dict]:
    return json.loads(CASES_FILE.read_text())


def kajongg_answer(case: dict) -> str | tuple:
    expected = case["expected_bmja"]
    if (case["contract_hand"]["mahjong"] and not expected["won"]) or any(
            line.startswith("Long Hand") for line in case["kajongg_explain"]):
        return "refused"
    if expected["limits"]:
        return ("limit", case["kajongg_total_limit"])
    return (expected["points"], expected["doubles"], case["kajongg_total_limit"])


def project_answer(case: dict) -> str | tuple:
    try:
        result = score_hand(parse_hand(case["contract_hand"]), KAJONGG_RULE)
    except HandError:
        return "refused"
    if result.mahjong and not result.meets_minimum:
        return "refused"
    if result.special or (result.limit and result.limit != "limit"):
        return ("limit", result.score)
    return (result.points, result.doubles, result.score)


def compare() -> tuple[list[str], dict[str, tuple]]:
    """The cases that agree, and each other case with both answers."""
    agree, differ = [], {}
    for case in load_cases():
        ours, theirs = project_answer(case), kajongg_answer(case)
        if ours == theirs:
            agree.append(case["id"])
        else:
            differ[case["id"]] = (ours, theirs)
    return agree, differ


def _answer_words(answer) -> str:
    if answer == "refused":
        return "refused"
    if answer[0] == "limit":
        return f"{answer[1]} (limit hand or part)"
    points, doubles, score = answer
    return f"{points} pts, {doubles} dbl = {score}"


KIND_WORDS = {"rule": "reading of 004", "contract": "the contract cannot state it",
              "kajongg": "Kajongg's error"}


def render() -> str:
    agree, differ = compare()
    total = len(agree) + len(differ)
    lines = [
        "# Where this project and KDE Kajongg read BMJA apart",
        "",
        "Generated by `.venv/bin/python -m tests.scoring.kajongg_reference` from the data of "
        "`tests/scoring/kajongg_reference.py`; `tests/scoring/test_kajongg_reference.py` fails "
        "when this page is out of date. Do not edit by hand.",
        "",
        f"Kajongg's BMJA test hands (`../shared/reference/kajongg-bmja-cases.json`, {total} "
        "hands) scored under `bmja` with Kajongg's readings where clubs differ (no clean-hand "
        "double, the bouquet's two doubles on top of the own flower's, every hand capped at the "
        f"limit, one chow): **{len(agree)} agree** (the same points, doubles and score, or both "
        f"refuse); {len(differ)} differ, each for a reason named below with the sheet of 004 "
        "(`../shared/rules/004_*.txt`) that decides it.",
        "",
        "| difference | 004 | this project | Kajongg | kind | cases |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for d in DIFFERENCES:
        cases = ", ".join(
            f"{c} ({_answer_words(differ[c][0])} / {_answer_words(differ[c][1])})"
            if c in differ else f"{c} (agrees now)" for c in d.cases)
        lines.append(f"| {d.topic} | {d.sheet} | {d.project} | {d.kajongg} | "
                     f"{KIND_WORDS[d.kind]} | {cases} |")
    counts = {kind: sum(len(d.cases) for d in DIFFERENCES if d.kind == kind)
              for kind in KIND_WORDS}
    lines += ["", f"Cases: {counts['rule']} readings of 004, {counts['contract']} the contract "
              f"cannot state as Kajongg does, {counts['kajongg']} Kajongg error. Each case is "
              "shown as this project's answer / Kajongg's.", ""]
    return "\n".join(lines)


def main() -> None:
    DOCS.write_text(render())
    print(f"written {DOCS}")


if __name__ == "__main__":
    main()
