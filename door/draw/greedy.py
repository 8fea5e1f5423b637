"""Two simple draws: a random one (what drawing names from a hat gives) and a greedy one (what a
careful host with a notebook does: seat people one by one where they have met the fewest).
The greedy draw is also the solver's starting point."""

from __future__ import annotations

import random

from door.draw.checks import together_groups
from door.draw.costs import Costs
from door.draw.model import DrawRequest


def random_tables(keys, sizes, rng: random.Random) -> list[list[str]]:
    order = list(keys)
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    return tables


def greedy_tables(req: DrawRequest, costs: Costs, rng: random.Random,
                  base: int = 4) -> list[list[str]] | None:
    """Seat each group of people who sit together (most constrained first: fixed, then large,
    regulars before newcomers, the rest in random order) at the table with room where it adds
    the least cost, never breaking a rule. None when it paints itself into a corner (the
    solver then starts from nothing)."""
    keys = [p.key for p in req.players]
    newcomer = {p.key for p in req.players if p.newcomer}
    regular = {p.key for p in req.players if p.regular and not p.newcomer}
    fixed = dict(req.constraints.fixed)
    apart: dict[str, set[str]] = {k: set() for k in keys}
    for a, b in req.constraints.apart:
        apart[a].add(b)
        apart[b].add(a)
    groups = list({id(g): sorted(g) for g in together_groups(keys, req.constraints.together)
                   .values()}.values())
    rng.shuffle(groups)
    groups.sort(key=lambda g: (not any(k in fixed for k in g), -len(g),
                               all(k in newcomer for k in g)))
    tables: list[list[str]] = [[] for _ in req.sizes]
    for group in groups:
        best = None
        for index, size in enumerate(req.sizes):
            seated = tables[index]
            if len(seated) + len(group) > size:
                continue
            if any(fixed.get(k, index + 1) != index + 1 for k in group):
                continue
            if any(other in apart[k] for k in group for other in seated):
                continue
            needs_regular = any(k in newcomer for k in group) and not any(
                k in regular for k in (*group, *seated))
            if needs_regular and len(seated) + len(group) == size:
                continue
            odd = size != base
            added = (sum(costs.pair(k, other) for k in group for other in seated)
                     + (sum(costs.odd.get(k, 0) for k in group) if odd else 0))
            score = (needs_regular, added, len(seated))
            if best is None or score < best[0]:
                best = (score, index)
        if best is None:
            return None
        tables[best[1]].extend(group)
    for seated in tables:
        if any(k in newcomer for k in seated) and not any(k in regular for k in seated):
            return None
    return tables
