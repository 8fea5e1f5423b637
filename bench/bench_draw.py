"""The table draw (issue #23) beside a random draw and a greedy one, in one run.

    flock /tmp/bench.lock .venv/bin/python bench/bench_draw.py [--quick]

1. Full attendance: 16 players over 5 nights and 32 over 8, all tables of 4. Repeat pairs: for
   each pair, the meetings after its first, summed (0 is possible for both: the affine plane
   of order 4 for 16, a resolvable design for 32). The draw runs once per seed (3 seeds),
   random draws 100 seasons (mean and worst), the greedy draw (a host seating one by one where
   they have met fewest) 100 seasons.
2. A simulated season: 24 members, 12 to 24 at random each night, 30 nights, tables of 4 with
   5s then 3s where numbers do not divide. Each draw sees the nights before it. Figures:
   - excess: the most times any pair met, minus the least that maximum could be given who
     came when (for each player, the smallest M with sum over the others of min(M, nights
     together) >= their seats' partners over the season; the largest such M over players);
   - never met: pairs who came on the same night at least 5 times and never met;
   - East spread and odd-table spread: max minus min over players of (Easts - share) and
     (seats at tables of 3 or 5 - share), share being what a random draw gives on average.
3. Draw time: 40 players against a 30-night season of 28 to 40 of them (5 draws, each
   seed; wall clock, the draw's own limit 1.2 s).
4. On that night, the cost CP-SAT alone reaches in 1.5 s from the greedy draw, the swap
   descent's, and the draw's (why the draw starts CP-SAT from the descent).

Random and greedy are measured in the same run, between the draw's seeds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from door.draw import DrawRequest, PastNight, Player, draw, plan_sizes  # noqa: E402
from door.draw.costs import costs_of, draw_cost  # noqa: E402
from door.draw.greedy import greedy_tables, random_tables  # noqa: E402
from door.draw.improve import best_start  # noqa: E402
from door.draw.season import Season, add_night, pair, summarise  # noqa: E402
from door.draw.solve import _solve  # noqa: E402


def drawn(keys, sizes, history, seed):
    req = DrawRequest(tuple(Player(k, k) for k in keys), sizes, tuple(history), seed=seed)
    return [list(t.seats) for t in draw(req).tables]


def greedy(keys, sizes, history, seed):
    req = DrawRequest(tuple(Player(k, k) for k in keys), sizes, tuple(history), seed=seed)
    costs = costs_of(req, summarise(req.history, req.weights))
    tables = greedy_tables(req, costs, random.Random(seed))
    # A greedy seating whose first choice is East (no season figures for winds).
    return tables


def hat(keys, sizes, history, seed):
    return random_tables(sorted(keys), sizes, random.Random(seed * 7919 + len(history)))


def season_of(method, nights, seed) -> list[PastNight]:
    """Draw each night (its players, its sizes) with the nights before it as history."""
    history: list[PastNight] = []
    for index, (keys, sizes) in enumerate(nights):
        tables = method(keys, sizes, history, seed * 1000 + index)
        history.append(PastNight(tuple(tuple(t) for t in tables)))
    return history


def repeats(history) -> int:
    met = summarise(tuple(history)).met
    return sum(n - 1 for n in met.values() if n > 1)


def season_figures(history) -> dict:
    s: Season = Season()
    for night in history:
        add_night(s, night)
    players = sorted(s.attended)
    partners = {p: 0 for p in players}
    for night in history:
        for table in night.tables:
            for k in table:
                partners[k] += len(table) - 1
    bound = 0
    for p in players:
        together = [s.together.get(pair(p, q), 0) for q in players if q != p]
        m = 0
        while sum(min(m, t) for t in together) < partners[p]:
            m += 1
        bound = max(bound, m)
    most = max(s.met.values(), default=0)
    never = sum(1 for key, n in s.together.items() if n >= 5 and not s.met.get(key))
    east = [s.east.get(p, 0) - s.east_share[p] for p in players]
    odd = [s.odd.get(p, 0) - s.odd_share[p] for p in players]
    return {"excess": most - bound, "most": most, "bound": bound, "never": never,
            "east": max(east) - min(east), "odd": max(odd) - min(odd)}


def full_attendance(players: int, nights: int, seeds: int, yardsticks: int) -> None:
    keys = [f"p{i:02d}" for i in range(players)]
    plan = [(keys, (4,) * (players // 4))] * nights
    ours = []
    hats, greedies = [], []
    for seed in range(max(seeds, yardsticks)):
        if seed < seeds:
            ours.append(repeats(season_of(drawn, plan, seed)))
        if seed < yardsticks:
            hats.append(repeats(season_of(hat, plan, seed)))
            greedies.append(repeats(season_of(greedy, plan, seed)))
    print(f"{players} players, {nights} nights, full attendance: repeat pairs")
    print(f"  draw    {ours} (seeds 0-{seeds - 1})")
    print(f"  random  mean {statistics.mean(hats):.1f}, worst {max(hats)} of {len(hats)}")
    print(f"  greedy  mean {statistics.mean(greedies):.1f}, worst {max(greedies)}, best "
          f"{min(greedies)} of {len(greedies)}")


def simulated_nights(seed: int, members: int = 24, nights: int = 30):
    rng = random.Random(seed)
    keys = [f"m{i:02d}" for i in range(members)]
    plan = []
    for _ in range(nights):
        count = rng.randint(12, members)
        came = sorted(rng.sample(keys, count))
        plan.append((came, plan_sizes(count, allowed=(3, 5), prefer=(5, 3))))
    return plan


def simulated_season(seeds: int, yardsticks: int) -> None:
    print("Simulated season: 24 members, 12-24 a night, 30 nights (goal: excess <= 1, "
          "never met 0)")
    rows = {"draw": [], "random": [], "greedy": []}
    for seed in range(max(seeds, yardsticks)):
        plan = simulated_nights(seed)
        if seed < seeds:
            rows["draw"].append(season_figures(season_of(drawn, plan, seed)))
        if seed < yardsticks:
            rows["random"].append(season_figures(season_of(hat, plan, seed)))
            rows["greedy"].append(season_figures(season_of(greedy, plan, seed)))
    for name, figures in rows.items():
        def col(key, figures=figures):
            values = [f[key] for f in figures]
            return (f"{statistics.mean(values):.2f} (worst {max(values):.2f})"
                    if len(values) > 1 else f"{values[0]:.2f}")
        print(f"  {name:7} excess {col('excess')}; most met {col('most')} vs bound "
              f"{col('bound')}; never met {col('never')}; East spread {col('east')}; "
              f"odd-table spread {col('odd')}  [{len(figures)} seasons]")


def draw_time(runs: int) -> None:
    keys, history = forty_night()
    times = []
    for seed in range(runs):
        req = DrawRequest(tuple(Player(k, k) for k in keys), plan_sizes(40), tuple(history),
                          seed=seed)
        start = time.perf_counter()
        result = draw(req)
        times.append(time.perf_counter() - start)
    print(f"Draw time, 40 players against 30 nights: mean {statistics.mean(times):.2f} s, "
          f"max {max(times):.2f} s over {runs} draws (last: {result.method})")


def forty_night():
    rng = random.Random(40)
    keys = [f"p{i:02d}" for i in range(40)]
    history = []
    for index in range(30):
        count = rng.randint(28, 40)
        came = sorted(rng.sample(keys, count))
        sizes = plan_sizes(count, allowed=(3, 5))
        history.append(PastNight(tuple(tuple(t) for t in hat(came, sizes, history, index))))
    return keys, history


def solver_alone(runs: int) -> None:
    """Why the draw starts CP-SAT from a swap descent: the cost each reaches on the 40-player
    night (lower is better), alternating, the same seeds."""
    keys, history = forty_night()
    rows = {"CP-SAT alone from the greedy draw, 1.5 s": [], "swap descent, 8 starts": [],
            "the draw (descent, then CP-SAT)": []}
    times = {name: [] for name in rows}
    for seed in range(runs):
        req = DrawRequest(tuple(Player(k, k) for k in keys), plan_sizes(40), tuple(history),
                          seed=seed)
        costs = costs_of(req, summarise(req.history, req.weights))
        for name in rows:
            start = time.perf_counter()
            if name.startswith("CP-SAT"):
                tables, _ = _solve(req, costs, greedy_tables(req, costs, random.Random(seed)),
                                   4, 1.5)
            elif name.startswith("swap"):
                tables = best_start(req, costs, random.Random(seed))
            else:
                tables = [list(t.seats) for t in draw(req).tables]
            times[name].append(time.perf_counter() - start)
            rows[name].append(draw_cost(tables, costs))
    print("Forty players against 30 nights: cost reached (lower is better), seconds")
    for name, costs_reached in rows.items():
        print(f"  {name:40} cost mean {statistics.mean(costs_reached):.0f} "
              f"(runs {costs_reached}), {statistics.mean(times[name]):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds (a smoke run)")
    args = parser.parse_args()
    seeds, yardsticks = (1, 10) if args.quick else (3, 100)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    full_attendance(16, 5, seeds, yardsticks)
    full_attendance(32, 8, seeds, yardsticks)
    simulated_season(seeds, 20 if not args.quick else 5)
    draw_time(5 if not args.quick else 2)
    solver_alone(3 if not args.quick else 1)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
