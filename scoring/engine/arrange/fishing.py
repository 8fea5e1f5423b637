"""Fishing completions: for a losing hand one tile short of Mah Jong, each tile that completes
it with the complete readings it gives (004 Sheets 21-29), tried only with the tiles that can.
"""

from __future__ import annotations

from dataclasses import replace

from .. import tiles as T
from ..hand import Arrangement, Hand, Win
from ..rules.model import HouseRule
from ..validate import meld_naturals
from .common import HONOURS, SIZES, SUIT_BASES, N, make_set, set_tiles_of
from .search import arrangements_for, plain_hand, search_key
from .special import GATES, MINOR_COUNTS, plain_special_readings, special_possible
from .standard import combine_parts, honour_parts, standard_plain, suit_readings


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
    plain = plain_hand(hand, rule)
    if plain is not None:
        if pungs_only:
            return _plain_pung_completions(hand, rule, *plain)
        return _plain_completions(hand, rule, *plain)
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
            if not standard_plain(counts, need_pair, chows_left) and (
                    not special or limits[2] < 0 or not special_possible(counts)):
                continue
        code = T.PLAYING[i]
        found = arrangements_for(melds, tuple(sorted((*concealed, code))), True, code, False,
                                  mode, chows_left, limits, False)
        if found:
            result.append((code, list(found)))
    return result


def _with_declared(held: list[int], declared: tuple) -> list[int]:
    """The counts of the concealed tiles ``held`` and of the declared sets' tiles together:
    no tile can be added where four are already in the hand."""
    physical = list(held)
    for s in declared:
        for code in set_tiles_of(s):
            physical[T.INDEX[code]] += 1
    return physical


