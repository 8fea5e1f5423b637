"""Losing hands: their best partial readings (sets found, the rest loose), with or without
wild tiles.
"""

from __future__ import annotations

from itertools import chain

from .. import tiles as T
from ..hand import Arrangement, Set
from .common import KIND_SIZE, N, make_set

# -- losing hands ---------------------------------------------------------------------------

_WORTH_RANK = [0 if i >= T.FIRST_HONOUR else 1 if i % 9 in (0, 8) else 2 for i in range(N)]
_BY_WORTH = sorted(range(N), key=lambda i: (_WORTH_RANK[i], -i))

def partial_readings(declared, nat, assigned, free, mode, wild_code, chows_left, limits,
                      distinct=False):
    """The best partial readings of a losing hand (BMJA: every hand is scored): pungs first,
    then pairs, the rest loose; a second reading also takes chows from the loose tiles. Wild
    tiles then turn pairs into pungs and loose tiles into pairs, within the rule's limits."""
    lim_pair, lim_pung, _ = limits
    held = [n + a for n, a in zip(nat, assigned, strict=True)] if any(assigned) else list(nat)
    # Pungs and pairs first, the same for both readings.
    first_parts = []
    for i in [i for i in range(N) if held[i] >= 2]:
        if held[i] >= 3:
            first_parts.append(("pung", i))
            held[i] -= 3
        if held[i] == 2:
            first_parts.append(("pair", i))
            held[i] = 0
    readings = []
    for with_chows in (False, True):
        rest = list(held)
        parts: list[list] = [[kind, i, 0] for kind, i in first_parts]
        if with_chows:
            made = 0
            for i in range(T.FIRST_HONOUR):
                while (made < chows_left and i % 9 <= 6 and rest[i] and rest[i + 1]
                       and rest[i + 2]):
                    for p in (i, i + 1, i + 2):
                        rest[p] -= 1
                    parts.append(["chow", i, 0])
                    made += 1
            if not made:
                continue
        w = free
        if mode is not None:
            # Wild tiles go where they are worth most: honours, then ones and nines.
            for part in sorted(parts, key=lambda p: _WORTH_RANK[p[1]]):
                if w and part[0] == "pair" and lim_pung >= 1:
                    part[0], part[2] = "pung", 1
                    w -= 1
            for i in _BY_WORTH:
                while w and rest[i] and lim_pair >= 1:
                    parts.append(["pair", i, 1])
                    rest[i] -= 1
                    w -= 1
        readings.append(_partial_arrangement(declared, parts, rest, nat, assigned, w, wild_code))
    return tuple(readings) if distinct else tuple(dict.fromkeys(readings))


def _partial_arrangement(declared, parts, rest, nat, assigned, free_left, wild_code):
    if not free_left and not any(assigned) and not any(p[2] for p in parts):
        # No wild tiles: sets straight from the shared objects, loose tiles in index order.
        found = tuple(make_set((kind, i, 0, ())) for kind, i, _ in
                      sorted(parts, key=lambda p: (p[1], p[0])))
        loose = tuple(chain.from_iterable((T.PLAYING[i],) * n for i, n in enumerate(rest) if n))
        return Arrangement("partial", tuple(declared) + found, loose)
    real = list(nat)
    jokers = list(assigned)

    def take(p: int) -> str:
        """Tile ``p`` from the hand: a natural one while any is left, then a joker for it."""
        if real[p]:
            real[p] -= 1
            return T.PLAYING[p]
        jokers[p] -= 1
        return T.JOKER + T.PLAYING[p]

    sets = []
    for kind, i, wild in sorted(parts, key=lambda p: (p[1], p[0])):
        members = [i] * (KIND_SIZE[kind] - wild) if kind != "chow" else [i, i + 1, i + 2]
        taken = [take(p) for p in members]
        held_tiles = [wild_code] * wild + taken
        wild += sum(tile != T.PLAYING[p] for tile, p in zip(taken, members, strict=True))
        sets.append(Set(kind, T.PLAYING[i], True, None, wild, T.sorted_tiles(held_tiles) if wild
                        else ()))
    left = [take(i) for i in range(N) for _ in range(rest[i])]
    left += [wild_code] * free_left
    return Arrangement("partial", tuple(declared) + tuple(sets), T.sorted_tiles(left))
