"""How fast the settlement engine settles a fixed corpus of hands, and runs sessions.

    .venv/bin/python bench/bench_settlement.py [--hands 20000] [--repeats 5]

The corpus is seeded (the same every run): for each built-in house rule (bmja, guide,
balsall-common, west-wind-goulash) random but possible hands at the table, built as the
property tests build them: draws, discards and self-drawn wins, kongs, bonus tiles, pots,
clean hands and penalties. Prints settlements per second per house rule (median of the
repeats, one process), and whole sessions (24 hands each, with rotation) per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from random import Random

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.engine import get_house_rule  # noqa: E402
from settlements.engine import run_session, settle_hand  # noqa: E402
from tests.settlements.strategies import random_session_hand, random_table  # noqa: E402

SEED = 20261121
RULES = ("bmja", "guide", "balsall-common", "west-wind-goulash")
SESSION_HANDS = 24


def per_second(count: int, work, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per house rule")
    parser.add_argument("--sessions", type=int, default=500, help="sessions per house rule")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"settlement engine, {args.hands} hands and {args.sessions} sessions of "
          f"{SESSION_HANDS} hands per house rule, median of {args.repeats} repeats")
    print(f"{'house rule':<20}{'settlements/s':>15}{'sessions/s':>12}{'hands in sessions/s':>21}")
    for slug in RULES:
        rule = get_house_rule(slug)
        rng = Random(f"{SEED}-{slug}")
        tables = [random_table(rng, rule) for _ in range(args.hands)]
        sessions = [[random_session_hand(rng, rule) for _ in range(SESSION_HANDS)]
                    for _ in range(args.sessions)]

        def settle_all(tables=tables, rule=rule):
            for table in tables:
                settle_hand(table, rule)

        def run_all(sessions=sessions, rule=rule):
            for hands in sessions:
                run_session(hands, rule)

        hands_rate = per_second(len(tables), settle_all, args.repeats)
        session_rate = per_second(len(sessions), run_all, args.repeats)
        print(f"{slug:<20}{hands_rate:>15,.0f}{session_rate:>12,.0f}"
              f"{session_rate * SESSION_HANDS:>21,.0f}")


if __name__ == "__main__":
    main()