def _plain_completions(hand: Hand, rule: HouseRule, declared: tuple, held: list[int],
                       pair_declared: bool, chows_left: int
                       ) -> list[tuple[str, list[Arrangement]]]:
    """``completions`` of a plain hand: each tile's readings straight from the counts (drawn
    from the wall, so no set is exposed by the winning tile)."""
    physical = _with_declared(held, declared)
    lim_special = rule.scoring.wild_max_in_special
    need_pair = not pair_declared
    special = not declared and _special_one_tile_away(held) and lim_special >= 0
    # One tile changes one suit (or the honours): the others' readings are the held tiles'.
    honours = honour_parts(held, need_pair)
    ways = [suit_readings(tuple(held[base:base + 9]), base) for base in SUIT_BASES]
    broken = sum(1 for w in ways if not w)
    screen = _special_tiles(held) if special else None
    # A suit of 3k + 2 tiles reads with one pair, of 3k with none (3k + 1: not at all), so a
    # tile added to a suit leaves the right number of pairs only if the arithmetic says so.
    sums = [sum(held[base:base + 9]) for base in SUIT_BASES]
    pairs = [1 if n % 3 == 2 else 0 for n in sums]
    pairs_held = sum(pairs) + (honours[1] if honours is not None else 0)
    want_pairs = 1 if need_pair else 0
    # Whether a tile of each suit can complete the sets: the other suits read, the count
    # arithmetic right (an honour needs every suit to read).
    suit_can = [honours is not None and broken - (not ways[k]) == 0
                and (sums[k] + 1) % 3 != 1
                and pairs_held - pairs[k] + ((sums[k] + 1) % 3 == 2) == want_pairs
                for k in range(len(SUIT_BASES))]
    honour_can = not broken
    result = []
    for i in _candidates(held, bool(declared)):
        if physical[i] >= 4 or not ((honour_can if i >= T.FIRST_HONOUR else suit_can[i // 9])
                                    or (screen is not None and i in screen)):
            continue
        if i >= T.FIRST_HONOUR:
            held[i] += 1
            parts = honour_parts(held, need_pair) if not broken else None
            held[i] -= 1
            standard = combine_parts(*parts, ways, need_pair, chows_left) if parts else ()
        else:
            k = i // 9
            if not suit_can[k]:
                standard = ()
            else:
                base = SUIT_BASES[k]
                run = held[base:base + 9]
                run[i - base] += 1
                suit = suit_readings(tuple(run), base)
                standard = (combine_parts(*honours, [suit if j == k else w for j, w in
                                                enumerate(ways)], need_pair, chows_left)
                            if suit else ())
        # As the general search reads it: special shapes whenever nothing is declared; the
        # one-tile-away check only skips tiles that make nothing at all.
        specials = (not declared and (special or standard)
                    and (screen is None or i in screen))
        if not (standard or specials):
            continue
        found = [Arrangement("standard", declared + sets) for sets in standard]
        if specials:
            found += _specials_with(held, i, lim_special)
        if found:
            result.append((T.PLAYING[i], found))
    return result


def _specials_with(held: list[int], i: int, lim_special: int) -> list[Arrangement]:
    """The special shapes the concealed counts ``held`` make with one tile ``i`` added."""
    held[i] += 1
    counts = tuple(held)
    held[i] -= 1
    return [Arrangement(shape, tuple(map(make_set, parts)))
            for shape, parts in plain_special_readings(counts, lim_special)]


def _plain_pung_completions(hand: Hand, rule: HouseRule, declared: tuple, held: list[int],
                            pair_declared: bool, chows_left: int
                            ) -> list[tuple[str, list[Arrangement]]]:
    """``completions(pungs_only=True)`` of a plain hand: ``_plain_completions`` less its
    readings with a chow, in its order, trying only the few tiles that can give the rest."""
    physical = _with_declared(held, declared)
    lim_special = rule.scoring.wild_max_in_special
    need_pair = not pair_declared
    # Special shapes as _plain_completions tries them (see there): none when a set is
    # declared, and only the screen's tiles among the candidates.
    screen: set[int] = set()
    special = not declared and lim_special >= 0 and _special_one_tile_away(held)
    if special:
        screen = _special_tiles(held)
        # A tile next to a held one is a candidate; only the others need the full list.
        far = [i for i in screen if not any(map(held.__getitem__, _NEAR[i]))]
        if far:
            screen.difference_update(far)
            screen.update(set(far).intersection(_candidates(held, False)))
    pung = (_pung_tiles(held, need_pair) if not any(s.kind == "chow" for s in declared)
            else ())
    result = []
    if not (pung or screen):
        return result
    if pung:
        honours = honour_parts(held, need_pair)
        ways = [suit_readings(tuple(held[base:base + 9]), base) for base in SUIT_BASES]
    for i in sorted(screen.union(pung)):
        if physical[i] >= 4:
            continue
        # A tile that is not a pung tile has no reading without a chow.
        standard = _added_readings(i, held, honours, ways, need_pair, 0) if i in pung else ()
        found = [Arrangement("standard", declared + sets) for sets in standard]
        # _plain_completions also asks a tile with a standard reading when no tile can make
        # a special shape (_special_one_tile_away): none fits, so only the screen is asked.
        if i in screen:
            found += _specials_with(held, i, lim_special)
        if found:
            result.append((T.PLAYING[i], found))
    return result


def _pung_tiles(held: list[int], need_pair: bool) -> list[int]:
    """The tiles that, added to the concealed counts ``held``, can leave them pungs and at
    most the one pair wanted, with no chow: every count 0, 2 or 3 and as many 2s as pairs.
    One tile changes one count by one, so it mends the single 1 (into the pair) or turns a
    2 into a pung; a 4 cannot be mended."""
    if held.count(4):
        return []
    want = 1 if need_pair else 0
    twos = held.count(2)
    ones = held.count(1)
    if ones == 1:
        return [held.index(1)] if twos + 1 == want else []
    if ones == 0 and twos - 1 == want:
        return [i for i, n in enumerate(held) if n == 2]
    return []


def _added_readings(i: int, held: list[int], honours, ways: list, need_pair: bool,
                    chows_left: int) -> tuple:
    """The standard readings (sets of the concealed tiles) of ``held`` with tile ``i`` added,
    given the held tiles' honour parts and per-suit readings: only ``i``'s suit changes."""
    if i >= T.FIRST_HONOUR:
        if any(not w for w in ways):
            return ()
        held[i] += 1
        parts = honour_parts(held, need_pair)
        held[i] -= 1
        return combine_parts(*parts, ways, need_pair, chows_left) if parts else ()
    if honours is None:
        return ()
    k = i // 9
    base = SUIT_BASES[k]
    run = held[base:base + 9]
    run[i - base] += 1
    suit = suit_readings(tuple(run), base)
    if not suit:
        return ()
    return combine_parts(*honours, [suit if j == k else w for j, w in enumerate(ways)], need_pair,
                    chows_left)


def _special_tiles(held: list[int]) -> set[int]:
    """The tiles that, added to thirteen held tiles (no wild tiles), can pass
    ``special_possible``: each of its branches read from the held tiles, so that the tiles a
    fishing hand is tried with are ruled out without building the fourteen counts' checks.
    A tile left out is one for which ``special_possible`` is False."""
    allowed: set[int] = set()
    # Seven pairs: every count even, so the added tile must be the held tiles' only odd one.
    odd = [j for j, n in enumerate(held) if n & 1]
    if len(odd) == 1:
        allowed.add(odd[0])
    # Thirteen orphans: no minor tile and every major, so at most one major missing (then it
    # is the tile to add).
    if not any(MINOR_COUNTS(held)):
        missing = [j for j in T.MAJOR_INDICES if not held[j]]
        if not missing:
            allowed.update(T.MAJOR_INDICES)
        elif len(missing) == 1:
            allowed.add(missing[0])
    runs = [held[b:b + 9] for b in SUIT_BASES]
    honours = sum(held[T.FIRST_HONOUR:])
    # With honours (held, or the tile added) only a snake: four or more honours and a suit
    # with all nine numbers, held or the ninth added.
    full = any(all(run) for run in runs)
    if honours + 1 >= 4 and full:
        allowed.update(HONOURS)
    if honours >= 4:
        if full:
            allowed.update(range(T.FIRST_HONOUR))
        for b, run in zip(SUIT_BASES, runs, strict=True):
            if run.count(0) == 1:
                allowed.add(b + run.index(0))
    if honours:
        return allowed
    # Suits only, and a suit tile added: the suits' checks on the fourteen counts.
    sums = [sum(run) for run in runs]
    for k, base in enumerate(SUIT_BASES):
        after = list(sums)
        after[k] += 1
        used = [b for b, n in zip(SUIT_BASES, after, strict=True) if n]
        if len(used) == 1:  # gates of heaven: 1112345678999 and one more
            short = [(n, need - runs[k][n]) for n, need in enumerate(GATES)
                     if runs[k][n] < need]
            if not short:
                allowed.update(range(base, base + 9))
            elif len(short) == 1 and short[0][1] == 1:
                allowed.add(base + short[0][0])
        elif len(used) == 2:  # knitting: the same counts in both suits, seven each
            if after[used[0] // 9] != 7 or after[used[1] // 9] != 7:
                continue
            other = runs[(used[0] if used[1] == base else used[1]) // 9]
            diff = [n for n in range(9) if runs[k][n] != other[n]]
            if len(diff) == 1 and runs[k][diff[0]] + 1 == other[diff[0]]:
                allowed.add(base + diff[0])
        elif sorted(after) == [4, 5, 5]:  # triple knitting: one number uneven, n, n+1, n+1
            # Only the added tile's number changes: the numbers uneven in the held tiles stay
            # so, and that number is uneven or not after it.
            held_uneven = [m for m in range(9) if not runs[0][m] == runs[1][m] == runs[2][m]]
            if len(held_uneven) > 2:
                continue
            # A number even in the held tiles is uneven after the tile (n+1, n, n: not the
            # shape), so the tile's number must be one of the held tiles' uneven ones.
            for n in held_uneven:
                counts = [run[n] + (j == k) for j, run in enumerate(runs)]
                uneven = [sorted(counts)] if not counts[0] == counts[1] == counts[2] else []
                uneven += [sorted(run[m] for run in runs) for m in held_uneven if m != n]
                if len(uneven) == 1 and uneven[0][0] + 1 == uneven[0][1] == uneven[0][2]:
                    allowed.add(base + n)
    return allowed


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
