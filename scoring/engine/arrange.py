"""Every way to read a hand's tiles as sets: the arrangement search.

A Mah Jong hand is read as four sets and a pair (the standard shape) or as a special shape
whose tiles fit (seven pairs, thirteen orphans, knitting, triple knitting, snake, gates of
heaven); a losing hand as its best partial readings. The orchestrator scores each reading and
keeps the best, so this module only finds them; it never judges their worth.

The search runs on 34-entry count arrays. Without wild tiles each suit is decomposed on its own
(``_suit_ways``, memoised on the suit's nine counts) and the suits are combined; ``Set``
objects are built only for the final readings. A goulash with wild tiles takes a slower
exhaustive search, as such hands are rare. Whole results are memoised on the hand's tiles and
the few rule values that matter, so a repeated hand costs one dictionary look-up.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import chain, combinations, repeat
from operator import itemgetter

from . import memo
from . import tiles as T
from .hand import Arrangement, Hand, Meld, Set, Win
from .rules.model import HouseRule
from .validate import is_wild_in, meld_naturals, meld_wild_count, plain_validity, wild_mode

N = T.N_PLAYING
HONOURS = range(T.FIRST_HONOUR, N)
WINDS = tuple(T.INDEX[c] for c in T.WIND_CODES)
SUIT_BASES = (0, 9, 18)
# A set with this many wild tiles or more would be wild tiles only (001: never allowed).
_KIND_SIZE = {"pung": 3, "chow": 3, "pair": 2}


# -- public API -----------------------------------------------------------------------------

def arrangements(hand: Hand, rule: HouseRule) -> list[Arrangement]:
    """Every legal reading of a Mah Jong hand, or the best partial readings of a losing hand.

    An empty list means the Mah Jong hand's tiles make no complete hand under ``rule``.
    """
    plain = _plain_hand(hand, rule)
    if plain is not None:
        return _plain_arrangements(hand, rule, *plain)
    return _general_arrangements(hand, rule)


def _general_arrangements(hand: Hand, rule: HouseRule) -> list[Arrangement]:
    """``arrangements`` by the general search, for any hand (wild tiles, listed meld tiles)."""
    key = _search_key(hand, rule)
    try:
        return list(_arrangements_for(*key))
    except TypeError:  # a Hand built in code with lists cannot be a cache key
        return list(_arrangements_for.__wrapped__(*key))


def valid_plain_arrangements(hand: Hand, rule: HouseRule) -> list[Arrangement] | None:
    """``arrangements`` of a hand without wild tiles that ``validate_hand`` passes, read from
    the counts its checks make (one pass for both); None for any other hand, which then takes
    ``validate_hand`` and ``arrangements`` in turn."""
    s = rule.scoring
    if hand.goulash and s.wild_tiles is not None:
        return None
    checked = plain_validity(hand, rule, s.count_short_losing_hands)
    if checked is None:
        return None
    nat, chows, pair, declared = checked
    max_chows = s.goulash_max_chows if hand.goulash else s.max_chows
    chows_left = 4 if max_chows is None else max(0, max_chows - chows)
    return _plain_arrangements(hand, rule, declared, nat, pair, chows_left)


# -- the plain hand: no wild tiles, every tile a playing tile ---------------------------------
# Most hands. Read straight from the counts with the per-suit tables, with no memo of the
# whole hand (hashing a hand's melds costs more than reading it again).

def _plain_hand(hand: Hand, rule: HouseRule) -> tuple | None:
    """(declared sets, concealed counts, pair declared, chows left) of a hand without wild
    tiles whose melds and concealed tiles are all playing tiles; None for any other, which
    takes the general search."""
    s = rule.scoring
    if hand.goulash:
        if s.wild_tiles is not None:
            return None
        max_chows = s.goulash_max_chows
    else:
        max_chows = s.max_chows
    declared = []
    chows = 0
    pair = False
    table = _DECLARED
    for m in hand.melds:
        if m.tiles:
            return None
        d = table.get((m.kind, m.tile, m.concealed, m.added))
        if d is None:
            if m.kind not in _SIZES or m.tile not in T.INDEX:
                return None
            if len(table) > 4096:
                table.clear()
            d = table[m.kind, m.tile, m.concealed, m.added] = Set(
                m.kind, m.tile, m.concealed, m.how, 0, (), True)
        declared.append(d)
        kind = m.kind
        if kind == "chow":
            chows += 1
        elif kind == "pair":
            pair = True
    nat = [0] * N
    index = T.INDEX
    for code in hand.concealed:
        i = index.get(code)
        if i is None:
            return None
        nat[i] += 1
    chows_left = 4 if max_chows is None else max(0, max_chows - chows)
    return tuple(declared), nat, pair, chows_left


# A declared meld without wild tiles, by (kind, tile, concealed, added), to its shared Set.
_DECLARED: dict[tuple, Set] = memo.table("arrange: declared melds as sets")

_NO_TILES = (0,) * N


def _plain_arrangements(hand: Hand, rule: HouseRule, declared: tuple, nat: list[int],
                        pair_declared: bool, chows_left: int) -> list[Arrangement]:
    """``arrangements`` of a plain hand, in the general search's order."""
    lim_special = rule.scoring.wild_max_in_special
    if not hand.mahjong:
        return _plain_partial(declared, nat, chows_left)
    counts = tuple(nat)
    win = hand.win
    win_tile = win.tile if win is not None else None
    exposing = (win is not None and win.source in ("discard", "robbed_kong")
                and win_tile in hand.concealed)
    result = []
    # Not through _standard_plain's memo: a hand's counts rarely come again, and the per-suit
    # tables make reading them cheaper than keeping them.
    for found in _read_standard(counts, not pair_declared, chows_left):
        arrangement = Arrangement("standard", declared + found)
        if exposing:
            result.extend(_discard_readings(arrangement, len(declared), win_tile))
        else:
            result.append(arrangement)
    # Fourteen concealed tiles: a special shape's counts first (what _special_readings asks
    # first of tiles without wild ones).
    if not declared:  # _plain_special_readings asks _special_possible first
        for shape, parts in _plain_special_readings(counts, lim_special):
            result.append(Arrangement(shape, tuple(map(_make_set, parts))))
    return result


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
    plain = _plain_hand(hand, rule)
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
        if meld.kind in _SIZES and T.is_playing(meld.tile):
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
    melds, concealed, _, _, _, mode, chows_left, limits, _ = _search_key(whole, rule)
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
            if not _standard_plain(counts, need_pair, chows_left) and (
                    not special or limits[2] < 0 or not _special_possible(counts)):
                continue
        code = T.PLAYING[i]
        found = _arrangements_for(melds, tuple(sorted((*concealed, code))), True, code, False,
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
    honours = _honour_parts(held, need_pair)
    ways = [_suit_readings(tuple(held[base:base + 9]), base) for base in SUIT_BASES]
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
            parts = _honour_parts(held, need_pair) if not broken else None
            held[i] -= 1
            standard = _combine(*parts, ways, need_pair, chows_left) if parts else ()
        else:
            k = i // 9
            if not suit_can[k]:
                standard = ()
            else:
                base = SUIT_BASES[k]
                run = held[base:base + 9]
                run[i - base] += 1
                suit = _suit_readings(tuple(run), base)
                standard = (_combine(*honours, [suit if j == k else w for j, w in
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
    return [Arrangement(shape, tuple(map(_make_set, parts)))
            for shape, parts in _plain_special_readings(counts, lim_special)]


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
        honours = _honour_parts(held, need_pair)
        ways = [_suit_readings(tuple(held[base:base + 9]), base) for base in SUIT_BASES]
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
        parts = _honour_parts(held, need_pair)
        held[i] -= 1
        return _combine(*parts, ways, need_pair, chows_left) if parts else ()
    if honours is None:
        return ()
    k = i // 9
    base = SUIT_BASES[k]
    run = held[base:base + 9]
    run[i - base] += 1
    suit = _suit_readings(tuple(run), base)
    if not suit:
        return ()
    return _combine(*honours, [suit if j == k else w for j, w in enumerate(ways)], need_pair,
                    chows_left)


def _special_tiles(held: list[int]) -> set[int]:
    """The tiles that, added to thirteen held tiles (no wild tiles), can pass
    ``_special_possible``: each of its branches read from the held tiles, so that the tiles a
    fishing hand is tried with are ruled out without building the fourteen counts' checks.
    A tile left out is one for which ``_special_possible`` is False."""
    allowed: set[int] = set()
    # Seven pairs: every count even, so the added tile must be the held tiles' only odd one.
    odd = [j for j, n in enumerate(held) if n & 1]
    if len(odd) == 1:
        allowed.add(odd[0])
    # Thirteen orphans: no minor tile and every major, so at most one major missing (then it
    # is the tile to add).
    if not any(_MINOR_COUNTS(held)):
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
            short = [(n, need - runs[k][n]) for n, need in enumerate(_GATES)
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


def set_tiles_of(s: Set) -> tuple[str, ...]:
    """The tiles of a declared set without wild tiles."""
    return T.chow_tiles(s.tile) if s.kind == "chow" else (s.tile,) * _SIZES[s.kind]


def _special_one_tile_away(held: list[int]) -> bool:
    """False when no one tile added to thirteen held tiles (no wild tiles) can make any
    special shape (see ``_special_possible``); True means "try each tile"."""
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
        return sum(max(0, need - held[base + n]) for n, need in enumerate(_GATES)) <= 1
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


_MAJOR_SET = frozenset(T.MAJOR_INDICES)
_MINOR_INDICES = tuple(i for i in range(N) if i not in _MAJOR_SET)


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
            out.extend((s.tile,) * _SIZES[s.kind])
    out.extend(arrangement.loose)
    return T.sorted_tiles(out)


_SIZES = {"pung": 3, "kong": 4, "chow": 3, "pair": 2}


# -- the memoised search --------------------------------------------------------------------

def _search_key(hand: Hand, rule: HouseRule) -> tuple:
    s = rule.scoring
    mode = wild_mode(hand, rule)
    max_chows = s.goulash_max_chows if hand.goulash else s.max_chows
    declared_chows = sum(1 for m in hand.melds if m.kind == "chow")
    chows_left = 4 if max_chows is None else max(0, max_chows - declared_chows)
    win = hand.win if hand.mahjong else None
    win_tile = win.tile if win is not None else None
    from_discard = win is not None and win.source in ("discard", "robbed_kong")
    # 001: a wild tile drawn for Mah Jong may add one more wild tile to a pair or pung.
    extra = bool(s.wild_extra_on_wild_win and win_tile and not from_discard
                 and is_wild_in(win_tile, None, mode))
    limits = (s.wild_max_in_pair, s.wild_max_in_pung, s.wild_max_in_special)
    return (tuple(hand.melds), tuple(sorted(hand.concealed)), hand.mahjong, win_tile, from_discard,
            mode, chows_left, limits, extra)


@memo.cached(maxsize=1 << 16, kind=memo.HAND)
def _arrangements_for(melds: tuple[Meld, ...], concealed: tuple[str, ...], mahjong: bool,
                      win_tile: str | None, from_discard: bool, mode: str | None,
                      chows_left: int, limits: tuple[int, int, int],
                      extra: bool) -> tuple[Arrangement, ...]:
    declared = tuple(_declared_set(m, mode) for m in melds)
    nat = [0] * N
    assigned = [0] * N
    free = 0
    has_jokers = False
    index = T.INDEX
    for code in concealed:
        i = index.get(code)
        if i is not None:
            nat[i] += 1
        elif code == T.JOKER:
            free += 1
        else:
            stands = T.joker_stands_for(code)
            if stands is not None:
                assigned[index[stands]] += 1
                has_jokers = True
    wild_code = "b2" if mode == "b2" else T.JOKER
    need_pair = not any(m.kind == "pair" for m in melds)
    if not mahjong:
        if mode == "b2":  # a losing hand keeps its 2 bamboo as wild tiles
            free += nat[T.INDEX["b2"]]
            nat[T.INDEX["b2"]] = 0
        return _partial_readings(declared, nat, assigned, free, mode, wild_code, chows_left,
                                 limits)

    # In a b2 goulash each 2 bamboo may be wild or itself: try every split. A discarded 2
    # bamboo is only ever itself (004 Sheet 11 item 10).
    b2 = T.INDEX["b2"]
    own_b2 = nat[b2] - (1 if from_discard and win_tile == "b2" else 0)
    splits = range(max(0, own_b2) + 1) if mode == "b2" else (0,)
    readings: dict[tuple, None] = {}
    for k in splits:
        nat_k = list(nat)
        nat_k[b2] -= k
        free_k = free + k
        if free_k == 0 and not has_jokers:
            for found in _standard_plain(tuple(nat_k), need_pair, chows_left):
                readings[("standard", found)] = None
        elif mode is not None:
            for parts in _standard_wild(tuple(nat_k), tuple(assigned), free_k, need_pair,
                                        chows_left, limits, extra, wild_code):
                readings[("standard", tuple(_make_set(p) for p in parts))] = None
        if not melds:
            for shape, parts in _special_readings(tuple(nat_k), tuple(assigned), free_k,
                                                  wild_code, limits[2]):
                readings[(shape, tuple(_make_set(p) for p in parts))] = None

    result: dict[Arrangement, None] = {}
    exposing = from_discard and win_tile in concealed
    for shape, found in readings:
        arrangement = Arrangement(shape, declared + found)
        if exposing and shape == "standard":
            for variant in _discard_readings(arrangement, len(declared), win_tile):
                result[variant] = None
        else:
            result[arrangement] = None
    return tuple(result)


def _part_order(part: tuple) -> tuple:
    return (part[1], ("pung", "chow", "pair", "group").index(part[0]), part[3])


# Sets are immutable, so one object per distinct set serves every hand that holds it; building
# frozen dataclasses is the costliest step of an uncached search.
@memo.cached(maxsize=1 << 14)
def _make_set(part: tuple) -> Set:
    kind, i, wild, tiles = part
    return Set(kind, T.PLAYING[i], True, None, wild, tiles)


def _declared_set(meld: Meld, mode: str | None) -> Set:
    try:
        return _declared_set_cached(meld, mode)
    except TypeError:  # a Meld built in code with a list of tiles
        return _declared_set_cached.__wrapped__(meld, mode)


@memo.cached(maxsize=1 << 12)
def _declared_set_cached(meld: Meld, mode: str | None) -> Set:
    return Set(meld.kind, meld.tile, meld.concealed, meld.how, meld_wild_count(meld, mode),
               tuple(meld.tiles), True)


@memo.cached(maxsize=1 << 12)
def _exposed(s: Set) -> Set:
    return replace(s, concealed=False)


def _discard_readings(arrangement: Arrangement, n_declared: int, win_tile: str):
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


# -- standard shape without wild tiles ------------------------------------------------------

@memo.cached(maxsize=1 << 16)
def _suit_ways(c: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """Every way to use all of one suit's tiles (nine counts) as pungs, chows and at most one
    pair: (pung numbers, chow start numbers, pair number or -1), numbers 0-8."""
    if sum(c) % 3 == 1:
        return ()
    cc = list(c)
    pungs: list[int] = []
    chows: list[int] = []
    out: set[tuple] = set()

    def walk(i: int, pair: int) -> None:
        while i < 9 and cc[i] == 0:
            i += 1
        if i == 9:
            out.add((tuple(pungs), tuple(chows), pair))
            return
        if cc[i] >= 3:
            cc[i] -= 3
            pungs.append(i)
            walk(i, pair)
            pungs.pop()
            cc[i] += 3
        if pair < 0 and cc[i] >= 2:
            cc[i] -= 2
            walk(i, i)
            cc[i] += 2
        if i < 7 and cc[i + 1] and cc[i + 2]:
            cc[i] -= 1
            cc[i + 1] -= 1
            cc[i + 2] -= 1
            chows.append(i)
            walk(i, pair)
            chows.pop()
            cc[i] += 1
            cc[i + 1] += 1
            cc[i + 2] += 1

    walk(0, -1)
    return tuple(sorted(out))


@memo.cached(maxsize=1 << 16, kind=memo.HAND)
def _standard_plain(counts: tuple[int, ...], need_pair: bool, chows_left: int):
    return _read_standard(counts, need_pair, chows_left)


def _read_standard(counts: tuple[int, ...], need_pair: bool, chows_left: int):
    """Readings of concealed tiles (no wild tiles) as pungs, chows (at most ``chows_left``) and
    one pair if ``need_pair``: a tuple of readings, each a tuple of concealed ``Set``s."""
    honours = _honour_parts(counts, need_pair)
    if honours is None:
        return ()
    per_suit = []
    for base in SUIT_BASES:
        ways = _suit_readings(counts[base:base + 9], base)
        if not ways:
            return ()
        per_suit.append(ways)
    return _combine(*honours, per_suit, need_pair, chows_left)


def _honour_parts(counts, need_pair: bool) -> tuple[tuple[Set, ...], int] | None:
    """The honours' pungs and pair as sets in index order, and the number of pairs (0 or 1);
    None when the honours are not pungs and a pair."""
    sets = ()
    pairs = 0
    if not any(counts[T.FIRST_HONOUR:]):
        return sets, pairs
    for i in HONOURS:
        n = counts[i]
        if n == 3:
            sets += (_PLAIN_SETS[3 * i],)
        elif n == 2:
            if pairs or not need_pair:
                return None
            pairs = 1
            sets += (_PLAIN_SETS[3 * i + 2],)
        elif n:
            return None
    return sets, pairs


@memo.cached(maxsize=1 << 16)
def _suit_readings(c: tuple[int, ...], base: int) -> tuple[tuple[tuple[Set, ...], int, int], ...]:
    """``_suit_ways`` of the suit at ``base`` as (its sets, in _PLAIN_SETS' order; its number
    of chows; its number of pairs). A suit's sets all come before the next suit's and before
    the honours', so a reading is its suits' sets and the honours' put end to end."""
    out = []
    for pungs, chows, pair in _suit_ways(c):
        codes = [3 * (base + p) for p in pungs] + [3 * (base + p) + 1 for p in chows]
        if pair >= 0:
            codes.append(3 * (base + pair) + 2)
        codes.sort()
        out.append((tuple(map(_PLAIN_SETS.__getitem__, codes)), len(chows), int(pair >= 0)))
    return tuple(out)


def _combine(h_sets: tuple[Set, ...], h_pairs: int, per_suit: list, need_pair: bool,
             chows_left: int) -> tuple:
    """Every reading made of the honours' sets and one way of each suit."""
    out = []
    want_pairs = 1 if need_pair else 0
    ways_b, ways_c, ways_d = per_suit
    for b_sets, b_chows, b_pairs in ways_b:
        for c_sets, c_chows, c_pairs in ways_c:
            for d_sets, d_chows, d_pairs in ways_d:
                if (h_pairs + b_pairs + c_pairs + d_pairs != want_pairs
                        or b_chows + c_chows + d_chows > chows_left):
                    continue
                out.append(b_sets + c_sets + d_sets + h_sets)
    return tuple(out)


# Every concealed pung, chow and pair without wild tiles, by 3 x tile index + kind (pung 0,
# chow 1, pair 2), made once: so sorting the places sorts the sets as _part_order does.
_PLAIN_SETS = tuple(Set(kind, T.PLAYING[i], True, None, 0, ())
                    for i in range(N) for kind in ("pung", "chow", "pair"))


# -- standard shape with wild tiles (goulash) ----------------------------------------------

@memo.cached(maxsize=1 << 12, kind=memo.HAND)
def _standard_wild(nat: tuple[int, ...], assigned: tuple[int, ...], free: int, need_pair: bool,
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
    options = [[]]
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
            if left[p] and wild < limit and wild + 1 < _KIND_SIZE[kind]:
                left[p] -= 1
                wild += 1
                tiles.append(T.JOKER + T.PLAYING[p])
            else:
                tiles.append(T.PLAYING[p])
        if wild >= _KIND_SIZE[kind]:
            return None
        sets.append((kind, i, wild, T.sorted_tiles(tiles) if wild else ()))
    if any(left):
        return None
    if base_limits is None:
        usual = {"pair": lim_pair - 1, "pung": lim_pung - 1, "chow": lim_pung - 1}
        if sum(1 for kind, _, wild, _ in sets if wild > usual[kind]) > 1:
            return None
    return tuple(sorted(sets, key=_part_order))


# -- special shapes -------------------------------------------------------------------------

def _special_readings(nat: tuple[int, ...], assigned: tuple[int, ...], free: int,
                      wild_code: str, lim_special: int) -> list[tuple[str, tuple]]:
    """Special shapes the fourteen concealed tiles fit, with at most ``lim_special`` wild."""
    wild_total = free + sum(assigned)
    if wild_total > lim_special or sum(nat) + wild_total != 14:
        return []
    if not wild_total and not _special_possible(nat):
        return []
    held = [n + a for n, a in zip(nat, assigned, strict=True)] if wild_total else nat
    out = []
    if wild_total or not any(n & 1 for n in nat):
        pairs = _seven_pairs(nat, assigned, free, wild_code)
        if pairs is not None:
            out.append(("seven_pairs", pairs))
    for shape, template in _templates(held, wild_total):
        parts = _fill(template, nat, assigned, free, wild_code)
        if parts is not None:
            out.append((shape, parts))
    return out


def _plain_special_readings(nat: tuple[int, ...], lim_special: int) -> list[tuple[str, tuple]]:
    """``_special_readings(nat, _NO_TILES, 0, T.JOKER, lim_special)``: fourteen tiles with no
    wild tile, read without the wild tiles' bookkeeping (no joker to place, nothing free)."""
    if lim_special < 0 or sum(nat) != 14 or not _special_possible(nat):
        return []
    out = []
    if not any(map(_ODD, nat)):
        # _seven_pairs without wild tiles: each count's pairs, already in _part_order.
        out.append(("seven_pairs", tuple(part for i, n in enumerate(nat) if n
                                         for part in (_PAIR_PARTS[i],) * (n >> 1))))
    suits = [b for b in SUIT_BASES if any(nat[b:b + 9])]
    if len(suits) >= 2 and not any(nat[T.FIRST_HONOUR:]):
        # Suits only, two or three of them: of the templates only knitting (two suits) or
        # triple knitting (three) can be offered, and they are read straight off the counts.
        parts = _plain_knitting(nat, *suits) if len(suits) == 2 else _plain_triple(nat)
        if parts is not None:
            out.append(parts)
        return out
    held = None
    for shape, template in _templates(nat, 0):
        if held is None:  # the held tiles' indices, sorted, for _fill_plain
            held = list(chain.from_iterable(map(repeat, range(N), nat)))
        parts = _fill_plain(template, held)
        if parts is not None:
            out.append((shape, parts))
    return out


def _plain_knitting(nat, x: int, y: int) -> tuple[str, tuple] | None:
    """The knitting template of suits ``x`` and ``y`` filled without wild tiles: it fills
    exactly when both suits hold the same counts, seven tiles each."""
    run = nat[x:x + 9]
    if run != nat[y:y + 9] or sum(run) != 7:
        return None
    groups = _KNIT_PARTS[x, y]
    return "knitting", tuple(part for n in range(9) if run[n]
                             for part in (groups[n],) * run[n])


def _plain_triple(nat) -> tuple[str, tuple] | None:
    """The triple knitting template filled without wild tiles (see ``_triple_knitting``):
    one number ``m`` uneven, its pair in the two suits holding one more of it than the
    third; every template so offered fills."""
    bamboo, characters, dots = nat[0:9], nat[9:18], nat[18:27]
    uneven = [n for n in range(9) if not bamboo[n] == characters[n] == dots[n]]
    if len(uneven) != 1:
        return None
    m = uneven[0]
    missing = _pairless_suit(nat, m)
    if not missing:
        return None
    g = list(map(max, bamboo, characters, dots))
    g[m] = nat[SUIT_BASES[missing[0]] + m]
    if sum(g) != 4:
        return None
    pair_suits = [b for k, b in enumerate(SUIT_BASES) if k != missing[0]]
    pair = ("group", pair_suits[0] + m, 0, _CODES[pair_suits[0] + m, pair_suits[1] + m])
    return "triple_knitting", (*(part for n in range(9) if g[n]
                                 for part in (_TRIPLE_PARTS[n],) * g[n]), pair)


_PAIR_PARTS = tuple(("pair", i, 0, ()) for i in range(N))
_ODD = (1).__and__


def _fill_plain(template, held: list[int]) -> tuple | None:
    """``_fill`` with no wild tile, given the held tiles' indices sorted: a template fills
    exactly when its members are the held tiles (each member a held tile, each held tile
    used), compared as sorted lists."""
    if sorted(chain.from_iterable(part[2] for part in template)) != held:
        return None
    return tuple((kind, i, 0, _CODES.get(members) or tuple(map(T.PLAYING.__getitem__, members)))
                 if kind == "group" else (kind, i, 0, ()) for kind, i, members in template)


def _special_possible(nat) -> bool:
    """False when fourteen tiles without wild tiles cannot fit any special shape: the few
    counts each shape needs, so that most ordinary hands (and most tiles a fishing hand is
    tried with) skip the templates. True means "try the templates"."""
    # Counts and slices, so that the scan runs in C.
    if not (nat.count(1) or nat.count(3)):  # seven pairs
        return True
    if not (any(nat[1:8]) or any(nat[10:17]) or any(nat[19:26])):
        # Thirteen orphans needs every major tile (one of them twice); without them, ones,
        # nines and honours can still be a knitting, read by the checks below.
        if all(_MAJOR_COUNTS(nat)):
            return True
    honours = sum(nat[T.FIRST_HONOUR:])
    if honours:  # only a snake mixes honours with minor tiles: a run of nine, four or five
        return honours >= 4 and any(all(nat[base:base + 9]) for base in SUIT_BASES)
    bamboo, characters, dots = nat[0:9], nat[9:18], nat[18:27]
    sums = (sum(bamboo), sum(characters), sum(dots))
    suits = [base for base, total in zip(SUIT_BASES, sums, strict=True) if total]
    if len(suits) == 1:  # gates of heaven: 1112345678999 and one more
        base = suits[0]
        return all(nat[base + n] >= need for n, need in enumerate(_GATES))
    if len(suits) == 2:  # knitting: the same seven numbers in each suit
        x, y = suits
        return nat[x:x + 9] == nat[y:y + 9] and sum(nat[x:x + 9]) == 7
    # triple knitting: four numbers in all three suits and a pair of one number in two, so
    # 4, 5 and 5 tiles of the suits; every number as often in all three but the pair's
    if sorted(sums) != [4, 5, 5]:
        return False
    uneven = [n for n in range(9) if not bamboo[n] == characters[n] == dots[n]]
    if len(uneven) != 1:
        return False
    low, mid, high = sorted(nat[base + uneven[0]] for base in SUIT_BASES)
    return low + 1 == mid == high


_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_MAJOR_COUNTS = itemgetter(*T.MAJOR_INDICES)
_MINOR_COUNTS = itemgetter(*_MINOR_INDICES)


def _seven_pairs(nat, assigned, free, wild_code):
    """Seven pairs, repeats allowed. A joker standing for a tile pairs with a real one; a free
    wild tile pairs with a single, and spare wild tiles split natural pairs in two, as two
    wild tiles never make a pair on their own."""
    parts = []
    singles = []
    for i in range(N):
        r, q = nat[i], assigned[i]
        if not r and not q:
            continue
        if q > r:
            return None
        code = T.PLAYING[i]
        parts += [("pair", i, 1, T.sorted_tiles((code, T.JOKER + code)))] * q
        r -= q
        parts += [("pair", i, 0, ())] * (r // 2)
        if r % 2:
            singles.append(i)
    spare = free - len(singles)
    if spare < 0 or spare % 2:
        return None
    parts += [("pair", i, 1, T.sorted_tiles((T.PLAYING[i], wild_code))) for i in singles]
    splits = spare // 2
    for j, part in enumerate(list(parts)):
        if splits == 0:
            break
        if part[2] == 0:
            half = ("pair", part[1], 1, T.sorted_tiles((T.PLAYING[part[1]], wild_code)))
            parts[j] = half
            parts.append(half)
            splits -= 1
    if splits:
        return None
    return tuple(sorted(parts, key=_part_order))


def _group(i: int, members) -> tuple:
    return ("group", i, tuple(members))


def _template_members() -> set[tuple[int, ...]]:
    """The members of every group a template without wild tiles can hold (see _templates)."""
    out = {(i,) for i in range(N)} | {T.MAJOR_INDICES, WINDS}
    for x, y in combinations(SUIT_BASES, 2):
        out.update((x + n, y + n) for n in range(9))
    out.update((n, 9 + n, 18 + n) for n in range(9))
    for base in SUIT_BASES:
        out.update({tuple(range(base, base + 9)), tuple(range(base + 1, base + 8))})
    out.update(combinations(HONOURS, 5))
    return out


# Those groups' tile codes: a fixed table made once, read by _fill_plain.
_CODES = {members: tuple(T.PLAYING[p] for p in members) for members in _template_members()}
# Knitting's parts by its two suits and number, triple knitting's by number, filled.
_KNIT_PARTS = {(x, y): tuple(("group", x + n, 0, _CODES[x + n, y + n]) for n in range(9))
               for x, y in combinations(SUIT_BASES, 2)}
_TRIPLE_PARTS = tuple(("group", n, 0, _CODES[n, 9 + n, 18 + n]) for n in range(9))


def _templates(held: list[int], wild_total: int):
    """Candidate special shapes as (shape, parts), each part (kind, index, member indices).

    Without wild tiles the counts pin down the few candidates; with wild tiles every variant
    that the held tiles do not rule out is tried."""
    # Slices, sums and item getters, so that the scans run in C.
    total_honours = sum(held[T.FIRST_HONOUR:])
    suits_used = [b for b in SUIT_BASES if any(held[b:b + 9])]
    # Thirteen orphans: one of each major tile and a fourteenth major (004 Sheet 22).
    majors = T.MAJOR_INDICES
    # Without wild tiles a template fills only if every major is held (thirteen orphans) or
    # four or more honours are (every snake): the others are not offered.
    if not any(_MINOR_COUNTS(held)) and (wild_total or all(_MAJOR_COUNTS(held))):
        for dup in majors:
            if wild_total or held[dup] == 2:
                yield "thirteen_orphans", (_group(majors[0], majors), _group(dup, (dup,)))
    if len(suits_used) == 1 and total_honours == 0 or (not suits_used and wild_total):
        for base in suits_used or SUIT_BASES:
            yield from _gates(held, base, wild_total)
    if wild_total or total_honours >= 4:
        for base in SUIT_BASES:
            if wild_total or all(held[base:base + 9]):
                yield from _snakes(held, base, wild_total)
    # Knitting: seven tiles in each of two suits (one suit alone is fourteen: no knitting).
    if total_honours == 0 and (len(suits_used) == 2 or wild_total and len(suits_used) < 2):
        for x, y in combinations(SUIT_BASES, 2):
            if set(suits_used) <= {x, y}:
                k = [max(held[x + n], held[y + n]) for n in range(9)]
                if sum(k) == 7:
                    yield "knitting", tuple(_group(x + n, (x + n, y + n))
                                            for n in range(9) for _ in range(k[n]))
    if total_honours == 0 and (wild_total or len(suits_used) == 3):
        yield from _triple_knitting(held, wild_total)


def _gates(held, base, wild_total):
    """Gates of heaven: 111 2345678 999 and one more of the suit, all concealed (Sheet 27)."""
    for extra in range(9):
        if not wild_total and held[base + extra] != 1 + (extra in (0, 8)) * 2 + 1:
            continue
        yield "gates_of_heaven", (
            ("pung", base, (base,) * 3),
            _group(base + 1, range(base + 1, base + 8)),
            ("pung", base + 8, (base + 8,) * 3),
            _group(base + extra, (base + extra,)),
        )


_DRAGONS = tuple(T.INDEX[c] for c in T.DRAGON_CODES)


def _snakes(held, base, wild_total):
    """The run 1-9 of one suit with five more tiles: all four winds and one tile of the suit
    (wriggling snake, 004 Sheet 23), five different honours (little snake, 003), or a pung and
    a pair of honours (great snake, 003)."""
    if not wild_total and not _snake_honours(held[T.FIRST_HONOUR:]):
        return  # none of the three snakes' honours: nothing below can be yielded
    run = _group(base, range(base, base + 9))
    winds = _group(WINDS[0], WINDS)
    rest = list(held)
    for n in range(9):
        rest[base + n] = max(0, rest[base + n] - 1)
    if not wild_total:  # the five tiles left name the snake, if any
        if any(rest[i] for i in range(T.FIRST_HONOUR) if not base <= i < base + 9):
            return
        extra = [base + n for n in range(9) for _ in range(rest[base + n])]
        honours = {i: rest[i] for i in HONOURS if rest[i]}
        if len(extra) == 1 and list(honours) == list(WINDS) and set(honours.values()) == {1}:
            yield "snake", (run, winds, _group(extra[0], extra))
        elif not extra and len(honours) == 5 and set(honours.values()) == {1}:
            five = tuple(honours)
            yield "snake", (run, _group(five[0], five))
        elif not extra and sorted(honours.values()) == [2, 3]:
            p, q = sorted(honours, key=honours.__getitem__, reverse=True)
            yield "snake", (run, ("pung", p, (p,) * 3), ("pair", q, (q, q)))
        return
    for n in range(9):
        yield "snake", (run, winds, _group(base + n, (base + n,)))
    for five in combinations(HONOURS, 5):
        yield "snake", (run, _group(five[0], five))
    for p in HONOURS:
        for q in HONOURS:
            if q != p:
                yield "snake", (run, ("pung", p, (p,) * 3), ("pair", q, (q, q)))


def _snake_honours(honours) -> bool:
    """Whether a snake without wild tiles can hold these honours' counts (winds then
    dragons): the four winds once each (and one more tile of the suit), five honours once
    each, or a pung and a pair of honours."""
    total = sum(honours)
    if total == 4:
        return honours[0] == honours[1] == honours[2] == honours[3] == 1
    if total != 5:
        return False
    held = sorted(n for n in honours if n)
    return held == [1, 1, 1, 1, 1] or held == [2, 3]


def _triple_knitting(held, wild_total):
    """Four groups of one number in all three suits, and a pair of one number in two suits
    (004 Sheet 24; 003 "Triple Knitting")."""
    uneven = [n for n in range(9) if not held[n] == held[9 + n] == held[18 + n]]
    if not wild_total and len(uneven) != 1:
        return
    for m in (range(9) if wild_total else uneven):
        # Only number m loses the pair's tiles; any other number's group count is the most
        # held of it in one suit.
        g = [max(held[n], held[9 + n], held[18 + n]) for n in range(9)]
        others = sum(g) - g[m]
        for missing in (range(3) if wild_total else _pairless_suit(held, m)):
            pair_suits = [b for k, b in enumerate(SUIT_BASES) if k != missing]
            g[m] = max(max(0, held[b + m] - 1) if b in pair_suits else held[b + m]
                       for b in SUIT_BASES)
            if others + g[m] != 4:
                continue
            pair = _group(pair_suits[0] + m, (pair_suits[0] + m, pair_suits[1] + m))
            groups = tuple(_group(n, (n, 9 + n, 18 + n)) for n in range(9) for _ in range(g[n]))
            yield "triple_knitting", (*groups, pair)


def _pairless_suit(held, m: int) -> tuple[int, ...]:
    """Without wild tiles, the suit (0, 1, 2) a triple knitting's pair of number ``m`` can
    leave out: the one holding one tile fewer of ``m`` than the other two, which hold as
    many; with any other counts no template fills (its groups take as many of ``m`` from
    each suit, its pair one more from two)."""
    a, b, c = held[m], held[9 + m], held[18 + m]
    if b == c == a + 1:
        return (0,)
    if a == c == b + 1:
        return (1,)
    if a == b == c + 1:
        return (2,)
    return ()


def _fill(template, nat, assigned, free, wild_code) -> tuple | None:
    """Place the held tiles in a special shape's parts: real tiles first, then jokers standing
    for the tile, then free wild tiles. None unless every tile is used and no set of two or
    more tiles is wild tiles only."""
    real = list(nat)
    jokers = list(assigned)
    f = free
    parts = []
    for kind, i, members in template:
        tiles = []
        wild = 0
        for p in members:
            if real[p]:
                real[p] -= 1
                tiles.append(T.PLAYING[p])
            elif jokers[p]:
                jokers[p] -= 1
                tiles.append(T.JOKER + T.PLAYING[p])
                wild += 1
            elif f:
                f -= 1
                # A group records what each place stands for: a wild tile as the joker
                # standing for that tile, so the group reads as the special hand it makes.
                tiles.append(T.JOKER + T.PLAYING[p] if kind == "group" else wild_code)
                wild += 1
            else:
                return None
        if wild and wild == len(members) and len(members) > 1:
            return None
        if kind == "group":
            parts.append((kind, i, wild, tuple(tiles)))
        else:
            parts.append((kind, i, wild, T.sorted_tiles(tiles) if wild else ()))
    if f or any(real) or any(jokers):
        return None
    return tuple(parts)


# -- losing hands ---------------------------------------------------------------------------

_WORTH_RANK = [0 if i >= T.FIRST_HONOUR else 1 if i % 9 in (0, 8) else 2 for i in range(N)]
_BY_WORTH = sorted(range(N), key=lambda i: (_WORTH_RANK[i], -i))

def _partial_readings(declared, nat, assigned, free, mode, wild_code, chows_left, limits,
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
        parts = [[kind, i, 0] for kind, i in first_parts]
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


def _plain_partial(declared: tuple, held: list[int], chows_left: int) -> list[Arrangement]:
    """``_partial_readings`` without wild tiles: pungs, then pairs, the rest loose; and, when
    a chow can be taken from the loose tiles, a second reading with chows (so the two always
    differ). ``held`` is used up."""
    first = []  # each set as its place in _PARTIAL_SETS
    for i, n in enumerate(held):
        if n >= 2:
            if n >= 3:
                first.append(3 * i + 2)
                n -= 3
            if n == 2:
                first.append(3 * i + 1)
                n = 0
            held[i] = n
    readings = [_plain_partial_reading(declared, list(first), held)]
    if chows_left:
        made = 0
        codes = first
        for i in _CHOW_STARTS:
            while held[i] and held[i + 1] and held[i + 2]:
                held[i] -= 1
                held[i + 1] -= 1
                held[i + 2] -= 1
                codes.append(3 * i)
                made += 1
                if made == chows_left:
                    break
            if made == chows_left:
                break
        if made:
            readings.append(_plain_partial_reading(declared, codes, held))
    return readings


_CHOW_STARTS = tuple(i for i in range(T.FIRST_HONOUR) if i % 9 <= 6)


def _plain_partial_reading(declared: tuple, codes: list[int], rest: list[int]) -> Arrangement:
    codes.sort()
    loose = tuple(chain.from_iterable(map(repeat, T.PLAYING, rest)))
    return Arrangement("partial",
                           declared + tuple(map(_PARTIAL_SETS.__getitem__, codes)), loose)


# Every concealed chow, pair and pung without wild tiles, by 3 x tile index + kind (chow 0,
# pair 1, pung 2): a losing hand's sets are in order of tile, then kind by name.
_PARTIAL_SETS = tuple(Set(kind, T.PLAYING[i], True, None, 0, ())
                      for i in range(N) for kind in ("chow", "pair", "pung"))


def _partial_arrangement(declared, parts, rest, nat, assigned, free_left, wild_code):
    if not free_left and not any(assigned) and not any(p[2] for p in parts):
        # No wild tiles: sets straight from the shared objects, loose tiles in index order.
        found = tuple(_make_set((kind, i, 0, ())) for kind, i, _ in
                      sorted(parts, key=lambda p: (p[1], p[0])))
        loose = tuple(chain.from_iterable((T.PLAYING[i],) * n for i, n in enumerate(rest) if n))
        return Arrangement("partial", tuple(declared) + found, loose)
    real = list(nat)
    jokers = list(assigned)
    sets = []
    for kind, i, wild in sorted(parts, key=lambda p: (p[1], p[0])):
        members = [i] * (_KIND_SIZE[kind] - wild) if kind != "chow" else [i, i + 1, i + 2]
        tiles = [wild_code] * wild
        for p in members:
            if real[p]:
                real[p] -= 1
                tiles.append(T.PLAYING[p])
            else:
                jokers[p] -= 1
                tiles.append(T.JOKER + T.PLAYING[p])
                wild += 1
        sets.append(Set(kind, T.PLAYING[i], True, None, wild, T.sorted_tiles(tiles) if wild
                        else ()))
    loose = []
    for i in range(N):
        for _ in range(rest[i]):
            if real[i]:
                real[i] -= 1
                loose.append(T.PLAYING[i])
            else:
                jokers[i] -= 1
                loose.append(T.JOKER + T.PLAYING[i])
    loose += [wild_code] * free_left
    return Arrangement("partial", tuple(declared) + tuple(sets), T.sorted_tiles(loose))
