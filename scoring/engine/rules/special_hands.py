"""The rule functions of special hands (004 Sheets 22-29): pung hands of a kind (Purity,
Fourfold Plenty, Imperial Jade...) and the special shapes (seven pairs, thirteen orphans, the
snake, gates of heaven, knitting), each registered with the shapes it accepts.
"""

from __future__ import annotations

from typing import Any

from ..context import (
    ScoringContext,
)
from ..tiles import (
    DRAGONS,
    HONOURS,
    MAJORS,
    SUIT_TILES,
    SUITS,
    WIND_CODES,
)
from .functions import (
    _kind_set,
    _selected,
    sets,
)
from .registry import rule_function

# -- special hands (004 Sheets 22-29) ---------------------------------------------------------

def _concealed_ok(ctx: ScoringContext, concealed: bool) -> bool:
    return ctx.all_concealed or not concealed


def _self_drawn_ok(ctx: ScoringContext) -> bool:
    # A fishing hand has no win yet: only a Mah Jong on a discard or robbed kong fails.
    facts = ctx.win_facts
    return "discard" not in facts and "robbed_kong" not in facts


def _standard_sets(ctx: ScoringContext, kind: Any) -> tuple[tuple, tuple] | None:
    """The four sets and the pair of a sets-and-a-pair hand whose sets are all ``kind``."""
    split = ctx.standard_split
    if split is None or not ctx.group_kinds <= _kind_set(kind):
        return None
    return split


@rule_function("four_sets", needs="standard_split")
def four_sets(ctx: ScoringContext, kind: Any = ("pung", "kong"), tiles: Any = None,
              pair: Any = None, one_suit: bool = False, concealed: bool = False) -> int:
    """Four sets of ``kind`` from ``tiles`` and a pair from ``pair`` (None: any tile), all of
    one suit when ``one_suit``, all concealed when ``concealed``."""
    found = _standard_sets(ctx, kind)
    if found is None:
        return 0
    selected = _selected(ctx, tiles)
    if selected is not None and not ctx.group_tiles <= selected:
        return 0
    pair_tiles = _selected(ctx, pair)
    if pair_tiles is not None and found[1][0].tile not in pair_tiles:
        return 0
    if one_suit and len(ctx.suits) != 1:
        return 0
    return 1 if _concealed_ok(ctx, concealed) else 0


@rule_function("purity", needs="pung_hand")
def purity(ctx: ScoringContext) -> int:
    """Four pungs/kongs and a pair all of one suit, no honours, no chows (Sheet 23)."""
    return four_sets(ctx, tiles="suit", pair="suit", one_suit=True)


@rule_function("fourfold_plenty", needs="pung_hand")
def fourfold_plenty(ctx: ScoringContext) -> int:
    """Four kongs and a pair (Sheet 25)."""
    return four_sets(ctx, kind="kong")


@rule_function("buried_treasure", needs="pung_hand")
def buried_treasure(ctx: ScoringContext, kongs: bool = False) -> int:
    """Four concealed pungs of one suit with winds/dragons, and a pair, all drawn from the
    wall; no kongs unless ``kongs`` (Sheet 25)."""
    kind = ("pung", "kong") if kongs else ("pung",)
    if not four_sets(ctx, kind=kind, one_suit=True, concealed=True):
        return 0
    return 1 if _self_drawn_ok(ctx) else 0


@rule_function("imperial_jade", needs="pung_hand")
def imperial_jade(ctx: ScoringContext, dragon_pung_required: bool = False) -> int:
    """Pungs/kongs and a pair of green tiles: green dragons and 2, 3, 4, 6, 8 bamboo
    (Sheet 26); whether a pung of green dragons is required is Sheet 31 item 9's question."""
    if not four_sets(ctx, tiles="green", pair="green"):
        return 0
    if dragon_pung_required and not sets(ctx, kind=("pung", "kong"), tiles="dg"):
        return 0
    return 1


@rule_function("all_winds_and_dragons", needs="pung_hand")
def all_winds_and_dragons(ctx: ScoringContext) -> int:
    """Four pungs/kongs and a pair of winds and dragons (Sheet 26)."""
    return four_sets(ctx, tiles="honour", pair="honour")


@rule_function("heads_and_tails", needs="pung_hand")
def heads_and_tails(ctx: ScoringContext) -> int:
    """Four pungs/kongs and a pair of ones and nines (Sheet 27)."""
    return four_sets(ctx, tiles="terminal", pair="terminal")


@rule_function("three_great_scholars", needs="pung_hand")
def three_great_scholars(ctx: ScoringContext, rest_one_suit: bool = True) -> int:
    """Pungs/kongs of all three dragons, and a pung/kong and a pair of one suit (Sheet 28)."""
    found = _standard_sets(ctx, ("pung", "kong"))
    if found is None:
        return 0
    groups, pair = found
    dragons = {s.tile for s in groups} & DRAGONS
    if len(dragons) != 3:
        return 0
    if rest_one_suit:
        rest = [s.tile for s in groups if s.tile not in dragons] + [pair[0].tile]
        if any(t not in SUIT_TILES for t in rest) or len({t[0] for t in rest}) != 1:
            return 0
    return 1


@rule_function("four_blessings", needs="pung_hand")
def four_blessings(ctx: ScoringContext) -> int:
    """Pungs/kongs of all four winds and a pair of any tile (Sheet 28)."""
    found = _standard_sets(ctx, ("pung", "kong"))
    if found is None:
        return 0
    return 1 if {s.tile for s in found[0]} == set(WIND_CODES) else 0


def _fourteen_concealed(ctx: ScoringContext, concealed: bool) -> bool:
    # Only a special shape of the arrangement search: a reading as sets is scored as sets.
    return ctx.special_shape and ctx.tile_count == 14 and _concealed_ok(ctx, concealed)


