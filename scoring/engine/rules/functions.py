"""The named rule functions a house rule's items call (the registry is ``registry.py``; the
special hands' functions are in ``special_hands.py``, more in ``functions_more.py``).

Each function answers one question about an arrangement: how many times it matches (0 when it
does not). Items give the matches their worth, so one function serves many items and many
house rules through its arguments: ``sets(kind="pung", tiles="major", concealed=True)`` is the
concealed major pung of 004 Sheet 14 and of every other table. Special hands that are not
sets and a pair are recognised from the tiles of an arrangement the search read as a special
shape, whatever name it gave the shape.

Registration (``registry.rule_function``) may also tell the orchestrator how to ask less often (``per_set``, ``needs``,
``depends_on``); a function must give the same answers with or without those hints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import memo
from ..context import (
    CLASS_BIT,
    HAND_SELECTORS,
    HONOUR_TILE_BIT,
    STATIC_SELECTORS,
    ScoringContext,
)
from ..hand import Set
from ..tiles import (
    BONUS_PREFIXES,
    DRAGON_CODES,
    WIND_CODES,
)
from ..tiles import SEAT_DIGIT as SEAT_NUMBER
from .registry import RULE_FUNCTIONS, SPECIAL_SHAPES, SetPredicate, rule_function
from .registry import RuleFunctionCall as RuleFunction


def _names(value: Any) -> tuple[str, ...] | None:
    """One name or several, as a tuple (None: no restriction)."""
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _selected(ctx: ScoringContext, tiles: Any) -> frozenset[str] | None:
    if tiles is None:
        return None
    if tiles.__class__ is str:
        return STATIC_SELECTORS.get(tiles) or ctx.selector(tiles)
    out: frozenset[str] = frozenset()
    for name in tiles:
        out |= ctx.selector(name)
    return out


def _is(value: Any, wanted: Any) -> bool:
    """``value`` is ``wanted``, or one of several (None wants anything)."""
    if wanted is None:
        return True
    if wanted.__class__ is str:
        return value == wanted
    return value in wanted


def _any_in(wanted: Any, found: frozenset[str]) -> bool:
    """One of ``wanted`` (a name or several) is in ``found``."""
    if wanted.__class__ is str:
        return wanted in found
    return any(w in found for w in wanted)


# -- prefilters and fast forms: tests of the precomputed facts ----------------------------------
# Each must agree with its rule function: a prefilter fails only where the function gives 0,
# a fast form gives what the function gives (tests/scoring/test_compiled_plan.py checks both).

_HONOUR_BIT = CLASS_BIT["honour"]
_WIND_TILE_BITS = sum(HONOUR_TILE_BIT[w] for w in WIND_CODES)
_DRAGON_TILE_BITS = sum(HONOUR_TILE_BIT[d] for d in DRAGON_CODES)
_HONOUR_TILE_BITS = _WIND_TILE_BITS | _DRAGON_TILE_BITS
_SUIT_BIT = CLASS_BIT["suit"]
_MAJOR_BIT = CLASS_BIT["major"]


def _class_bit(name: Any) -> int | None:
    """The bit of a named tile class (``"major"``), or None for anything else."""
    return CLASS_BIT.get(name) if name.__class__ is str else None


def _all_of(bit: int) -> Callable[[ScoringContext], bool]:
    pre = lambda ctx: ctx.tile_all & bit == bit  # noqa: E731
    # (bits every tile has, bits some tile has) that the test needs: the orchestrator asks a
    # group of such tests in one pass over their masks (score._group_prefilters).
    pre.masks = (bit, 0)
    return pre


def _holds(bits: int) -> Callable[[ScoringContext], bool]:
    pre = lambda ctx: ctx.tile_any & bits == bits  # noqa: E731
    pre.masks = (0, bits)
    return pre


def _suits_without_honours(n: int) -> Callable[[ScoringContext], bool]:
    return lambda ctx: not ctx.tile_any & _HONOUR_BIT and len(ctx.suits) == n


def _only_tiles_fast(tiles: Any = "major") -> RuleFunction | None:
    bit = _class_bit(tiles)
    if bit is None:
        return None
    # ``ctx.tiles and selected.issuperset(ctx.tiles)``: no playing tile at all leaves
    # tile_any 0 (no tiles, or jokers only, which no class holds).
    return lambda ctx: 1 if ctx.tile_any and ctx.tile_all & bit else 0


def _four_sets_prefilter(kind: Any = ("pung", "kong"), tiles: Any = None, pair: Any = None,
                         one_suit: bool = False, concealed: bool = False
                         ) -> Callable[[ScoringContext], bool] | None:
    tests = []
    bit = _class_bit(tiles)
    kinds = (kind,) if kind.__class__ is str else kind
    if (bit is not None and pair == tiles and isinstance(kinds, tuple | list)
            and all(k in ("pung", "kong") for k in kinds)):
        # Pungs, kongs and a pair from one class: every tile is of it. (A chow's tile is its
        # lowest only, so a chow says nothing of its other two.)
        tests.append(_all_of(bit))
    if one_suit is True:
        tests.append(lambda ctx: len(ctx.suits) == 1)
    if concealed is True:
        tests.append(lambda ctx: ctx.all_concealed)
    if kind == "kong" or kind in (("kong",), ["kong"]):
        tests.append(lambda ctx: ctx.kongs == 4)
    if not tests:
        return None
    if len(tests) == 1:
        return tests[0]
    return lambda ctx: all(test(ctx) for test in tests)


def _seven_pairs_prefilter(tiles: Any = None, concealed: bool = True):
    bit = _class_bit(tiles)
    return _all_of(bit) if bit is not None else None


@memo.cached(maxsize=64)
def _kind_set(kind: Any) -> frozenset[str]:
    return frozenset((kind,) if isinstance(kind, str) else kind)


# -- sets and pairs ---------------------------------------------------------------------------

def _as_key(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@memo.cached(maxsize=1024)
def _set_predicate(kind: Any, tiles: Any, concealed: bool | None, how: Any) -> SetPredicate:
    kinds = frozenset(_names(kind)) if kind is not None else None
    hows = frozenset(_names(how)) if how is not None else None
    names = _names(tiles)
    static: frozenset[str] | None = None
    dynamic: tuple[str, ...] = ()
    if names is not None:
        static = frozenset()
        for name in names:
            if name in HAND_SELECTORS:
                dynamic += (name,)
            else:
                static |= STATIC_SELECTORS.get(name, frozenset((name,)))

    def matches(s: Set, own: str, round_: str) -> bool:
        if kinds is not None and s.kind not in kinds:
            return False
        if concealed is not None and s.concealed != concealed:
            return False
        if hows is not None and s.how not in hows:
            return False
        if static is None:
            return True
        selected = static
        if dynamic:
            selected = static | {own if d == "own_wind" else round_ for d in dynamic}
        if s.kind == "chow":
            suit, low = s.tile[0], int(s.tile[1])
            return all(f"{suit}{low + i}" in selected for i in range(3))
        return s.tile in selected

    # The kinds of set it can match (None: any), so that the orchestrator asks a set only the
    # tests of its kind.
    matches.kinds = kinds  # type: ignore[attr-defined]
    return matches


def set_predicate(kind: Any = None, tiles: Any = None, concealed: bool | None = None,
                  how: Any = None) -> SetPredicate:
    """The per-set test of ``sets`` with these arguments."""
    return _set_predicate(_as_key(kind), _as_key(tiles), concealed, _as_key(how))


def pair_predicate(tiles: Any = None) -> SetPredicate:
    return set_predicate(kind="pair", tiles=tiles)


@rule_function("sets", per_set=set_predicate)
def sets(ctx: ScoringContext, kind: Any = None, tiles: Any = None,
         concealed: bool | None = None, how: Any = None) -> int:
    """Sets of ``kind`` (pung, kong, chow, pair; one or several) whose tiles are all in
    ``tiles`` (a class such as major, minor, dragon, own_wind, round_wind, green, or a tile
    code), concealed or exposed as asked, kongs made ``how`` (concealed, claimed, added)."""
    matches = set_predicate(kind, tiles, concealed, how)
    own, round_ = ctx.own_wind, ctx.round_wind
    return sum(1 for s in ctx.sets if matches(s, own, round_))


@rule_function("pairs", per_set=pair_predicate)
def pairs(ctx: ScoringContext, tiles: Any = None) -> int:
    """Pairs whose tile is in ``tiles`` (004 Sheet 14: a pair of dragons, own wind...)."""
    return sets(ctx, kind="pair", tiles=tiles)


# -- flowers and seasons ----------------------------------------------------------------------

# 004 Sheet 20: flower and season 1 belong to East ... 4 to North.
_OWN_BONUS = {(kind, seat): frozenset(p + n for p in prefixes)
              for kind, prefixes in BONUS_PREFIXES.items()
              for seat, n in SEAT_NUMBER.items()}


def _bonus_tiles_fast(kind: str | None = None) -> RuleFunction:
    prefixes = BONUS_PREFIXES[kind]
    return lambda ctx: sum(1 for t in ctx.bonus if t[0] in prefixes)


def _own_bonus_fast(kind: str | None = None) -> RuleFunction:
    own = {seat: _OWN_BONUS[kind, seat] for seat in SEAT_NUMBER}
    return lambda ctx: sum(1 for t in ctx.bonus if t in own[ctx.hand.seat_wind])


def _bonus_tile_test(kind: str | None = None) -> Callable[[str, str], bool]:
    prefixes = BONUS_PREFIXES[kind]
    return lambda tile, seat: tile[0] in prefixes


def _own_bonus_test(kind: str | None = None) -> Callable[[str, str], bool]:
    own = {seat: _OWN_BONUS[kind, seat] for seat in SEAT_NUMBER}
    return lambda tile, seat: tile in own[seat]


# Not remembered by the flowers held (bonus_key): their many combinations recur too seldom
# for a memo to beat counting them one tile at a time (per_bonus).
@rule_function("bonus_tiles", bonus=True, needs="bonus", fast=_bonus_tiles_fast,
               per_bonus=_bonus_tile_test)
def bonus_tiles(ctx: ScoringContext, kind: str | None = None) -> int:
    """Flowers (``kind="flower"``), seasons, or both held."""
    prefixes = BONUS_PREFIXES[kind]
    return sum(1 for t in ctx.bonus if t[0] in prefixes)


@rule_function("own_bonus", bonus=True, needs="bonus", fast=_own_bonus_fast,
               per_bonus=_own_bonus_test)
def own_bonus(ctx: ScoringContext, kind: str | None = None) -> int:
    """The player's own flower or season (004 Sheet 20: 1 = East ... 4 = North)."""
    own = _OWN_BONUS[kind, ctx.hand.seat_wind]
    return sum(1 for t in ctx.bonus if t in own)


