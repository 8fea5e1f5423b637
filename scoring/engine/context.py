"""What the rule functions may ask about one arrangement of one hand.

A ``ScoringContext`` is built once per arrangement and read by every item of the house rule
(about fifty per hand), so derived facts (tiles, suits, counts, chows) are worked out on first
use and kept. Tile facts that never change are module-level tables.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property

from .hand import Arrangement, Hand, Set
from .rules.model import HouseRule
from .tiles import (
    DRAGONS,
    GREENS,
    HONOURS,
    MAJORS,
    MINORS,
    SEAT_TO_WIND,
    SUIT_TILES,
    SUITS,
    TERMINALS,
    WINDS,
)
from .tiles import SEAT_DIGIT as SEAT_NUMBER

PUNGS_AND_KONGS = frozenset(("pung", "kong"))

# Named tile classes the rule functions accept as ``tiles=``; a tile code selects itself.
STATIC_SELECTORS: dict[str, frozenset[str]] = {
    "any": SUIT_TILES | HONOURS,
    "suit": SUIT_TILES,
    "minor": MINORS,
    "major": MAJORS,
    "terminal": TERMINALS,
    "honour": HONOURS,
    "dragon": DRAGONS,
    "wind": WINDS,
    "green": GREENS,
    **{suit: frozenset(f"{suit}{n}" for n in range(1, 10)) for suit in SUITS},
}
HAND_SELECTORS = ("own_wind", "round_wind")
# A tile code used as a selector is the usual way to name one tile (a pung of d5).
ALL_TILES = SUIT_TILES | HONOURS

def is_selector(name: str) -> bool:
    return name in STATIC_SELECTORS or name in HAND_SELECTORS or name in ALL_TILES


def set_tiles(s: Set) -> tuple[str, ...]:
    """The tiles a set stands for: a set's own tile repeated (a wild tile counts as the tile
    it replaces), a chow's run, or a special shape's group as held (a joker ``jb5`` as b5)."""
    found = _SET_TILES.get((s.kind, s.tile))
    if found is not None:
        return found
    if s.kind == "chow":
        suit, n = s.tile[0], int(s.tile[1])
        return (s.tile, f"{suit}{n + 1}", f"{suit}{n + 2}")
    if s.kind == "group":
        return tuple(t[1:] if len(t) == 3 and t[0] == "j" else t for t in s.tiles)
    return (s.tile,) * _SIZE.get(s.kind, 1)


_SIZE = {"pung": 3, "kong": 4, "pair": 2}
# Every pung, kong, pair and chow of a playing tile, worked out once.
_SET_TILES: dict[tuple[str, str], tuple[str, ...]] = {
    **{(kind, t): (t,) * n for kind, n in _SIZE.items() for t in ALL_TILES},
    **{("chow", f"{s}{n}"): (f"{s}{n}", f"{s}{n + 1}", f"{s}{n + 2}")
       for s in SUITS for n in range(1, 8)},
}
# A suit tile's suit letter; other tiles have none.
_SUIT_OF = {t: t[0] for t in SUIT_TILES}


class ScoringContext:
    """One arrangement of one hand under one house rule, as the rule functions see it."""

    def __init__(self, hand: Hand, rule: HouseRule, arrangement: Arrangement,
                 is_winner: bool | None = None):
        self.hand = hand
        self.rule = rule
        self.is_winner = hand.mahjong if is_winner is None else is_winner
        self.shape = arrangement.shape
        self.sets = arrangement.sets
        self.loose = arrangement.loose
        self.bonus = hand.bonus
        self.win = hand.win
        self.arrangement = arrangement
        self.own_wind = SEAT_TO_WIND[hand.seat_wind]
        self.round_wind = SEAT_TO_WIND[hand.prevailing_wind]
        # Not sets and a pair, nor a losing hand: a special shape (seven pairs, knitting...).
        self.special_shape = arrangement.shape not in ("standard", "partial")

    # -- tiles ------------------------------------------------------------------------------

    @cached_property
    def tiles(self) -> tuple[str, ...]:
        out: list[str] = []
        table = _SET_TILES
        for s in self.sets:
            found = table.get((s.kind, s.tile))
            out.extend(found if found is not None else set_tiles(s))
        out.extend(self.loose)
        return tuple(out)

    @cached_property
    def counts(self) -> Counter:
        return Counter(self.tiles)

    @cached_property
    def suits(self) -> frozenset[str]:
        return frozenset(filter(None, map(_SUIT_OF.get, self.tiles)))

    @cached_property
    def has_honours(self) -> bool:
        return not HONOURS.isdisjoint(self.tiles)

    @cached_property
    def tile_count(self) -> int:
        """How many tiles the arrangement holds."""
        return len(self.tiles)

    @cached_property
    def kongs(self) -> int:
        return sum(1 for s in self.sets if s.kind == "kong")

    @cached_property
    def chows(self) -> int:
        return sum(1 for s in self.sets if s.kind == "chow")

    @cached_property
    def all_concealed(self) -> bool:
        return all(s.concealed for s in self.sets)

    @cached_property
    def standard_split(self) -> tuple[tuple[Set, ...], tuple[Set, ...]] | None:
        """The four sets and the pair of a four-sets-and-a-pair hand; None for any other."""
        if self.loose or len(self.sets) != 5:
            return None
        # One pass, without a generator per question: the four sets that are not the pair
        # (none of them a special shape's group), and the pair.
        groups = []
        pairs = []
        for s in self.sets:
            kind = s.kind
            if kind == "pair":
                pairs.append(s)
            elif kind == "group":
                return None
            else:
                groups.append(s)
        if len(groups) != 4:
            return None
        return tuple(groups), tuple(pairs)

    @cached_property
    def group_kinds(self) -> frozenset[str]:
        """The kinds of the four sets of a four-sets-and-a-pair hand (empty for others)."""
        split = self.standard_split
        return frozenset([s.kind for s in split[0]]) if split else frozenset()

    @cached_property
    def group_tiles(self) -> frozenset[str]:
        """The tiles of the four sets of a four-sets-and-a-pair hand (empty for others)."""
        split = self.standard_split
        return frozenset([s.tile for s in split[0]]) if split else frozenset()

    @cached_property
    def pung_hand(self) -> bool:
        """Four pungs or kongs and a pair, the frame of most special hands."""
        return bool(self.standard_split) and self.group_kinds <= PUNGS_AND_KONGS

    @cached_property
    def max_chows(self) -> int | None:
        """Chows allowed in this hand: the goulash's number in a goulash (004 Sheet 10)."""
        params = self.rule.scoring
        return params.goulash_max_chows if self.hand.goulash else params.max_chows

    # -- selectors --------------------------------------------------------------------------

    @cached_property
    def seat_number(self) -> str:
        return SEAT_NUMBER[self.hand.seat_wind]

    def selector(self, name: str) -> frozenset[str]:
        """The tiles ``name`` (a class, own_wind, round_wind or a tile code) selects for
        this hand."""
        found = STATIC_SELECTORS.get(name)
        if found is not None:
            return found
        if name == "own_wind":
            return frozenset((self.own_wind,))
        if name == "round_wind":
            return frozenset((self.round_wind,))
        return frozenset((name,))

    # -- the win ----------------------------------------------------------------------------

    @cached_property
    def win_facts(self) -> frozenset[str]:
        """How the hand went out, with the contract's two spellings of one fact merged:
        ``from: kong_box`` and ``kong_replacement``, ``from: robbed_kong`` and ``robbed_kong``."""
        win = self.win
        if win is None or not self.is_winner:
            return frozenset()
        facts = {win.source}
        for name in _WIN_FLAGS:
            if getattr(win, name):
                facts.add(name)
        if "kong_replacement" in facts:
            facts.add("kong_box")
        if "kong_box" in facts:
            facts.add("kong_replacement")
        return frozenset(facts)


_WIN_FLAGS = ("last_wall_tile", "last_discard", "robbed_kong", "kong_replacement",
              "original_call", "heavenly", "earthly", "second_kong_replacement")


__all__ = [
    "ALL_TILES",
    "HAND_SELECTORS",
    "STATIC_SELECTORS",
    "ScoringContext",
    "is_selector",
    "set_tiles",
]
