"""Rule functions the guide (002), Balsall Common (003) and West Wind Goulash (000) house rules
need beyond the generic ones in ``functions.py``.

Like those, each answers how many times it matches an arrangement and takes its differences
between house rules as arguments, so a club's variant changes an item's ``args``, never this
code. Counts given as ``n`` or ``[low, high]`` accept that range (``[3, 4]``: three or more).
"""

from __future__ import annotations

from typing import Any

from ..context import ScoringContext, set_tiles
from ..tiles import BONUS_PREFIXES, DRAGONS, HONOURS, SEAT_DIGIT, SUIT_TILES, WINDS
from .functions import rule_function, sets

PUNG_OR_KONG = ("pung", "kong")
_FAMILIES = {"dragon": DRAGONS, "wind": WINDS, "honour": HONOURS}


def _in_range(n: int, wanted: Any) -> bool:
    if wanted is None:
        return True
    if isinstance(wanted, int):
        return n == wanted
    low, high = wanted
    return low <= n <= high


def _standard(ctx: ScoringContext) -> bool:
    """Four sets and a pair with nothing left over: the hand most tables score."""
    return not ctx.loose and len(ctx.sets) == 5 and sum(s.kind == "pair" for s in ctx.sets) == 1


def _held_concealed(ctx: ScoringContext) -> bool:
    """No set exposed on the table before Mah Jong (a concealed kong may be laid down); the
    winning tile itself may be a discard."""
    return bool(ctx.sets) and all(s.concealed for s in ctx.sets if s.declared)


def _lucky(ctx: ScoringContext, tile: str) -> int:
    """How many of the player's own wind and the wind of the round ``tile`` is (0, 1 or 2)."""
    return (tile == ctx.own_wind) + (tile == ctx.round_wind)


# -- sets ----------------------------------------------------------------------------------

@rule_function("wind_sets")
def wind_sets(ctx: ScoringContext, kind: Any = PUNG_OR_KONG, concealed: bool | None = None,
              lucky: Any = 0) -> int:
    """Wind sets by how lucky the wind is: ``lucky=0`` neither the player's own wind nor the
    wind of the round, 1 one of them, 2 both (002's "double wind" rows)."""
    kinds = (kind,) if isinstance(kind, str) else tuple(kind)
    return sum(
        1 for s in ctx.sets
        if s.kind in kinds and s.tile in WINDS
        and (concealed is None or s.concealed == concealed)
        and _in_range(_lucky(ctx, s.tile), lucky)
    )


@rule_function("set_count")
def set_count(ctx: ScoringContext, kind: Any = PUNG_OR_KONG, tiles: Any = None,
              concealed: bool | None = None, count: Any = (3, 4)) -> int:
    """1 when the number of sets of ``kind`` from ``tiles`` (concealed or not, as asked) is in
    ``count``: 000's "three pungs/kongs of dragons", "four hidden kongs" and the like."""
    return 1 if _in_range(sets(ctx, kind=kind, tiles=tiles, concealed=concealed), count) else 0


@rule_function("set_mix")
def set_mix(ctx: ScoringContext, pungs: Any = None, concealed_pungs: Any = None,
            chows: Any = None, kongs: Any = None) -> int:
    """A hand of four sets and a pair whose pungs (kongs included), concealed pungs, chows and
    kongs number as given (002's Four Triplets 1-3 and Three and One; 003's sequence hand)."""
    if not _standard(ctx):
        return 0
    groups = [s for s in ctx.sets if s.kind != "pair"]
    counted = {
        "pungs": sum(s.kind in PUNG_OR_KONG for s in groups),
        "concealed_pungs": sum(s.kind in PUNG_OR_KONG and s.concealed for s in groups),
        "chows": sum(s.kind == "chow" for s in groups),
        "kongs": sum(s.kind == "kong" for s in groups),
    }
    wanted = {"pungs": pungs, "concealed_pungs": concealed_pungs, "chows": chows,
              "kongs": kongs}
    return 1 if all(_in_range(counted[k], v) for k, v in wanted.items()) else 0


@rule_function("family_sets")
def family_sets(ctx: ScoringContext, family: str = "dragon", count: Any = 3,
                pair: bool | None = None) -> int:
    """Pungs/kongs of ``count`` different dragons or winds, with (``pair=True``) or without
    (``False``) a pair of that family, or either (None): little and big three dragons, little
    and big four winds."""
    if not _standard(ctx):
        return 0
    tiles = _FAMILIES[family]
    held = {s.tile for s in ctx.sets if s.kind in PUNG_OR_KONG and s.tile in tiles}
    pair_tile = next(s.tile for s in ctx.sets if s.kind == "pair")
    if not _in_range(len(held), count):
        return 0
    if pair is not None and (pair_tile in tiles) != pair:
        return 0
    return 1


@rule_function("suit_sets")
def suit_sets(ctx: ScoringContext, count: Any = (3, 4)) -> int:
    """1 when one suit holds ``count`` pungs/kongs (000's "One Suit (3+)")."""
    per_suit: dict[str, int] = {}
    for s in ctx.sets:
        if s.kind in PUNG_OR_KONG and s.tile in SUIT_TILES:
            per_suit[s.tile[0]] = per_suit.get(s.tile[0], 0) + 1
    return 1 if any(_in_range(n, count) for n in per_suit.values()) else 0