def _bouquet_fast(kind: str | None = "flower") -> RuleFunction:
    sets = tuple(frozenset(f"{prefix}{n}" for n in "1234") for prefix in BONUS_PREFIXES[kind])
    return lambda ctx: sum(1 for full in sets if full.issubset(ctx.bonus)) if len(
        ctx.bonus) >= 4 else 0


@rule_function("bouquet", bonus=True, needs="bonus", fast=_bouquet_fast,
               prefilter=lambda kind="flower": lambda ctx: len(ctx.bonus) >= 4)
def bouquet(ctx: ScoringContext, kind: str | None = "flower") -> int:
    """Full sets of four flowers or seasons (``kind=None``: either, counted separately)."""
    if len(ctx.bonus) < 4:
        return 0
    held = set(ctx.bonus)
    return sum(
        1 for prefix in BONUS_PREFIXES[kind] if all(f"{prefix}{n}" in held for n in "1234")
    )


# -- the whole hand ---------------------------------------------------------------------------

@rule_function("mahjong")
def mahjong(ctx: ScoringContext) -> int:
    """Going Mah Jong (004 Sheet 14: 20 points)."""
    return 1 if ctx.is_winner else 0


@rule_function("one_suit")
def one_suit(ctx: ScoringContext, honours: bool | None = None) -> int:
    """Tiles of one suit only; ``honours`` True: winds or dragons required, False: none
    allowed, None: either (004 Sheet 17's clean hand)."""
    if len(ctx.suits) != 1:
        return 0
    if honours is not None and ctx.has_honours != honours:
        return 0
    return 1


