"""Special shapes: seven pairs, thirteen orphans, knitting, triple knitting, snakes and gates
of heaven, read straight off the counts without wild tiles or by filling templates with them.
"""

from __future__ import annotations

from itertools import combinations
from operator import itemgetter

from .. import tiles as T
from .common import HONOURS, SUIT_BASES, WINDS, N, part_order

_MAJOR_SET = frozenset(T.MAJOR_INDICES)
_MINOR_INDICES = tuple(i for i in range(N) if i not in _MAJOR_SET)


# -- special shapes -------------------------------------------------------------------------

def special_readings(nat: tuple[int, ...], assigned: tuple[int, ...], free: int,
                      wild_code: str, lim_special: int) -> list[tuple[str, tuple]]:
    """Special shapes the fourteen concealed tiles fit, with at most ``lim_special`` wild."""
    wild_total = free + sum(assigned)
    if wild_total > lim_special or sum(nat) + wild_total != 14:
        return []
    if not wild_total and not special_possible(nat):
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


def special_possible(nat) -> bool:
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
        return all(nat[base + n] >= need for n, need in enumerate(GATES))
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


GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_MAJOR_COUNTS = itemgetter(*T.MAJOR_INDICES)
MINOR_COUNTS = itemgetter(*_MINOR_INDICES)


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
    return tuple(sorted(parts, key=part_order))


def _group(i: int, members) -> tuple:
    return ("group", i, tuple(members))


def _templates(held: list[int] | tuple[int, ...], wild_total: int):
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
    if not any(MINOR_COUNTS(held)) and (wild_total or all(_MAJOR_COUNTS(held))):
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
