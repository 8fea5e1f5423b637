"""The standard shape (four sets and a pair) without wild tiles: each suit decomposed on its
own from its nine counts and the suits combined.
"""

from __future__ import annotations

from .. import memo
from .. import tiles as T
from ..hand import Set
from .common import HONOURS, SUIT_BASES, N

# -- standard shape without wild tiles ------------------------------------------------------

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


def read_standard(counts: tuple[int, ...], need_pair: bool, chows_left: int):
    """Readings of concealed tiles (no wild tiles) as pungs, chows (at most ``chows_left``) and
    one pair if ``need_pair``: a tuple of readings, each a tuple of concealed ``Set``s."""
    honours = honour_parts(counts, need_pair)
    if honours is None:
        return ()
    per_suit = []
    for base in SUIT_BASES:
        ways = suit_readings(counts[base:base + 9], base)
        if not ways:
            return ()
        per_suit.append(ways)
    return combine_parts(*honours, per_suit, need_pair, chows_left)


def honour_parts(counts, need_pair: bool) -> tuple[tuple[Set, ...], int] | None:
    """The honours' pungs and pair as sets in index order, and the number of pairs (0 or 1);
    None when the honours are not pungs and a pair."""
    sets: tuple[Set, ...] = ()
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


# The one table besides the division's cache (search.arrangements_for): one suit's nine counts
# to its readings depend on nothing else, and without it the engine measured 0.40x the riichi
# package, at the floor of the speed budget (docs/ARCHITECTURE.md); with it, see bench/README.md.
@memo.cached(maxsize=1 << 14)
def suit_readings(c: tuple[int, ...], base: int) -> tuple[tuple[tuple[Set, ...], int, int], ...]:
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


def combine_parts(h_sets: tuple[Set, ...], h_pairs: int, per_suit: list, need_pair: bool,
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
# chow 1, pair 2), made once: so sorting the places sorts the sets as part_order does.
_PLAIN_SETS = tuple(Set(kind, T.PLAYING[i], True, None, 0, ())
                    for i in range(N) for kind in ("pung", "chow", "pair"))
