"""Who starts as which wind at a drawn table.

East goes to the player at the table who has started as East least often against their share
this season (ties by the seed). The others sit in an order drawn by the seed, except that a
newcomer gets a regular beside them (seats are round the table in wind order, so East's
neighbours are South and North). At a table of five the fifth seat (out for the first hand)
also goes by the seed, never to a newcomer when someone else can take it.
"""

from __future__ import annotations

import random
from itertools import permutations

from door.draw.season import Season


def seat_order(members, season: Season, rng: random.Random, newcomers=frozenset(),
               regulars=frozenset()) -> tuple[str, ...]:
    members = sorted(members)
    tiebreak = {k: rng.random() for k in members}
    east = min(members, key=lambda k: (round(season.east_excess(k), 6), tiebreak[k]))
    rest = [k for k in members if k != east]
    rng.shuffle(rest)
    if not any(k in newcomers for k in members):
        return (east, *rest)
    size = len(members)
    best, best_score = None, None
    # At most 4! orders: try them all, keep the first that serves the newcomers best.
    for order in permutations(rest):
        seats = (east, *order)
        score = _unhelped(seats, size, newcomers, regulars)
        if best_score is None or score < best_score:
            best, best_score = seats, score
        if score == (0, 0):
            break
    return best


def _unhelped(seats, size: int, newcomers, regulars) -> tuple[int, int]:
    """(newcomers with no regular beside them, newcomers out for the first hand)."""
    ring = seats[:4] if size == 5 else seats
    alone = 0
    for i, key in enumerate(ring):
        if key in newcomers:
            beside = (ring[i - 1], ring[(i + 1) % len(ring)])
            alone += not any(b in regulars and b not in newcomers for b in beside)
    out = int(size == 5 and seats[4] in newcomers)
    return alone, out
