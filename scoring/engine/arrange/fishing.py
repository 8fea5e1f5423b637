"""Fishing completions: for a losing hand one tile short of Mah Jong, each tile that completes
it with the complete readings it gives (004 Sheets 21-29), tried only with the tiles that can.
"""

from __future__ import annotations

from dataclasses import replace

from .. import tiles as T
from ..hand import Arrangement, Hand, Win
from ..rules.model import HouseRule
from ..validate import meld_naturals
from .common import HONOURS, SIZES, SUIT_BASES, N
from .search import arrangements_for, search_key
from .special import GATES, special_possible
from .standard import read_standard


def completions(hand: Hand, rule: HouseRule, pungs_only: bool = False
                ) -> list[tuple[str, list[Arrangement]]]:
    """For a losing hand one tile short of Mah Jong: each tile that would complete it, with
    the complete readings it gives (what a fishing hand waits for, 004 Sheets 21-29).

    Each completion is read as drawn from the wall. Only tiles that could join the held tiles
    are tried: the same tile or a neighbour within two in its suit, and, when nothing is
    declared, the tiles a special shape could still want.

    With ``pungs_only`` the standard readings holding a chow are left out (and a tile left
    with none, dropped): what remains is exactly what a house rule whose fishing hands all
    need a pung hand or a special shape can use, found without reading the rest."""
    found = _general_completions(hand, rule)
    return without_chows(found) if pungs_only else found


def without_chows(found: list[tuple[str, list[Arrangement]]]
                  ) -> list[tuple[str, list[Arrangement]]]:
    """``completions`` less the standard readings that hold a chow (``pungs_only``)."""
    out = []
    for code, readings in found:
        kept = [a for a in readings
                if a.shape != "standard" or not any(s.kind == "chow" for s in a.sets)]
        if kept:
            out.append((code, kept))
    return out


def _general_completions(hand: Hand, rule: HouseRule) -> list[tuple[str, list[Arrangement]]]:
    """``completions`` by the general search, for any hand."""
    physical = [0] * N
    for meld in hand.melds:
        if meld.kind in SIZES and T.is_playing(meld.tile):
            for code in (meld.tiles or meld_naturals(meld)):
                i = T.INDEX.get(code)
                if i is not None:
                    physical[i] += 1
    held = [0] * N
    for code in hand.concealed:
        i = T.INDEX.get(code)
        if i is not None:
            physical[i] += 1
            held[i] += 1
    whole = replace(hand, mahjong=True, win=Win(None, "wall"))
    melds, concealed, _, _, _, mode, chows_left, limits, _ = search_key(whole, rule)
    wilds_held = len(concealed) != sum(held) or (mode == "b2" and held[T.INDEX["b2"]])
    candidates = range(N) if wilds_held else _candidates(held, bool(melds))
    need_pair = not any(m.kind == "pair" for m in melds)
    special = not melds and not wilds_held and _special_one_tile_away(held)
    result = []
    for i in candidates:
        if physical[i] >= 4:
            continue
        if not wilds_held:  # a quick look on the counts before building any reading
            held[i] += 1
            counts = tuple(held)
            held[i] -= 1
            # A special shape's pre-check only: the search below reads it when it passes.
            if not read_standard(counts, need_pair, chows_left) and (
                    not special or limits[2] < 0 or not special_possible(counts)):
                continue
        code = T.PLAYING[i]
        found = arrangements_for(melds, tuple(sorted((*concealed, code))), True, code, False,
                                  mode, chows_left, limits, False)
        if found:
            result.append((code, list(found)))
    return result


def _special_one_tile_away(held: list[int]) -> bool:
    """False when no one tile added to thirteen held tiles (no wild tiles) can make any
    special shape (see ``special_possible``); True means "try each tile"."""
    if sum(1 for n in held if n & 1) <= 1:  # seven pairs
        return True
    if not (any(held[1:8]) or any(held[10:17]) or any(held[19:26])):  # thirteen orphans
        return True
    honours = sum(held[T.FIRST_HONOUR:])
    if honours:  # only a snake: a run of nine and four or five honours
        return honours >= 3 and any(held[base:base + 9].count(0) <= 1 for base in SUIT_BASES)
    # Suit tiles only. A tile of a suit not yet held leaves it one tile, too few for any shape.
    sums = sorted(sum(held[base:base + 9]) for base in SUIT_BASES if any(held[base:base + 9]))
    if len(sums) == 1:  # gates of heaven: 1112345678999 and one more
        base = next(b for b in SUIT_BASES if any(held[b:b + 9]))
        return sum(max(0, need - held[base + n]) for n, need in enumerate(GATES)) <= 1
    if len(sums) == 2:  # knitting: seven tiles of each of two suits
        return sums == [6, 7]
    return sums in ([3, 5, 5], [4, 4, 5])  # triple knitting: 4, 5 and 5


def _candidates(held: list[int], declared: bool) -> list[int]:
    """Tiles that could complete a hand without wild tiles, in index order."""
    wanted: set[int] = set().union(*[_NEAR[i] for i, n in enumerate(held) if n])
    if not declared:
        if not (any(held[1:8]) or any(held[10:17]) or any(held[19:26])):
            wanted.update(T.MAJOR_INDICES)  # thirteen orphans
        if not any(held[T.FIRST_HONOUR:]):  # knitting, triple knitting: suits only
            for n in range(9):
                if held[n] or held[9 + n] or held[18 + n]:
                    wanted.update((n, 9 + n, 18 + n))
        for base in SUIT_BASES:  # snakes: a missing honour
            if held[base:base + 9].count(0) <= 1:
                wanted.update(HONOURS)
    return sorted(wanted)


# Each tile with its neighbours within two in its suit: the tiles that can join it in a set.
_NEAR = tuple(
    tuple(j for j in range(i - 2, i + 3) if i - i % 9 <= j < i - i % 9 + 9)
    if i < T.FIRST_HONOUR else (i,)
    for i in range(N))
