"""The standard shape with wild tiles (a goulash, 001): an exhaustive search, as such hands
are rare, placing jokers assigned to a tile and free wild tiles within the rule's limits.
"""

from __future__ import annotations

from .. import tiles as T
from .common import KIND_SIZE, N, part_order

# -- standard shape with wild tiles (goulash) ----------------------------------------------

def standard_wild(nat: tuple[int, ...], assigned: tuple[int, ...], free: int, need_pair: bool,
                   chows_left: int, limits: tuple[int, int, int], extra: bool,
                   wild_code: str) -> tuple[tuple, ...]:
    """Readings when wild tiles are held. Free wild tiles (a bare joker, a 2 bamboo used as
    wild) fill any set; a joker already standing for a tile is placed afterwards in a set of
    that tile. No set may exceed the rule's wild limit or be wild tiles only."""
    lim_pair, lim_pung, _ = limits
    if extra:
        lim_pair, lim_pung = lim_pair + 1, lim_pung + 1
    counts = [n + a for n, a in zip(nat, assigned, strict=True)]
    found: list[tuple] = []
    parts: list[tuple] = []  # (kind, index, free wild, natural positions)

    def walk(i: int, w: int, pair_done: bool, chows: int) -> None:
        while i < N and counts[i] == 0:
            i += 1
        if i == N:
            if w == 0 and (pair_done or not need_pair):
                found.append(tuple(parts))
            return
        c = counts[i]
        for k in (3, 2, 1):  # pung of k natural tiles and 3 - k wild
            if k <= c and 3 - k <= min(w, lim_pung):
                counts[i] -= k
                parts.append(("pung", i, 3 - k, (i,) * k))
                walk(i, w - (3 - k), pair_done, chows)
                parts.pop()
                counts[i] += k
        if need_pair and not pair_done:
            for k in (2, 1):
                if k <= c and 2 - k <= min(w, lim_pair):
                    counts[i] -= k
                    parts.append(("pair", i, 2 - k, (i,) * k))
                    walk(i, w - (2 - k), True, chows)
                    parts.pop()
                    counts[i] += k
        if chows < chows_left and i < T.FIRST_HONOUR:
            base = i - i % 9
            for start in (i - 2, i - 1, i):
                if start < base or start > base + 6:
                    continue
                for naturals in _chow_choices(start, i, counts):
                    wild = 3 - len(naturals)
                    if wild > min(w, lim_pung):
                        continue
                    for p in naturals:
                        counts[p] -= 1
                    parts.append(("chow", start, wild, naturals))
                    walk(i, w - wild, pair_done, chows + 1)
                    parts.pop()
                    for p in naturals:
                        counts[p] += 1

    walk(0, free, False, 0)
    out: dict[tuple, None] = {}
    for reading in found:
        placed = _place_assigned(reading, assigned, limits if not extra else None, lim_pair,
                                 lim_pung, wild_code)
        if placed is not None:
            out[placed] = None
    return tuple(out)


def _chow_choices(start: int, lowest: int, counts: list[int]):
    """Which positions of the chow at ``start`` take natural tiles: below ``lowest`` (already
    used up) a wild tile, at ``lowest`` the natural tile, above it either."""
    options: list[list[int]] = [[]]
    for p in (start, start + 1, start + 2):
        if p < lowest:
            continue
        if p == lowest:
            options = [o + [p] for o in options]
        elif counts[p]:
            options = options + [o + [p] for o in options]
    return [tuple(o) for o in options if lowest in o]


def _place_assigned(reading: tuple, assigned: tuple[int, ...], base_limits, lim_pair: int,
                    lim_pung: int, wild_code: str) -> tuple | None:
    """Turn a reading's natural positions held by assigned jokers into wild tiles, within each
    set's limit; None when they do not fit. With ``base_limits`` None (a wild tile won Mah
    Jong, 001) one pair or pung may hold one wild tile more than the usual limit."""
    left = list(assigned)
    sets = []
    for kind, i, free_wild, naturals in reading:
        limit = lim_pair if kind == "pair" else lim_pung
        wild = free_wild
        tiles = [wild_code] * free_wild
        for p in naturals:
            if left[p] and wild < limit and wild + 1 < KIND_SIZE[kind]:
                left[p] -= 1
                wild += 1
                tiles.append(T.JOKER + T.PLAYING[p])
            else:
                tiles.append(T.PLAYING[p])
        if wild >= KIND_SIZE[kind]:
            return None
        sets.append((kind, i, wild, T.sorted_tiles(tiles) if wild else ()))
    if any(left):
        return None
    if base_limits is None:
        usual = {"pair": lim_pair - 1, "pung": lim_pung - 1, "chow": lim_pung - 1}
        if sum(1 for kind, _, wild, _ in sets if wild > usual[kind]) > 1:
            return None
    return tuple(sorted(sets, key=part_order))
