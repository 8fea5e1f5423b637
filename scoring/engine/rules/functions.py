"""The named rule functions a house rule's items call (the registry is ``registry.py``; the
special hands' functions are in ``special_hands.py``, more in ``functions_more.py``).

Each function answers one question about an arrangement: how many times it matches (0 when it
does not). Items give the matches their worth, so one function serves many items and many
house rules through its arguments: ``sets(kind="pung", tiles="major", concealed=True)`` is the
concealed major pung of 004 Sheet 14 and of every other table. Special hands that are not
sets and a pair are recognised from the tiles of an arrangement the search read as a special
shape, whatever name it gave the shape.

Registration (``registry.rule_function``) may also name a fact without which the function
gives 0 (``needs``), and the special shapes it accepts (``shapes``).
"""

from __future__ import annotations

from typing import Any

from ..context import (
    STATIC_SELECTORS,
    ScoringContext,
)
from ..tiles import (
    BONUS_PREFIXES,
)
from ..tiles import SEAT_DIGIT as SEAT_NUMBER
from .registry import RULE_FUNCTIONS, SPECIAL_SHAPES, rule_function


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


def _kind_set(kind: Any) -> frozenset[str]:
    return frozenset((kind,) if isinstance(kind, str) else kind)


# -- sets and pairs ---------------------------------------------------------------------------

@rule_function("sets")
def sets(ctx: ScoringContext, kind: Any = None, tiles: Any = None,
         concealed: bool | None = None, how: Any = None) -> int:
    """Sets of ``kind`` (pung, kong, chow, pair; one or several) whose tiles are all in
    ``tiles`` (a class such as major, minor, dragon, own_wind, round_wind, green, or a tile
    code), concealed or exposed as asked, kongs made ``how`` (concealed, claimed, added)."""
    kinds = _names(kind)
    hows = _names(how)
    selected = _selected(ctx, tiles)
    n = 0
    for s in ctx.sets:
        if kinds is not None and s.kind not in kinds:
            continue
        if concealed is not None and s.concealed != concealed:
            continue
        if hows is not None and s.how not in hows:
            continue
        if selected is not None:
            if s.kind == "chow":
                suit, low = s.tile[0], int(s.tile[1])
                if not all(f"{suit}{low + i}" in selected for i in range(3)):
                    continue
            elif s.tile not in selected:
                continue
        n += 1
    return n


@rule_function("pairs")
def pairs(ctx: ScoringContext, tiles: Any = None) -> int:
    """Pairs whose tile is in ``tiles`` (004 Sheet 14: a pair of dragons, own wind...)."""
    return sets(ctx, kind="pair", tiles=tiles)


# -- flowers and seasons ----------------------------------------------------------------------

# 004 Sheet 20: flower and season 1 belong to East ... 4 to North.
_OWN_BONUS = {(kind, seat): frozenset(p + n for p in prefixes)
              for kind, prefixes in BONUS_PREFIXES.items()
              for seat, n in SEAT_NUMBER.items()}


@rule_function("bonus_tiles", bonus=True, needs="bonus")
def bonus_tiles(ctx: ScoringContext, kind: str | None = None) -> int:
    """Flowers (``kind="flower"``), seasons, or both held."""
    prefixes = BONUS_PREFIXES[kind]
    return sum(1 for t in ctx.bonus if t[0] in prefixes)


@rule_function("own_bonus", bonus=True, needs="bonus")
def own_bonus(ctx: ScoringContext, kind: str | None = None) -> int:
    """The player's own flower or season (004 Sheet 20: 1 = East ... 4 = North)."""
    own = _OWN_BONUS[kind, ctx.hand.seat_wind]
    return sum(1 for t in ctx.bonus if t in own)


@rule_function("bouquet", bonus=True, needs="bonus")
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


@rule_function("only_tiles")
def only_tiles(ctx: ScoringContext, tiles: Any = "major") -> int:
    """Every tile in ``tiles``."""
    selected = _selected(ctx, tiles)
    if selected is None:  # no class named: any tile
        return 1 if ctx.tiles else 0
    return 1 if ctx.tiles and selected.issuperset(ctx.tiles) else 0


@rule_function("all_majors")
def all_majors(ctx: ScoringContext) -> int:
    """Ones, nines, winds and dragons only (004 Sheet 17)."""
    return only_tiles(ctx, "major")


@rule_function("no_chows")
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


@rule_function("win", needs="win_facts")
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
    won = ctx.win
    if won is None or not _is(won.source, source) or not _is(won.tile, tile):
        return 0
    return 1 if _is(ctx.hand.seat_wind, seat) else 0


__all__ = [
    "RULE_FUNCTIONS",
    "SPECIAL_SHAPES",
    "rule_function",
]
