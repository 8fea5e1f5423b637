"""The arrangement search's shared parts: tile indices, how a part (kind, index, wild tiles,
tiles) becomes a shared ``Set``, declared melds as sets, a discard's exposed readings, and the
tiles of a set or an arrangement.
"""

from __future__ import annotations

from dataclasses import replace

from .. import tiles as T
from ..hand import Arrangement, Meld, Set
from ..validate import meld_wild_count

N = T.N_PLAYING
HONOURS = range(T.FIRST_HONOUR, N)
WINDS = tuple(T.INDEX[c] for c in T.WIND_CODES)
SUIT_BASES = (0, 9, 18)
# A set with this many wild tiles or more would be wild tiles only (001: never allowed).
KIND_SIZE = {"pung": 3, "chow": 3, "pair": 2}


def set_tiles_of(s: Set) -> tuple[str, ...]:
    """The tiles of a declared set without wild tiles."""
    return T.chow_tiles(s.tile) if s.kind == "chow" else (s.tile,) * SIZES[s.kind]


def arrangement_tiles(arrangement: Arrangement, mode: str | None = None) -> tuple[str, ...]:
    """The tiles an arrangement uses, sorted: as entered, except that a wild tile in a special
    shape's group is written as the joker standing for its tile (``jdw``); with ``mode`` "b2"
    such a joker is given back as the 2 bamboo it physically is."""
    out: list[str] = []
    for s in arrangement.sets:
        if s.kind == "group" and s.wild and mode == "b2":
            out.extend("b2" if T.is_joker(t) else t for t in s.tiles)
        elif s.tiles:
            out.extend(s.tiles)
        elif s.kind == "chow":
            out.extend(T.chow_tiles(s.tile))
        else:
            out.extend((s.tile,) * SIZES[s.kind])
    out.extend(arrangement.loose)
    return T.sorted_tiles(out)


SIZES = {"pung": 3, "kong": 4, "chow": 3, "pair": 2}


def part_order(part: tuple) -> tuple:
    return (part[1], ("pung", "chow", "pair", "group").index(part[0]), part[3])


def make_set(part: tuple) -> Set:
    kind, i, wild, tiles = part
    return Set(kind, T.PLAYING[i], True, None, wild, tiles)


def declared_set(meld: Meld, mode: str | None) -> Set:
    return Set(meld.kind, meld.tile, meld.concealed, meld.how, meld_wild_count(meld, mode),
               tuple(meld.tiles), True)


def _exposed(s: Set) -> Set:
    return replace(s, concealed=False)


def discard_readings(arrangement: Arrangement, n_declared: int, win_tile: str):
    """A set completed by a discard counts as exposed (004 Sheet 14); the pair stays concealed.

    When the winning tile could have completed several sets, each is a separate reading.
    """
    sets = arrangement.sets
    keep_as_is = False
    seen: set[tuple[str, str]] = set()
    variants = []
    for j in range(n_declared, len(sets)):
        s = sets[j]
        if not _set_holds(s, win_tile):
            continue
        if s.kind == "pair":
            keep_as_is = True
        elif (s.kind, s.tile) not in seen:
            seen.add((s.kind, s.tile))
            changed = list(sets)
            changed[j] = _exposed(s)
            variants.append(Arrangement(arrangement.shape, tuple(changed), arrangement.loose))
    if keep_as_is or not variants:
        variants.insert(0, arrangement)
    return variants


def _set_holds(s: Set, code: str) -> bool:
    if s.tiles:
        return code in s.tiles
    if s.kind == "chow":
        return code in T.chow_tiles(s.tile)
    return s.tile == code