@rule_function("only_tiles", fast=_only_tiles_fast)
def only_tiles(ctx: ScoringContext, tiles: Any = "major") -> int:
    """Every tile in ``tiles``."""
    selected = _selected(ctx, tiles)
    if selected is not None:
        return 1 if ctx.tiles and selected.issuperset(ctx.tiles) else 0
    return 1 if ctx.tiles and all(t in selected for t in ctx.tiles) else 0


@rule_function("all_majors", fast=lambda: _only_tiles_fast("major"))
def all_majors(ctx: ScoringContext) -> int:
    """Ones, nines, winds and dragons only (004 Sheet 17)."""
    return only_tiles(ctx, "major")


def _no_chows_fast(shapes: Any = ("standard",)) -> RuleFunction:
    allowed = _names(shapes)
    return lambda ctx: 0 if ctx.max_chows == 0 or ctx.chows else (
        1 if allowed is None or ctx.shape in allowed else 0)


@rule_function("no_chows", fast=_no_chows_fast)
def no_chows(ctx: ScoringContext, shapes: Any = ("standard",)) -> int:
    """No chow, counted only where chows were allowed in this hand: not in a goulash or
    wherever the house rule allows none (004 Sheet 17; Sheet 19 hand 3)."""
    if ctx.max_chows == 0 or ctx.chows:
        return 0
    allowed = _names(shapes)
    return 1 if allowed is None or ctx.shape in allowed else 0


