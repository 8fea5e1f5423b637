"""What the rule functions may ask about one arrangement of one hand.

A ``ScoringContext`` is built once per arrangement and read by every item of the house rule
(about fifty per hand), so derived facts (tiles, suits, counts, chows) are worked out on first
use and kept. Tile facts that never change are module-level tables.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property

from . import memo
from .hand import Arrangement, Hand, Set
from .rules.model import HouseRule
from .tiles import (
    DRAGON_CODES,
    DRAGONS,
    GREENS,
    HONOURS,
    MAJORS,
    MINORS,
    SEAT_TO_WIND,
    SUIT_TILES,
    SUITS,
    TERMINALS,
    WIND_CODES,
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

# Tile classes as bits, so that "every tile is major" or "the hand holds all three dragons"
# is one AND over an arrangement's tiles instead of a set test per tile: one bit per named
# class of STATIC_SELECTORS, and one per honour tile. TILE_MASK gives each playing tile the
# bits of every class holding it; any other code (a joker among a losing hand's loose tiles)
# has none, as no class holds it.
CLASS_BIT = {name: 1 << k for k, name in enumerate(STATIC_SELECTORS)}
HONOUR_TILE_BIT = {code: 1 << (len(CLASS_BIT) + k) for k, code in enumerate(WIND_CODES + DRAGON_CODES)}
TILE_MASK = {
    code: sum(bit for name, bit in CLASS_BIT.items() if code in STATIC_SELECTORS[name])
    | HONOUR_TILE_BIT.get(code, 0)
    for code in ALL_TILES
}
ALL_BITS = (1 << (len(CLASS_BIT) + len(HONOUR_TILE_BIT))) - 1
SUIT_BITS = tuple(CLASS_BIT[suit] for suit in SUITS)
# The suits present, as ``ctx.suits`` gives them, by the three suit bits of an OR mask.
SUITS_OF_BITS = {
    bits: frozenset(suit for suit, bit in zip(SUITS, SUIT_BITS, strict=True) if bits & bit)
    for bits in range(1 << len(SUITS)) for bits in [sum(
        bit for k, bit in enumerate(SUIT_BITS) if bits >> k & 1)]
}
_SUIT_BITS = sum(SUIT_BITS)
_HONOUR_BIT = CLASS_BIT["honour"]




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
        held = s.tiles
        found = _GROUP_TILES.get(held)
        if found is None:
            found = tuple(t[1:] if len(t) == 3 and t[0] == "j" else t for t in held)
            if len(_GROUP_TILES) < 4096:  # a special shape's groups: a few hundred in all
                _GROUP_TILES[held] = found
        return found
    return (s.tile,) * _SIZE.get(s.kind, 1)


# A group's tiles as held to the tiles they stand for.
_GROUP_TILES: dict[tuple[str, ...], tuple[str, ...]] = memo.table("context: group tiles")


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
    def tile_all(self) -> int:
        """The class bits (``TILE_MASK``) every tile has: ``tile_all & CLASS_BIT["major"]``
        says that every tile is major. ``ALL_BITS`` when there are no tiles. The orchestrator
        sets it (and ``tile_any``) from its per-set table before asking any item."""
        out = ALL_BITS
        masks = TILE_MASK
        for t in self.tiles:
            out &= masks.get(t, 0)
        return out

    @cached_property
    def tile_any(self) -> int:
        """The class bits some tile has (0 when no tile is a playing tile)."""
        out = 0
        masks = TILE_MASK
        for t in self.tiles:
            out |= masks.get(t, 0)
        return out

    @cached_property
    def tile_count(self) -> int:
        """How many tiles the arrangement holds: ``len(tiles)``."""
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
    def standard_split(self) -> tuple[tuple[Set, ...], tuple[Set]] | None:
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

    def know_set_facts(self, tile_count: int, tile_all: int, tile_any: int,
                       kinds: list[int], concealed: bool) -> None:
        """Keep the facts the orchestrator worked out in its one pass over the sets (as the
        properties above would work them out): the tile count and class masks, and from the
        number of sets of each kind (pung, kong, chow, pair, group) the chows, the kongs and
        whether the hand is four pungs or kongs and a pair with nothing left over."""
        self.tile_count = tile_count
        self.tile_all = tile_all
        self.tile_any = tile_any
        self.suits = SUITS_OF_BITS[tile_any & _SUIT_BITS]
        self.has_honours = bool(tile_any & _HONOUR_BIT)
        self.chows = kinds[2]
        self.kongs = kinds[1]
        self.all_concealed = concealed
        self.pung_hand = (not self.loose and kinds[0] + kinds[1] == 4 and kinds[3] == 1
                          and len(self.sets) == 5)

    @cached_property
    def max_chows(self) -> int | None:
        """Chows allowed in this hand: the goulash's number in a goulash (004 Sheet 10)."""
        params = self.rule.scoring
        return params.goulash_max_chows if self.hand.goulash else params.max_chows

    # -- selectors --------------------------------------------------------------------------

    @cached_property
    def seat_number(self) -> str:
        return SEAT_NUMBER[self.hand.seat_wind]

    def selector(self, name: str | None) -> frozenset[str] | None:
        """The tiles ``name`` selects for this hand (None selects every tile)."""
        if name is None:
            return None
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
    def win_key(self) -> tuple:
        """Everything the ``win`` rule function reads."""
        win = self.win
        return (self.win_facts, win.source if win else None, win.tile if win else None,
                self.hand.seat_wind)

    @cached_property
    def win_how_key(self) -> tuple:
        """What the ``win`` rule function reads when it asks neither tile nor seat."""
        win = self.win
        return (self.win_facts, win.source if win else None)

    @cached_property
    def bonus_key(self) -> tuple:
        """Everything the flower and season rule functions read."""
        return (self.bonus, self.hand.seat_wind)

    @cached_property
    def win_facts(self) -> frozenset[str]:
        """How the hand went out, with the contract's two spellings of one fact merged:
        ``from: kong_box`` and ``kong_replacement``, ``from: robbed_kong`` and ``robbed_kong``."""
        win = self.win
        if win is None or not self.is_winner:
            return frozenset()
        # Wins are shared objects (parse's table of wins): found by identity first, the entry
        # holding the win so that its id is not reused while the entry lives.
        known = _FACTS_OF_WIN.get(id(win))
        if known is not None and known[0] is win:
            return known[1]
        key = (win.source, win.last_wall_tile, win.last_discard, win.robbed_kong,
               win.kong_replacement, win.original_call, win.heavenly, win.earthly,
               win.second_kong_replacement)
        facts = _WIN_FACTS.get(key)
        if facts is None:
            facts = {win.source}
            for name, value in zip(_WIN_FLAGS, key[1:], strict=True):
                if value:
                    facts.add(name)
            if "kong_replacement" in facts:
                facts.add("kong_box")
            if "kong_box" in facts:
                facts.add("kong_replacement")
            facts = frozenset(facts)
            if len(_WIN_FACTS) < 4096:  # a source and eight flags: a small table
                _WIN_FACTS[key] = facts
        if len(_FACTS_OF_WIN) > 4096:
            _FACTS_OF_WIN.clear()
        _FACTS_OF_WIN[id(win)] = (win, facts)
        return facts


_WIN_FLAGS = ("last_wall_tile", "last_discard", "robbed_kong", "kong_replacement",
              "original_call", "heavenly", "earthly", "second_kong_replacement")
# How a hand went out (its source and flags) to its facts: shared by every hand going out so.
_WIN_FACTS: dict[tuple, frozenset[str]] = memo.table("context: win facts")
# The same by the Win object's identity, with the win.
_FACTS_OF_WIN: dict[int, tuple] = memo.table("context: facts by win")



__all__ = [
    "ALL_TILES",
    "HAND_SELECTORS",
    "STATIC_SELECTORS",
    "ScoringContext",
    "is_selector",
    "set_tiles",
]
