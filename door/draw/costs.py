"""Tonight's costs in whole numbers (CP-SAT works in integers): what it costs each pair to share
a table, and each player to sit at a table of 3 or 5.

Every draw with the same table sizes brings the same number of pairs together and fills the same
number of odd seats, so adding one constant to every pair's (or every player's) cost changes no
choice: the costs are shifted so the cheapest is 0, and a pair that costs 0 needs no variable in
the solver at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from door.draw.model import DrawRequest
from door.draw.season import Pair, Season, pair

SCALE = 100  # one pair meeting once more than its share


@dataclass(frozen=True)
class Costs:
    pairs: dict[Pair, int]  # only pairs that cost more than the cheapest
    odd: dict[str, int]  # only players who cost more than the cheapest at an odd table

    def pair(self, a: str, b: str) -> int:
        return self.pairs.get(pair(a, b), 0)

    def of_table(self, members, odd: bool) -> int:
        members = list(members)
        total = sum(self.pair(a, b) for i, a in enumerate(members) for b in members[i + 1:])
        if odd:
            total += sum(self.odd.get(k, 0) for k in members)
        return total


def costs_of(req: DrawRequest, season: Season) -> Costs:
    keys = [p.key for p in req.players]
    raw = {pair(a, b): round(SCALE * season.pair_excess(a, b))
           for i, a in enumerate(keys) for b in keys[i + 1:]}
    low = min(raw.values(), default=0)
    pairs = {k: v - low for k, v in raw.items() if v > low}
    odd_raw = {k: round(SCALE * req.weights.odd_table * season.odd_excess(k)) for k in keys}
    odd_low = min(odd_raw.values(), default=0)
    odd = {k: v - odd_low for k, v in odd_raw.items() if v > odd_low}
    return Costs(pairs, odd)


def draw_cost(tables, costs: Costs, base: int = 4) -> int:
    return sum(costs.of_table(t, len(t) != base) for t in tables)