@rule_function("each_set_has")
def each_set_has(ctx: ScoringContext, tiles: Any = "major") -> int:
    """Every set and the pair holds a tile from ``tiles`` (002: an honour or terminal in each
    set, chows included)."""
    if not _standard(ctx):
        return 0
    names = (tiles,) if isinstance(tiles, str) else tuple(tiles)
    selected = frozenset().union(*(ctx.selector(name) for name in names))
    return 1 if all(any(t in selected for t in set_tiles(s)) for s in ctx.sets) else 0


@rule_function("shifted_chows")
def shifted_chows(ctx: ScoringContext, count: int = 3, step: int = 1) -> int:
    """``count`` chows of one suit each starting ``step`` higher than the last (002: three
    consecutive chows in the same suit)."""
    starts = {(s.tile[0], int(s.tile[1])) for s in ctx.sets if s.kind == "chow"}
    for suit, low in starts:
        if all((suit, low + i * step) in starts for i in range(count)):
            return 1
    return 0


@rule_function("no_points_hand")
def no_points_hand(ctx: ScoringContext) -> int:
    """002 "No Points": four chows and a pair that scores nothing (not a dragon, nor the
    player's own wind or the wind of the round)."""
    if not _standard(ctx) or ctx.chows != 4:
        return 0
    pair_tile = next(s.tile for s in ctx.sets if s.kind == "pair")
    return 0 if pair_tile in DRAGONS or _lucky(ctx, pair_tile) else 1


@rule_function("dragon_suit_hand")
def dragon_suit_hand(ctx: ScoringContext, suit: str = "b", dragon: str = "dg") -> int:
    """003's Jade, Ruby and Pearl Dragons: pungs/kongs and a pair of ``suit`` only, with a
    pung/kong of ``dragon``."""
    if not _standard(ctx) or ctx.chows:
        return 0
    allowed = {t for t in SUIT_TILES if t[0] == suit} | {dragon}
    if any(s.tile not in allowed for s in ctx.sets):
        return 0
    pair_tile = next(s.tile for s in ctx.sets if s.kind == "pair")
    has_dragon = any(s.kind in PUNG_OR_KONG and s.tile == dragon for s in ctx.sets)
    return 1 if has_dragon and pair_tile != dragon else 0


@rule_function("hidden_treasure")
def hidden_treasure(ctx: ScoringContext, kongs: bool = False) -> int:
    """003: any four concealed pongs (no kongs unless ``kongs``) and a pair, every tile from
    the wall: the winning tile is self-drawn."""
    if not _standard(ctx) or not ctx.all_concealed:
        return 0
    kinds = PUNG_OR_KONG if kongs else ("pung",)
    if any(s.kind not in kinds for s in ctx.sets if s.kind != "pair"):
        return 0
    facts = ctx.win_facts
    return 1 if facts and "discard" not in facts and "robbed_kong" not in facts else 0


@rule_function("held_concealed")
def held_concealed(ctx: ScoringContext) -> int:
    """A concealed hand in the Hong Kong sense (003): nothing exposed before going out, even
    when the winning tile is a discard."""
    return 1 if _held_concealed(ctx) else 0


@rule_function("snake", shapes=("snake",))
def snake(ctx: ScoringContext, honours: str = "five_different") -> int:
    """003's snakes, held concealed: 1 to 9 of one suit plus five different honours (Little
    Snake, ``honours="five_different"``) or plus a pung/kong and a pair of honours (Great
    Snake, ``honours="pung_and_pair"``); the winning tile may be a discard."""
    if not _held_concealed(ctx) or len(ctx.suits) != 1:
        return 0
    suit = next(iter(ctx.suits))
    counts = ctx.counts
    if any(counts.get(f"{suit}{n}", 0) != 1 for n in range(1, 10)):
        return 0
    honour_counts = sorted(n for t, n in counts.items() if t in HONOURS)
    if honours == "five_different":
        return 1 if honour_counts == [1, 1, 1, 1, 1] else 0
    return 1 if honour_counts in ([2, 3], [2, 4]) else 0


# -- flowers and seasons -------------------------------------------------------------------



@rule_function("wind_bonus", bonus=True)
def wind_bonus(ctx: ScoringContext, kind: str | None = None, wind: str = "own") -> int:
    """Flowers/seasons whose number belongs to the player's own wind (``wind="own"``) or to the
    wind of the round (``"round"``): 1 = East ... 4 = North."""
    seat = {"own": ctx.hand.seat_wind, "round": ctx.hand.prevailing_wind}[wind]
    wanted = {prefix + SEAT_DIGIT[seat] for prefix in BONUS_PREFIXES[kind]}
    return sum(1 for t in ctx.bonus if t in wanted)


@rule_function("no_bonus_tiles")
def no_bonus_tiles(ctx: ScoringContext) -> int:
    """No flower or season at all (003's "No Flowers")."""
    return 0 if ctx.bonus else 1


__all__ = [
    "dragon_suit_hand",
    "each_set_has",
    "family_sets",
    "held_concealed",
    "hidden_treasure",
    "no_bonus_tiles",
    "no_points_hand",
    "set_count",
    "set_mix",
    "shifted_chows",
    "snake",
    "suit_sets",
    "wind_bonus",
    "wind_sets",
]
