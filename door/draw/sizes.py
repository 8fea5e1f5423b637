"""How many tables of which size for the players who came.

Tables of the house rule's own size (four, nearly always) as many as possible; when the numbers
do not divide, tables of 3 or 5 as the club allows (001 "The game for 3 players" / "for 5
players": the club has a house rule for that size) and in the order it prefers. Fewest odd
tables first, then fewest of the size the club likes less, then fewest tables.
"""

from __future__ import annotations

from itertools import product

from door.draw.model import DrawError

SIZES = (3, 4, 5)


def plan_sizes(count: int, base: int = 4, allowed: tuple[int, ...] = (),
               prefer: tuple[int, ...] = (5, 3)) -> tuple[int, ...]:
    """Table sizes for ``count`` players, largest tables first (so table 1 is a full one).

    ``allowed``: the other sizes the club may seat (3, 5); ``prefer``: those sizes, the liked
    one first. Raises ``DrawError`` with what to do when no mix seats everyone."""
    sizes = sorted({base, *(s for s in allowed if s in SIZES)})
    if count <= 0:
        raise DrawError("Nobody is checked in yet: tick the players who came.")
    best: tuple | None = None
    limit = count // min(sizes) + 1
    for counts in product(range(limit), repeat=len(sizes)):
        if sum(n * s for n, s in zip(counts, sizes, strict=True)) != count:
            continue
        odd = sum(n for n, s in zip(counts, sizes, strict=True) if s != base)
        disliked = sum(n * (prefer.index(s) if s in prefer else len(prefer))
                       for n, s in zip(counts, sizes, strict=True) if s != base)
        key = (odd, disliked, sum(counts))
        if best is None or key < best[0]:
            best = (key, counts)
    if best is None:
        return _no_plan(count, base, sizes)
    plan = [s for n, s in zip(best[1], sizes, strict=True) for _ in range(n)]
    return tuple(sorted(plan, key=lambda s: (s != base, -s)))


def _no_plan(count: int, base: int, sizes: list[int]) -> tuple[int, ...]:
    others = [s for s in SIZES if s not in sizes]
    words = " or ".join(f"tables of {s}" for s in others)
    hint = (f" Allow {words} in the door settings (the club needs a house rule for that many "
            "players), or" if others else "")
    raise DrawError(
        f"{count} {'player does' if count == 1 else 'players do'} not make tables of "
        f"{' and '.join(map(str, sizes))}.{hint} check in or remove someone so they divide.")