@rule_function("chows")
def chows(ctx: ScoringContext) -> int:
    """Chows in the hand."""
    return ctx.chows


@rule_function("all_concealed")
def all_concealed(ctx: ScoringContext) -> int:
    """No set exposed."""
    return 1 if ctx.sets and ctx.all_concealed else 0


def _named_special_shapes(name: Any = "standard") -> tuple[str, ...]:
    names = _names(name)
    return tuple(SPECIAL_SHAPES) if names is None else tuple(n for n in names
                                                            if n in SPECIAL_SHAPES)


@rule_function("shape", shapes=_named_special_shapes)
def shape(ctx: ScoringContext, name: Any = "standard") -> int:
    """The arrangement's shape is ``name`` (one or several)."""
    return 1 if _is(ctx.shape, name) else 0


@rule_function("seat")
def seat(ctx: ScoringContext, wind: Any = "E") -> int:
    """The player sits at ``wind`` (004 Sheet 17: "If you are East")."""
    return 1 if _is(ctx.hand.seat_wind, wind) else 0


def _win_depends_on(tile: Any = None, seat: Any = None, **_: Any) -> str:
    return "win_key" if tile is not None or seat is not None else "win_how_key"


def _win_prefilter(source: Any = None, fact: Any = None, tile: Any = None, seat: Any = None):
    if fact is None:
        return None
    if fact.__class__ is str:
        pre = lambda ctx: fact in ctx.win_facts  # noqa: E731
        pre.win_facts = frozenset((fact,))
        return pre
    wanted = tuple(fact)
    pre = lambda ctx: not ctx.win_facts.isdisjoint(wanted)  # noqa: E731
    # The facts of which it needs one: the orchestrator asks a group of such prefilters at
    # once (one of them passes exactly when the hand has one of all their facts).
    pre.win_facts = frozenset(wanted)
    return pre


def _win_fast(source: Any = None, fact: Any = None, tile: Any = None,
              seat: Any = None) -> RuleFunction:
    """``win`` bound to its arguments: the tests it makes, skipping those it is not asked."""

    def fast(ctx: ScoringContext) -> int:
        found = ctx.win_facts
        if not found or (fact is not None and not _any_in(fact, found)):
            return 0
        won = ctx.win
        if source is not None and not _is(won.source, source):
            return 0
        if tile is not None and not _is(won.tile, tile):
            return 0
        return 0 if seat is not None and not _is(ctx.hand.seat_wind, seat) else 1

    return fast


@rule_function("win", needs="win_facts", depends_on=_win_depends_on, prefilter=_win_prefilter,
               fast=_win_fast)
def win(ctx: ScoringContext, source: Any = None, fact: Any = None, tile: Any = None,
        seat: Any = None) -> int:
    """How the Mah Jong was made: ``source`` (wall, discard, kong_box, robbed_kong) and/or
    ``fact`` (last_wall_tile, last_discard, kong_box, robbed_kong, original_call, heavenly,
    earthly, second_kong_replacement; any one of several), with ``tile`` the winning tile
    and ``seat`` the winner's wind when given."""
    facts = ctx.win_facts
    if not facts:
        return 0
    if fact is not None and not _any_in(fact, facts):
        return 0
    if not _is(ctx.win.source, source) or not _is(ctx.win.tile, tile):
        return 0
    return 1 if _is(ctx.hand.seat_wind, seat) else 0


__all__ = [
    "RULE_FUNCTIONS",
    "SPECIAL_SHAPES",
    "SetPredicate",
    "rule_function",
    "set_predicate",
]