@rule_function("seven_pairs", needs="special_shape", shapes=("seven_pairs",))
def seven_pairs(ctx: ScoringContext, tiles: Any = None, concealed: bool = True) -> int:
    """Seven pairs from ``tiles`` (a set of four counts as two pairs)."""
    if not _fourteen_concealed(ctx, concealed):
        return 0
    if any(s.kind not in ("pair", "group") for s in ctx.sets if s.kind != "pair"):
        return 0
    if any(n % 2 for n in ctx.counts.values()):
        return 0
    selected = _selected(ctx, tiles)
    return 1 if selected is None or all(t in selected for t in ctx.counts) else 0


@rule_function("all_pair_honours", needs="special_shape", shapes=("seven_pairs",))
def all_pair_honours(ctx: ScoringContext, concealed: bool = True) -> int:
    """Seven pairs of ones, nines, winds or dragons (Sheet 22)."""
    return seven_pairs(ctx, tiles="major", concealed=concealed)


@rule_function("thirteen_orphans", needs="special_shape", shapes=("thirteen_orphans",))
def thirteen_orphans(ctx: ScoringContext, concealed: bool = True) -> int:
    """One of every major tile and one more major (Sheet 22, 13 Unique Wonders)."""
    if not _fourteen_concealed(ctx, concealed):
        return 0
    return 1 if set(ctx.counts) == MAJORS else 0


def _one_suit_run(ctx: ScoringContext) -> str | None:
    suits = ctx.suits
    return next(iter(suits)) if len(suits) == 1 else None


@rule_function("wriggling_snake", needs="special_shape", shapes=("snake",))
def wriggling_snake(ctx: ScoringContext, pair: str = "one", concealed: bool = True) -> int:
    """One of each wind, and 1 to 9 of one suit with a pair of ones (Sheet 23); Sheet 31
    item 8 asks whether the pair may be any tile of the suit: ``pair="any"``."""
    if not _fourteen_concealed(ctx, concealed):
        return 0
    suit = _one_suit_run(ctx)
    counts = ctx.counts
    if suit is None or any(counts.get(w) != 1 for w in WIND_CODES):
        return 0
    run = _NUMBERED[suit]
    if any(counts.get(run[n], 0) < 1 for n in range(1, 10)):
        return 0
    if pair == "one":
        return 1 if counts[run[1]] == 2 else 0
    return 1


# Each suit's tile codes by number (1-9; 0 unused): read instead of formatted each time.
_NUMBERED = {suit: ("",) + tuple(f"{suit}{n}" for n in range(1, 10)) for suit in SUITS}
_GATES_NEED = {1: 3, 9: 3, **{n: 1 for n in range(2, 9)}}
# Each number with its tile in the three suits: ((1, ("b1", "c1", "d1")), ...).
_BY_NUMBER = tuple((n, tuple(_NUMBERED[s][n] for s in SUITS)) for n in range(1, 10))


@rule_function("gates_of_heaven", needs="special_shape", shapes=("gates_of_heaven",))
def gates_of_heaven(ctx: ScoringContext, concealed: bool = True) -> int:
    """One suit: three ones, three nines, a run 2 to 8 and one more tile (Sheet 27)."""
    if not _fourteen_concealed(ctx, concealed) or ctx.has_honours:
        return 0
    suit = _one_suit_run(ctx)
    if suit is None:
        return 0
    counts = ctx.counts
    run = _NUMBERED[suit]
    return 1 if all(counts.get(run[n], 0) >= k for n, k in _GATES_NEED.items()) else 0


@rule_function("knitting", needs="special_shape", shapes=("knitting",))
def knitting(ctx: ScoringContext, concealed: bool = True) -> int:
    """Seven pairs, each the same number in two suits, using two suits only (Sheet 24)."""
    if not _fourteen_concealed(ctx, concealed) or ctx.has_honours or len(ctx.suits) != 2:
        return 0
    a, b = sorted(ctx.suits)
    counts = ctx.counts
    run_a, run_b = _NUMBERED[a], _NUMBERED[b]
    return 1 if all(counts.get(run_a[n], 0) == counts.get(run_b[n], 0)
                    for n in range(1, 10)) else 0


@rule_function("triple_knitting", needs="special_shape", shapes=("triple_knitting",))
def triple_knitting(ctx: ScoringContext, concealed: bool = True) -> int:
    """Four sets of one number in each of the three suits, and a pair of one number in two
    suits (Sheet 24)."""
    if not _fourteen_concealed(ctx, concealed) or ctx.has_honours or len(ctx.suits) != 3:
        return 0
    get = ctx.counts.get
    triples = 0
    paired = False
    # Each number's three tiles read from a fixed table (not formatted per number). What is
    # left over after each number's sets of three must be exactly two tiles, of one number in
    # two suits: one suit over the rest by one at one number, so anything else is no match.
    for _n, (b, c, d) in _BY_NUMBER:
        kb, kc, kd = get(b, 0), get(c, 0), get(d, 0)
        if kb == kc == kd:
            triples += kb
            continue
        t = min(kb, kc, kd)
        triples += t
        if paired or kb + kc + kd - 3 * t != 2 or max(kb, kc, kd) - t != 1:
            return 0
        paired = True
    return 1 if triples == 4 and paired else 0


@rule_function("unique_majors")
def unique_majors(ctx: ScoringContext) -> int:
    """Distinct major tiles held (for house rules that score partial orphans)."""
    return len([t for t in ctx.counts if t in MAJORS])


@rule_function("honour_tiles")
def honour_tiles(ctx: ScoringContext) -> int:
    """Winds and dragons held."""
    return sum(1 for t in ctx.tiles if t in HONOURS)
