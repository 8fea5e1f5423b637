"""Every way to read a hand's tiles as sets: the entry points and the memoised general search.

A plain hand (no wild tiles, every code a playing tile) is read straight from its counts with
the per-suit tables (``standard.py``); any other takes the general search, memoised on the
hand's tiles and the few rule values that matter. Special shapes are read by ``special.py``,
wild tiles by ``wild.py``, losing hands by ``partial.py``.
"""

from __future__ import annotations

from .. import memo
from .. import tiles as T
from ..hand import Arrangement, Hand, Meld
from ..rules.model import HouseRule
from ..validate import is_wild_in, wild_mode
from .common import N, declared_set, discard_readings, make_set
from .partial import partial_readings
from .special import special_readings
from .standard import read_standard
from .wild import standard_wild

# -- public API -----------------------------------------------------------------------------

def arrangements(hand: Hand, rule: HouseRule) -> list[Arrangement]:
    """Every legal reading of a Mah Jong hand, or the best partial readings of a losing hand.

    An empty list means the Mah Jong hand's tiles make no complete hand under ``rule``.
    """
    key = search_key(hand, rule)
    try:
        return list(arrangements_for(*key))
    except TypeError:  # a Hand built in code with lists cannot be a cache key
        return list(arrangements_for.__wrapped__(*key))  # type: ignore[attr-defined]


# -- the memoised search --------------------------------------------------------------------

def search_key(hand: Hand, rule: HouseRule) -> tuple:
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
def arrangements_for(melds: tuple[Meld, ...], concealed: tuple[str, ...], mahjong: bool,
                      win_tile: str | None, from_discard: bool, mode: str | None,
                      chows_left: int, limits: tuple[int, int, int],
                      extra: bool) -> tuple[Arrangement, ...]:
    declared = tuple(declared_set(m, mode) for m in melds)
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
        return partial_readings(declared, nat, assigned, free, mode, wild_code, chows_left,
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
            for found in read_standard(tuple(nat_k), need_pair, chows_left):
                readings[("standard", found)] = None
        elif mode is not None:
            for parts in standard_wild(tuple(nat_k), tuple(assigned), free_k, need_pair,
                                        chows_left, limits, extra, wild_code):
                readings[("standard", tuple(make_set(p) for p in parts))] = None
        if not melds:
            for shape, parts in special_readings(tuple(nat_k), tuple(assigned), free_k,
                                                  wild_code, limits[2]):
                readings[(shape, tuple(make_set(p) for p in parts))] = None

    result: dict[Arrangement, None] = {}
    exposing = from_discard and win_tile in concealed
    for shape, found in readings:
        arrangement = Arrangement(shape, declared + found)
        if exposing and shape == "standard" and win_tile is not None:
            for variant in discard_readings(arrangement, len(declared), win_tile):
                result[variant] = None
        else:
            result[arrangement] = None
    return tuple(result)
