"""How fast the scoring engine scores a fixed corpus of varied hands under ``bmja``.

    .venv/bin/python bench/bench_scoring.py [--repeats 5] [--regenerate]

The corpus, ``bench/corpus/scoring_hands.json``, holds ordinary winning hands with and without
kongs and chows, special hands, and 13-tile losing hands, many of them fishing. It was generated
by ``corpus()`` (seeded) and is read from the file, so the figures of different versions of the
engine are for the same hands; ``--regenerate`` writes it anew. Each hand is timed
from its contract JSON through ``parse_hand`` and ``score_hand``.

Two sets of figures. "cold": every cache of the engine is cleared before each repeat, so no
repeat profits from the one before (``scoring.engine.memo.clear_all()``). "warm tables":
every memo of hands (whole hands, their counts, their results, the answers remembered by how a hand went out) is still cleared before each repeat,
but tables that depend only on the algorithm and the house rule are kept, as a long-running
server keeps them: the decompositions and readings of one suit's nine counts, the shared
objects of one set or meld (and a declared meld's checks), a win's facts by its source and
flags, the house rule's prepared plan with its per-set match table (by a set's signature and
by the shared set object) and its shared lines (the memos registered as ``memo.TABLE``;
``memo.clear_all(keep_tables=True)``). Their one-off build (one pass over the corpus, from
empty) is printed. Each prints hands per second (median of the repeats, one process) by CPU time and by
wall clock, the slowest hand (its median CPU time over the repeats) and how many took over
1 ms; then the CPU time of each stage, cold. The rate comes from a pass with nothing but the
scoring in its loop; the slowest hand from a second pass, after the same clearing, that reads
the clock around every hand.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.engine import HandError, get_house_rule, memo, parse_hand, score_hand  # noqa: E402
from scoring.engine.tiles import HONOUR_CODES, SUIT_CODES, chow_tiles  # noqa: E402

SEED = 20260201
PLAYING = SUIT_CODES + HONOUR_CODES
WINDS = ("E", "S", "W", "N")
BONUS = ("f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4")
SIZE = {"pung": 3, "kong": 4, "pair": 2}

SPECIAL_TILES = {
    "thirteen_orphans": lambda r, s: "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw".split()
    + [r.choice("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw".split())],
    "all_pair_honours": lambda r, s: [t for t in r.sample(
        "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw".split(), 7) for _ in range(2)],
    "knitting": lambda r, s: [t for n in r.sample(range(1, 10), 7) for t in (f"{s[0]}{n}",
                                                                             f"{s[1]}{n}")],
    "triple_knitting": lambda r, s: [f"{x}{n}" for n in r.sample(range(1, 10), 4)
                                     for x in "bcd"] + [f"{s[0]}5", f"{s[1]}5"],
    "wriggling_snake": lambda r, s: ["we", "ws", "ww", "wn", f"{s[0]}1"]
    + [f"{s[0]}{n}" for n in range(1, 10)],
    "gates_of_heaven": lambda r, s: [f"{s[0]}{n}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    + [f"{s[0]}{r.randint(2, 8)}"],
    "imperial_jade": lambda r, s: [t for t in r.sample(["b2", "b3", "b4", "b6", "b8", "dg"], 4)
                                   for _ in range(3)] + ["b8", "b8"],
    "heads_and_tails": lambda r, s: [t for t in r.sample(["b1", "b9", "c1", "c9", "d1", "d9"], 5)
                                     for _ in range(3)][:14],
    "all_winds_and_dragons": lambda r, s: [t for t in r.sample(list(HONOUR_CODES), 5)
                                           for _ in range(3)][:14],
    "three_great_scholars": lambda r, s: ["dr"] * 3 + ["dg"] * 3 + ["dw"] * 3
    + [f"{s[0]}3"] * 3 + [f"{s[0]}7"] * 2,
    "four_blessings": lambda r, s: ["we"] * 3 + ["ws"] * 3 + ["ww"] * 3 + ["wn"] * 3
    + [f"{s[0]}{r.randint(1, 9)}"] * 2,
    "buried_treasure": lambda r, s: [f"{s[0]}{n}" for n in (2, 2, 2, 4, 4, 4, 6, 6, 6)]
    + ["dr"] * 3 + [f"{s[0]}9"] * 2,
    "purity": lambda r, s: [f"{s[0]}{n}" for n in (1, 1, 1, 3, 3, 3, 5, 5, 5, 7, 7, 7, 9, 9)],
}


def _meld_tiles(kind: str, tile: str) -> list[str]:
    return list(chow_tiles(tile)) if kind == "chow" else [tile] * SIZE[kind]


def _base(r: random.Random, mahjong: bool) -> dict:
    return {"rules": "bmja", "seat_wind": r.choice(WINDS), "prevailing_wind": r.choice(WINDS),
            "mahjong": mahjong, "bonus": sorted(r.sample(BONUS, r.choice((0, 0, 1, 2, 3))))}


def _ordinary(r: random.Random, kongs: int, chow: bool) -> dict | None:
    counts: Counter = Counter()
    melds, held = [], []
    kinds = ["kong"] * kongs + ["chow"] * chow
    kinds += ["pung"] * (4 - len(kinds))
    r.shuffle(kinds)
    for kind in kinds:
        tile = r.choice([c for c in SUIT_CODES if int(c[1]) <= 7] if kind == "chow" else PLAYING)
        tiles = _meld_tiles(kind, tile)
        counts.update(tiles)
        if kind == "kong" or r.random() < 0.5:
            melds.append({"kind": kind, "tile": tile, "concealed": r.random() < 0.3})
        else:
            held += tiles
    pair = r.choice(PLAYING)
    counts.update([pair, pair])
    held += [pair, pair]
    if max(counts.values()) > 4:
        return None
    r.shuffle(held)
    return {**_base(r, True), "melds": melds, "concealed": held,
            "win": {"tile": r.choice(held), "from": r.choice(("wall", "discard", "kong_box")),
                    "last_discard": r.random() < 0.05}}


def _special(r: random.Random, name: str) -> dict:
    suits = r.sample("bcd", 2)
    tiles = SPECIAL_TILES[name](r, suits)
    r.shuffle(tiles)
    return {**_base(r, True), "melds": [], "concealed": tiles,
            "win": {"tile": r.choice(tiles), "from": r.choice(("wall", "discard"))}}


def _losing(r: random.Random, fishing: bool) -> dict:
    if fishing:
        # One tile short of a hand: a special hand or an ordinary one with a tile taken out.
        complete = (_special(r, r.choice(list(SPECIAL_TILES))) if r.random() < 0.6
                    else _ordinary(r, 0, r.random() < 0.3))
        if complete is None:
            return _losing(r, fishing)
        held = list(complete["concealed"])
        held.remove(r.choice(held))
        return {**_base(r, False), "melds": complete["melds"], "concealed": held,
                "fishing": True}
    pool = [t for t in PLAYING for _ in range(4)]
    return {**_base(r, False), "melds": [], "concealed": r.sample(pool, 13)}


def corpus(seed: int = SEED) -> list[tuple[str, dict]]:
    """At least 300 valid hands with their kind, the same every run (and for every ``seed``:
    the golden master, ``tests/scoring/golden_master.py``, draws more sets with other seeds)."""
    r = random.Random(seed)
    rule = get_house_rule("bmja")
    plan = ([("ordinary", lambda: _ordinary(r, 0, False))] * 80
            + [("ordinary with kongs", lambda: _ordinary(r, r.randint(1, 4), False))] * 60
            + [("ordinary with a chow", lambda: _ordinary(r, r.randint(0, 2), True))] * 60
            + [("special", lambda name=name: _special(r, name)) for name in SPECIAL_TILES] * 4
            + [("losing", lambda: _losing(r, False))] * 40
            + [("losing, fishing", lambda: _losing(r, True))] * 60)
    hands = []
    for kind, make in plan:
        while True:
            data = make()
            if data is None:
                continue
            try:
                score_hand(parse_hand(data), rule)
            except HandError:
                continue
            hands.append((kind, data))
            break
    return hands


def clear_engine_caches(keep_tables: bool = False) -> None:
    """Empty every memo of the engine (``scoring.engine.memo``); with ``keep_tables``, every
    memo of hands but not the tables that depend only on the algorithm or the house rule."""
    memo.clear_all(keep_tables=keep_tables)


def run(corpus_hands: list[tuple[str, dict]], repeats: int) -> None:
    rule = get_house_rule("bmja")
    hands = [data for _, data in corpus_hands]
    kinds = Counter(kind for kind, _ in corpus_hands)
    print(f"corpus: {len(hands)} hands ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))})")
    print(f"python {sys.version.split()[0]}; load average {_load()}")
    print("\n== cold: every cache of the engine cleared before each repeat")
    _timed(hands, rule, repeats, keep_tables=False)
    print("\n== warm tables: memos of hands cleared before each repeat, algorithm tables kept")
    clear_engine_caches()
    start = time.process_time()
    for data in hands:  # one pass fills the tables the same way any other hands would
        score_hand(parse_hand(data), rule)
    print(f"one-off build of the algorithm tables and the house rule's plan (one pass): "
          f"{(time.process_time() - start) * 1e3:.1f} ms CPU")
    _timed(hands, rule, repeats, keep_tables=True)
    _stages(hands, rule)


def _timed(hands: list[dict], rule, repeats: int, keep_tables: bool) -> None:
    """Each repeat is two passes over the corpus, each after the same clearing of memos: one
    timed as a whole for the rate, with nothing else in the loop, and one timing every hand
    for the slowest (its two reads of the clock per hand would otherwise count as scoring)."""
    wall_totals, cpu_totals = [], []
    per_hand: list[list[float]] = [[] for _ in hands]
    wall, cpu = time.perf_counter, time.process_time
    for _ in range(repeats):
        clear_engine_caches(keep_tables)
        gc.collect()
        start_wall, start_cpu = wall(), cpu()
        for data in hands:
            score_hand(parse_hand(data), rule)
        cpu_totals.append(cpu() - start_cpu)
        wall_totals.append(wall() - start_wall)
        clear_engine_caches(keep_tables)
        gc.collect()
        for i, data in enumerate(hands):
            # CPU time of this process: on a shared machine, time spent waiting for a core
            # is not the engine's.
            start = cpu()
            score_hand(parse_hand(data), rule)
            per_hand[i].append(cpu() - start)
    medians = [statistics.median(times) for times in per_hand]
    slowest = max(range(len(hands)), key=medians.__getitem__)
    for label, totals in (("CPU time", cpu_totals), ("wall clock", wall_totals)):
        rates = [len(hands) / t for t in totals]
        print(f"hands per second ({label}): {statistics.median(rates):,.0f} (median; repeats "
              f"{', '.join(f'{x:,.0f}' for x in rates)})")
    print(f"slowest hand: {medians[slowest] * 1e6:,.0f} us CPU (median over repeats), "
          f"hand {slowest}: {json.dumps(hands[slowest])}")
    over = sum(1 for m in medians if m > 0.001)
    print(f"hands slower than 1 ms: {over} of {len(hands)}")


def _stages(hands: list[dict], rule) -> None:
    """Where the time goes: each stage of score_hand, CPU time per hand, caches cleared."""
    from scoring.engine.arrange import arrangements, completions
    from scoring.engine.score import score_arrangements
    from scoring.engine.validate import validate_hand

    clear_engine_caches()
    print("\ncold, one pass:")
    spent = dict.fromkeys(("parse", "validate", "arrange", "complete (fishing)", "score"), 0.0)
    cpu = time.process_time
    for data in hands:
        t0 = cpu()
        hand = parse_hand(data)
        t1 = cpu()
        validate_hand(hand, rule)
        t2 = cpu()
        found = arrangements(hand, rule)
        t3 = cpu()
        fishing = completions(hand, rule) if hand.fishing else []
        t4 = cpu()
        score_arrangements(hand, rule, found, fishing)
        t5 = cpu()
        for name, took in zip(spent, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4),
                              strict=True):
            spent[name] += took
    print("CPU per hand by stage: " + ", ".join(
        f"{name} {took / len(hands) * 1e6:.0f} us" for name, took in spent.items()))


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "unknown"


CORPUS = REPO / "bench" / "corpus" / "scoring_hands.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--regenerate", action="store_true",
                        help=f"Generate the corpus again and write it to {CORPUS}.")
    args = parser.parse_args()
    if args.regenerate or not CORPUS.exists():
        hands = corpus()
        CORPUS.parent.mkdir(parents=True, exist_ok=True)
        CORPUS.write_text(json.dumps([{"kind": k, "hand": h} for k, h in hands]) + "\n")
    hands = [(entry["kind"], entry["hand"]) for entry in json.loads(CORPUS.read_text())]
    run(hands, args.repeats)


if __name__ == "__main__":
    main()
