"""Published repeat-free schedules for a full house: 16, 32 or 64 players at tables of four.

A draw made one night at a time can reach a night after which no repeat-free night exists:
16 players meet everyone exactly once in five nights only along an affine plane of order 4,
and CP-SAT proved that a greedy third night often leaves no such fourth (bench/README.md,
"Table draw"). So for these sizes the draw also looks at a schedule fixed in advance, the
classical construction of resolvable designs from affine geometry: number the players
0..n-1 (n = 2**k) as vectors of GF(2)**k; each plane through the origin P = {0, u, v, u^v}
gives a night whose tables are P's cosets {x, x^u, x^v, x^u^v}. Two players x, y share a
table on P's night exactly when x^y is in P, so nights from planes that share only the
origin (a partial spread of lines of PG(k-1, 2)) never bring a pair together twice. There
are 5 such nights for 16 players (the affine plane AG(2, 4)), 9 for 32 and 21 for 64.

The players are numbered in the order of their keys, so a club whose same members come every
night walks down the same schedule without the draw storing anything: tonight's candidate is
the first of the schedule's nights that costs nothing against the season so far.
"""

from __future__ import annotations

from functools import cache

from door.draw.costs import Costs, draw_cost
from door.draw.model import Draw, DrawnTable, DrawRequest
from door.draw.quality import broken_rules

SIZES = {16: 4, 32: 5, 64: 6}  # players -> k, the dimension of GF(2)**k


def design_tables(req: DrawRequest, costs: Costs, base: int = 4) -> list[list[str]] | None:
    """The cheapest of the schedule's nights for tonight, if tonight is a full house of a size
    that has one (all tables of four) and that night keeps the host's rules; else None."""
    keys = sorted(p.key for p in req.players)
    if len(keys) not in SIZES or base != 4 or any(size != 4 for size in req.sizes):
        return None
    best, best_cost = None, None
    for plane in spread(SIZES[len(keys)]):
        tables = [[keys[i] for i in coset] for coset in cosets(plane, len(keys))]
        cost = draw_cost(tables, costs, base)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    if best is None or _breaks_rules(req, best):
        return None
    return best


def _breaks_rules(req: DrawRequest, tables: list[list[str]]) -> bool:
    drawn = Draw(tuple(DrawnTable(i, tuple(t)) for i, t in enumerate(tables, 1)), req.seed)
    return bool(broken_rules(req, drawn))


def cosets(plane: tuple[int, int, int], n: int) -> list[tuple[int, ...]]:
    """The tables of one plane's night: its cosets, each listed once, lowest player first."""
    u, v, w = plane
    seen: set[int] = set()
    tables = []
    for x in range(n):
        if x not in seen:
            table = (x, x ^ u, x ^ v, x ^ w)
            seen.update(table)
            tables.append(tuple(sorted(table)))
    return tables


@cache
def spread(k: int) -> tuple[tuple[int, int, int], ...]:
    """Planes of GF(2)**k through the origin sharing nothing else, as many as there can be
    (each as its three non-zero vectors): a depth-first search over the planes in a fixed
    order, so the schedule is the same on every machine. The bound floor((2**k - 1) / 3) is
    reached for even k (a spread) and is one more than reached for k = 5 (9 of 10, the
    largest partial spread of lines in PG(4, 2))."""
    planes = sorted({tuple(sorted((u, v, u ^ v)))
                     for u in range(1, 2 ** k) for v in range(u + 1, 2 ** k) if u ^ v > 0})
    target = (2 ** k - 1) // 3 - (1 if k % 2 else 0)
    best: list[tuple[int, int, int]] = []

    def extend(chosen: list, used: int, start: int) -> bool:
        nonlocal best
        if len(chosen) > len(best):
            best = list(chosen)
        if len(chosen) == target:
            return True
        for i in range(start, len(planes)):
            mask = sum(1 << x for x in planes[i])
            if not used & mask:
                chosen.append(planes[i])
                if extend(chosen, used | mask, i + 1):
                    return True
                chosen.pop()
        return False

    extend([], 0, 0)
    return tuple(best)  # type: ignore[arg-type]
