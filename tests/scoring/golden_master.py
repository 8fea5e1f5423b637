"""The golden master: every result of the scoring engine on a fixed set of cases, kept in
``tests/scoring/golden_master.json.gz`` so that any change that moves a result must say so.

    .venv/bin/python -m tests.scoring.golden_master            # compare, list what differs
    .venv/bin/python -m tests.scoring.golden_master --write    # store today's results
    .venv/bin/python -m tests.scoring.golden_master --write --new-hands   # draw the hands anew

The cases (bench/README.md): the hands of the scoring bench's corpus
(``bench/corpus/scoring_hands.json``), four more sets drawn by the same generator with other
seeds, the three hands of 004 Sheet 19's scoring practice and the 195 hands of the Kajongg
reference (``../shared/reference``), each scored under every built-in house rule in four
variants: as entered; as a goulash; as a goulash with the four 2 bamboo wild (001, the rule
derived with ``wild_goulash_overrides("b2")``); as a goulash with jokers (every concealed 2
bamboo written as a joker, ``wild_goulash_overrides("joker")``). The hands are stored in the
file with the results, so the cases never depend on the generator's code.

Each case's result is its canonical JSON (every field of ``ScoreResult``: points, doubles,
score, limit, lines, arrangement, shape, minimum, fishing, special, item codes, loose tiles;
or, for a refused hand, every problem's path, code and message). The file keeps a short
summary of each (what a reader needs to see how a case moved) and a digest of the whole.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from scoring.engine import HandError, HouseRuleError, builtin_house_rules, parse_hand, score_hand
from scoring.engine.rules.variations import wild_goulash_overrides

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden_master.json.gz")
VARIANTS = ("entered", "goulash", "goulash, 2 bamboo wild", "goulash, jokers")


def rules_by_variant() -> list[list]:
    """For each built-in house rule (by slug), the house rule each variant scores under."""
    out = []
    for slug, rule in sorted(builtin_house_rules().items()):
        out.append([slug, [rule, rule,
                           rule.derive(f"{slug}-wild-b2", wild_goulash_overrides("b2")),
                           rule.derive(f"{slug}-jokers", wild_goulash_overrides("joker"))]])
    return out


def variant_hand(hand: dict, variant: int, slug: str) -> dict:
    data = {**hand, "rules": slug}
    if variant >= 1:
        data["goulash"] = True
    if variant == 3:
        data["concealed"] = ["j" if t == "b2" else t for t in hand.get("concealed", [])]
    return data


def canonical(result) -> dict:
    return {
        "points": result.points, "doubles": result.doubles, "score": result.score,
        "limit": result.limit,
        "lines": [[ln.code, ln.name, ln.points, ln.doubles, ln.count] for ln in result.lines],
        "arrangement": [[m.kind, m.tile, m.concealed, m.added, list(m.tiles)]
                        for m in result.arrangement],
        "shape": result.shape, "mahjong": result.mahjong,
        "meets_minimum": result.meets_minimum, "minimum_reason": result.minimum_reason,
        "fishing_for": result.fishing_for, "special": result.special,
        "item_codes": sorted(result.item_codes), "loose": list(result.loose),
    }


def outcome(data: dict, rule) -> dict:
    """The canonical result of scoring ``data`` under ``rule``, or the problems refusing it."""
    try:
        return canonical(score_hand(parse_hand(data), rule))
    except HandError as exc:
        return {"refused": [[p.path, p.code, p.message] for p in exc.problems]}
    except (HouseRuleError, ValueError) as exc:  # recorded, so that a change shows
        return {"error": f"{type(exc).__name__}: {exc}"}


def summary(out: dict) -> str:
    """A few words that show how a case moved: the score or the first problem's code."""
    if "refused" in out:
        return "refused: " + ",".join(code for _, code, _ in out["refused"])
    if "error" in out:
        return out["error"][:80]
    words = f"{out['points']} pts {out['doubles']} dbl = {out['score']}"
    if out["limit"]:
        words += f" ({out['limit']})"
    if out["special"]:
        words += f" special {out['special']}"
    if out["fishing_for"]:
        words += f" fishing {out['fishing_for']}"
    if not out["meets_minimum"]:
        words += " below minimum"
    return words


def digest(out: dict) -> str:
    text = json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def run(hands: list[dict]) -> Iterator[tuple[int, str, int, dict]]:
    """Every case in a fixed order: (hand index, rule slug, variant, outcome)."""
    rules = rules_by_variant()
    for index, hand in enumerate(hands):
        for slug, variants in rules:
            for variant, rule in enumerate(variants):
                yield index, slug, variant, outcome(variant_hand(hand, variant, slug), rule)


def draw_hands() -> list[dict]:
    """The hands, drawn anew (only with ``--new-hands``)."""
    sys.path.insert(0, str(REPO / "bench"))
    import bench_scoring

    from tests.scoring.test_bmja_practice import HANDS, _contract_hand

    hands = [entry["hand"] for entry in json.loads(bench_scoring.CORPUS.read_text())]
    for seed in range(1, 5):
        hands += [hand for _, hand in bench_scoring.corpus(bench_scoring.SEED + seed)]
    hands += [_contract_hand(example) for example in HANDS]
    reference = REPO.parent / "shared" / "reference" / "kajongg-bmja-cases.json"
    hands += [case["contract_hand"] for case in json.loads(reference.read_text())]
    return hands


def load() -> dict:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        return json.load(f)


def write(hands: list[dict]) -> int:
    cases = [f"{digest(out)} {summary(out)}" for *_, out in run(hands)]
    text = json.dumps({"variants": VARIANTS, "hands": hands, "cases": cases},
                      separators=(",", ":"), ensure_ascii=False)
    with open(GOLDEN, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(text.encode())
    return len(cases)


def differences(golden: dict, limit: int | None = None) -> tuple[int, list[str]]:
    """How many cases there are and, for each that differs, a line saying which and how."""
    hands, stored = golden["hands"], golden["cases"]
    found, count = [], 0
    for count, (case, (index, slug, variant, out)) in enumerate(zip(stored, run(hands),
                                                                    strict=False), 1):
        now = f"{digest(out)} {summary(out)}"
        if now != case:
            found.append(f"case {count - 1}: hand {index} under {slug}, {VARIANTS[variant]}: "
                         f"was {case[17:]} [{case[:16]}], now {now[17:]} [{now[:16]}]")
            if limit is not None and len(found) >= limit:
                return count, found
    if count != len(stored):
        found.append(f"{len(stored)} cases stored, {count} computed")
    return count, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store today's results")
    parser.add_argument("--new-hands", action="store_true", help="draw the hands anew")
    args = parser.parse_args()
    if args.write:
        hands = draw_hands() if args.new_hands or not GOLDEN.exists() else load()["hands"]
        print(f"{write(hands):,} cases ({len(hands):,} hands) written to {GOLDEN}")
        return
    count, found = differences(load())
    print("\n".join(found))
    print(f"{count:,} cases, {len(found):,} differ")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
