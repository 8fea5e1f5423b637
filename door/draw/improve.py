"""The starting draw handed to the solver: the greedy draw from several seeded starts, each
improved by exchanging two players between tables while that lowers the cost (a swap is taken
only if every rule still holds afterwards), the cheapest kept.

Why this exists beside CP-SAT: on a weighted 40-player night CP-SAT alone, in 1.5 s, ended at a
cost about half as high again as this descent reaches in 0.4 s (bench/README.md, "Table draw");
CP-SAT then proves small nights optimal, finds the seatings that hard combinations of the
host's rules allow, and improves on this start where it can.
"""

from __future__ import annotations

import random

from door.draw.checks import together_groups
from door.draw.costs import Costs, draw_cost
from door.draw.greedy import greedy_tables
from door.draw.model import DrawRequest

RESTARTS = 8


def best_start(req: DrawRequest, costs: Costs, rng: random.Random, base: int = 4,
               restarts: int | None = None) -> list[list[str]] | None:
    best, best_cost = None, None
    for _ in range(restarts or RESTARTS):
        tables = greedy_tables(req, costs, random.Random(rng.random()), base)
        if tables is None:
            continue
        tables = descend(req, tables, costs, base)
        cost = draw_cost(tables, costs, base)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
    return best


def descend(req: DrawRequest, tables: list[list[str]], costs: Costs, base: int = 4
            ) -> list[list[str]]:
    """Exchange two players of different tables while some exchange lowers the cost."""
    tables = [list(t) for t in tables]
    keys = [p.key for p in req.players]
    groups = together_groups(keys, req.constraints.together)
    stays = {k for k in keys if len(groups[k]) > 1} | {k for k, _ in req.constraints.fixed}
    apart: dict[str, set[str]] = {k: set() for k in keys}
    for a, b in req.constraints.apart:
        apart[a].add(b)
        apart[b].add(a)
    newcomers = {p.key for p in req.players if p.newcomer}
    regulars = {p.key for p in req.players if p.regular and not p.newcomer}
    odd = [len(t) != base for t in tables]
    pair = costs.pair

    def allowed(a: str, b: str, ta: list[str], tb: list[str]) -> bool:
        if apart[a] & (set(tb) - {b}) or apart[b] & (set(ta) - {a}):
            return False
        if newcomers:
            for table, out, into in ((ta, a, b), (tb, b, a)):
                after = [k for k in table if k != out] + [into]
                if newcomers.intersection(after) and not regulars.intersection(after):
                    return False
        return True

    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                ta, tb = tables[i], tables[j]
                for x in range(len(ta)):
                    a = ta[x]
                    if a in stays:
                        continue
                    for y in range(len(tb)):
                        b = tb[y]
                        if b in stays:
                            continue
                        delta = (sum(pair(b, o) - pair(a, o) for o in ta if o != a)
                                 + sum(pair(a, o) - pair(b, o) for o in tb if o != b))
                        if odd[i] != odd[j]:
                            sign = 1 if odd[i] else -1
                            delta += sign * (costs.odd.get(b, 0) - costs.odd.get(a, 0))
                        if delta < 0 and allowed(a, b, ta, tb):
                            ta[x], tb[y] = b, a
                            a = b
                            improved = True
    return tables


__all__ = ["best_start", "descend", "draw_cost"]
