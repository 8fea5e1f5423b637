"""A house rule's items made ready to call: the plan and the tables it keeps.

Each item is bound once to its rule function (or its fast form), with its prefilter, its
per-set or per-bonus test and the fact that gates it; the plan keeps, per house rule, each
set's matching items by the set's signature and the answers remembered by a deciding fact
(registered in ``memo``). ``score.py`` asks a plan for an arrangement's matches and scores them.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

from . import memo
from .context import (
    ALL_BITS,
    TILE_MASK,
    ScoringContext,
    set_tiles,
)
from .result import ScoreLine
from .rules.model import HouseRule, HouseRuleError, Item
from .rules.registry import REGISTRY, SetPredicate

# -- the plan: a house rule's items made ready to call ---------------------------------------

@dataclass(frozen=True)
class _Step:
    index: int  # the item's place in the house rule, which is also its line's place
    item: Item
    call: Callable[[ScoringContext], int]
    per_set: SetPredicate | None  # for items that count sets one by one
    # A cheap necessary condition of a match (functions.py's prefilters), or None.
    pre: Callable[[ScoringContext], bool] | None = None
    fast: bool = False  # ``call`` is the function's fast form, cheaper than a memo look-up
    # For items that count flowers and seasons one by one: the test of one tile and the seat.
    per_bonus: Callable[[str, str], bool] | None = None


class _Side:
    """The items that apply to the Mah Jong player, or to the others."""

    def __init__(self, steps: Sequence[_Step]):
        self.per_set = tuple(s for s in steps if s.per_set is not None)
        # The same for each kind of set: the steps whose test can match it (a test says which
        # kinds it can match as ``kinds``; one that does not is asked of every set).
        self.per_set_by_kind = {
            kind: tuple(s for s in self.per_set
                        if getattr(s.per_set, "kinds", None) is None or kind in s.per_set.kinds)
            for kind in _KIND_NUMBER}
        self.per_set_by_kind[None] = self.per_set
        # Items counted one flower or season at a time, and each tile's matches by the tile
        # and the seat's wind (a few dozen entries: kept as the per-set table is).
        self.per_bonus = tuple(s for s in steps if s.per_set is None and s.per_bonus is not None)
        self.bonus_hits: dict[tuple[str, str], tuple[int, ...]] = {}
        # The other items, grouped by the context fact they need (None: no gate) and the
        # fact that alone decides them (None: the whole arrangement); the per-bonus items
        # among them too, though they are counted from their table.
        groups: dict[tuple[str | None, str | None], list[_Step]] = {}
        for step in steps:
            if step.per_set is None:
                function = REGISTRY[step.item.rule]
                depends_on = function.depends_on
                if callable(depends_on):
                    depends_on = depends_on(**step.item.kwargs)
                groups.setdefault((function.needs, depends_on), []).append(step)
        self.whole = tuple((gate, key, tuple(group)) for (gate, key), group in groups.items())
        # As ``whole`` less the per-bonus items, with each group's prefilters when every step
        # of it has one: when none passes, the group is skipped before its deciding fact is
        # worked out. Each step also as a tuple (index, call, prefilter, step), read faster.
        asked = [(gate, key, tuple(s for s in group if s.per_bonus is None))
                 for gate, key, group in self.whole]
        self.groups = tuple(
            (gate, key, steps, _group_prefilters(steps),
             tuple((s.index, s.call, s.pre, s) for s in steps))
            for gate, key, steps in asked if steps)
        # Which per-set items a set matches, by the set and whether its tile is the player's
        # own wind or the round's (all a per-set test may ask of the winds); the same sets
        # recur in hand after hand.
        self.set_hits: dict[tuple, tuple[int, ...]] = {}
        # The same entries by the set object's identity, in a table for each pair of own
        # and round winds (see _set_facts).
        self.set_ident: dict[tuple[str, str], dict[int, tuple]] = {}
        # A keyed group's matches, by the group and the value of its deciding fact.
        self.keyed_hits: dict[tuple, tuple[tuple[int, int], ...]] = {}

    def counts(self, ctx: ScoringContext) -> dict[int, int]:
        """How many times each matching item matched, by the item's index."""
        counts = _set_facts(ctx, self.set_hits, self.per_set_by_kind, self.set_ident)
        bonus = ctx.bonus
        if bonus and self.per_bonus:
            seat = ctx.hand.seat_wind
            table = self.bonus_hits
            for tile in bonus:
                hits = table.get((tile, seat))
                if hits is None:
                    hits = self._bonus_entry(tile, seat)
                for i in hits:
                    counts[i] = counts.get(i, 0) + 1
        for gate, key, steps, pres, asked in self.groups:
            if gate is not None and not getattr(ctx, gate):
                continue
            if pres is not None:
                for pre in pres:
                    if pre(ctx):
                        break
                else:
                    continue  # nothing can match: no need to work out the deciding fact
            if key is None:
                for index, call, pre, step in asked:
                    if pre is not None and not pre(ctx):
                        continue
                    try:
                        n = call(ctx)
                    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                        raise _bad_arguments(step, exc) from exc
                    if n:
                        counts[index] = n
            else:
                memo_key = (key, getattr(ctx, key))
                found = self.keyed_hits.get(memo_key)
                if found is None:
                    found = self.keyed_hits[memo_key] = _call(steps, ctx)
                for i, n in found:
                    counts[i] = n
        return counts


    def _bonus_entry(self, tile: str, seat: str) -> tuple[int, ...]:
        """The per-bonus items one flower or season matches, for a player in ``seat``."""
        hits = []
        for step in self.per_bonus:
            try:
                if step.per_bonus(tile, seat):
                    hits.append(step.index)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                raise _bad_arguments(step, exc) from exc
        if len(self.bonus_hits) > _SETS_KEPT:
            self.bonus_hits.clear()
        found = self.bonus_hits[tile, seat] = tuple(hits)
        return found


_KIND_NUMBER = {"pung": 0, "kong": 1, "chow": 2, "pair": 3, "group": 4}


def _group_prefilters(steps: Sequence[_Step]) -> tuple | None:
    """A group's prefilters, one of which must pass for any step to match; None when a step
    has none. Prefilters that each need one of some win facts (``win_facts`` on them) are
    asked as one: does the hand have any of all their facts."""
    pres = tuple(s.pre for s in steps)
    if any(pre is None for pre in pres):
        return None
    if all(getattr(pre, "win_facts", None) for pre in pres):
        facts = frozenset().union(*(pre.win_facts for pre in pres))
        return (lambda ctx: not ctx.win_facts.isdisjoint(facts),)
    # Prefilters that each need some tile-class bits on every tile or on some tile (``masks``
    # on them; most special hands') are asked as one test of the masks, the others each.
    masks = tuple(pre.masks for pre in pres if getattr(pre, "masks", None) is not None)
    if len(masks) > 1:
        def any_masks(ctx: ScoringContext) -> bool:
            every, some = ctx.tile_all, ctx.tile_any
            for all_bits, any_bits in masks:
                if every & all_bits == all_bits and some & any_bits == any_bits:
                    return True
            return False

        any_masks.masks_of = masks
        return (any_masks, *(pre for pre in pres if getattr(pre, "masks", None) is None))
    return pres


def _set_facts(ctx: ScoringContext, memo: dict, per_set: Sequence[_Step] | dict,
               by_set: dict[int, tuple]) -> dict[int, int]:
    """One pass over the arrangement's sets: the per-set items' matches (the returned counts,
    by item index) and, set on ``ctx``, the facts the prefilters and fast forms read (the
    tile-class masks, the number of sets of each kind, whether all are concealed). Each set
    is looked up in ``memo`` by its signature (kind, tile, concealed, how, wild, and whether
    its tile is the player's own wind or the round's, all a per-set test may ask): its items,
    its tile-class masks and its kind; and, first, in ``by_set`` by the winds and the set
    object itself."""
    counts: dict[int, int] = {}
    own, round_ = ctx.own_wind, ctx.round_wind
    every, some = ALL_BITS, 0
    kinds = [0, 0, 0, 0, 0]
    n_tiles = 0
    concealed = True
    # Most sets are shared objects (the search's tables): found by identity first, in the
    # table of the hand's own and round winds (all a per-set test may ask of them); the
    # entry holds the set, so that its id is not reused while the entry lives.
    ident = by_set.get((own, round_))
    if ident is None or len(ident) > _SETS_KEPT:
        ident = by_set[own, round_] = {}
    for s in ctx.sets:
        entry = ident.get(id(s))
        if entry is None or entry[0] is not s:
            entry = ident[id(s)] = _ident_entry(s, own, round_, memo, per_set)
        _s, hits, set_all, set_any, kind, size, exposed = entry
        for i in hits:
            counts[i] = counts.get(i, 0) + 1
        every &= set_all
        some |= set_any
        kinds[kind] += 1
        n_tiles += size
        if exposed:
            concealed = False
    loose = ctx.loose
    if loose:
        loose_all, loose_any = _masks(loose)
        every &= loose_all
        some |= loose_any
    ctx.know_set_facts(n_tiles + len(loose), every, some, kinds, concealed)
    return counts


_SETS_KEPT = 20_000


def _ident_entry(s, own: str, round_: str, memo: dict, per_set) -> tuple:
    """A set's entry in _set_facts' table by identity: the set, then its per-set items,
    tile-class masks, kind, number of tiles and whether it is exposed, from the table by its
    signature (kind, tile, concealed, how, wild, and whether its tile is the player's own
    wind or the round's: all a per-set test may ask)."""
    tile = s.tile
    key = (s.kind, tile, s.concealed, s.how, s.wild, tile == own, tile == round_)
    entry = memo.get(key)
    if entry is None:
        entry = memo[key] = _set_entry(s, own, round_, per_set)
    if entry[1] is None:  # a special shape's group: the masks of its own tiles
        tiles = set_tiles(s)
        entry = (entry[0], *_masks(tiles), entry[3], len(tiles))
    return (s, *entry, not s.concealed)


def _masks(tiles: Iterable[str]) -> tuple[int, int]:
    """The class bits all of ``tiles`` have, and those any has."""
    every, some = ALL_BITS, 0
    for t in tiles:
        m = TILE_MASK.get(t, 0)
        every &= m
        some |= m
    return every, some


def _set_entry(s, own: str, round_: str, per_set: Sequence[_Step] | dict) -> tuple:
    """A set's per-set items, tile-class masks, kind and number of tiles (the masks and size
    of a group are its own: None here). ``per_set``: the per-set steps, or them by kind."""
    if isinstance(per_set, dict):  # by kind; None: every step, for a kind of no other key
        per_set = per_set.get(s.kind, per_set[None])
    hits = tuple(step.index for step in per_set if step.per_set(s, own, round_))
    if s.kind == "group":
        return hits, None, None, 4, None
    tiles = set_tiles(s)
    return (hits, *_masks(tiles), _KIND_NUMBER.get(s.kind, 4), len(tiles))


def _call(steps: Sequence[_Step], ctx: ScoringContext) -> tuple[tuple[int, int], ...]:
    """(item index, matches) for each of ``steps`` that matches."""
    found = []
    for step in steps:
        pre = step.pre
        if pre is not None and not pre(ctx):
            continue
        try:
            n = step.call(ctx)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            raise _bad_arguments(step, exc) from exc
        if n:
            found.append((step.index, n))
    return tuple(found)


def _bad_arguments(step: _Step, exc: Exception) -> HouseRuleError:
    """A stored house rule whose item arguments are of the wrong kind (a number where tile
    names belong...): the house rule's error, with the item's path, not a crash."""
    return HouseRuleError({f"items[{step.index}].args": [
        f"{step.item.rule} cannot use {dict(step.item.args)!r} ({type(exc).__name__}: {exc})."
    ]})


class _Plan:
    """A house rule's items as parallel tuples, bound to their rule functions."""

    def __init__(self, rule: HouseRule, steps: Sequence[_Step]):
        items = rule.items
        self.items = items
        self.codes = tuple(item.code for item in items)
        self.points = tuple(item.points for item in items)
        self.doubles = tuple(item.doubles for item in items)
        limit = rule.scoring.limit
        # A special hand's value and its words; None for ordinary items, and for special
        # hands under a house rule with no limit to take a part of.
        self.special_value = tuple(
            int(limit * item.limit) if item.limit is not None and limit is not None else None
            for item in items)
        self.limit_words = tuple(limit_words(item.limit) if item.limit is not None else None
                                 for item in items)
        # Each special hand's line (its value, no doubles), made once: a line is frozen.
        self.special_lines = tuple(
            ScoreLine(item.code, item.wording, value, 0, 1) if value is not None else None
            for item, value in zip(items, self.special_value, strict=True))
        self.bonus = tuple(REGISTRY[item.rule].bonus for item in items)
        index = {item.code: i for i, item in enumerate(items)}
        self.replaces = tuple(tuple(index[c] for c in item.replaces if c in index)
                              for item in items)
        # Special hands scored by doubles and capped at the limit (Purity under 004).
        self.capped = tuple(item.capped_at_limit and limit is not None for item in items)
        self.role = tuple(_SPECIAL if value is not None
                          else _REPLACING if replaced or capped else _ORDINARY
                          for value, replaced, capped in zip(self.special_value, self.replaces,
                                                             self.capped, strict=True))
        # The items that neither score as a special hand nor replace others: when every
        # match is one of them, a tally keeps them all (_tally's common case).
        self.ordinary = frozenset(i for i, r in enumerate(self.role) if r == _ORDINARY)
        self.winner = _Side([s for s in steps if s.item.who in ("all", "mahjong")])
        # The Mah Jong player's items that accept a special shape as a whole hand, each with
        # the shapes it accepts: a special shape no matching item accepts is no Mah Jong.
        self.shape_items = tuple((s.index, _accepted_shapes(s.item))
                                 for s in steps if s.item.who in ("all", "mahjong")
                                 and REGISTRY[s.item.rule].shapes is not None)
        self.loser = _Side([s for s in steps if s.item.who in ("all", "losers")])
        # Special hands with a part-score for fishing, each with the fact it needs.
        self.fishing = tuple((s, REGISTRY[s.item.rule].needs) for s in steps
                             if s.item.fishing_limit is not None or s.item.fishing_doubles)
        # The same in runs of one gate, in the house rule's order (which settles ties): a
        # gate that fails skips its run at once. Each step with its code and prefilter.
        runs: list[tuple[str | None, list]] = []
        for step, gate in self.fishing:
            if not runs or runs[-1][0] != gate:
                runs.append((gate, []))
            runs[-1][1].append((step.item.code, step.pre, step))
        self.fishing_groups = tuple((gate, tuple(run)) for gate, run in runs)
        # When every fishing hand needs a pung hand or a special shape, a completion's
        # standard readings with a chow can match none of them: they need not be read.
        self.fishing_pungs_only = all(gate in ("pung_hand", "special_shape")
                                      for _step, gate in self.fishing)
        # Each part of the limit for fishing, its words and its line, by the item's index:
        # worked out once, as Fraction arithmetic is dear.
        self.fishing_parts: dict[int, tuple[int, str, ScoreLine]] = {}
        for step, _gate in self.fishing:
            item = step.item
            if item.fishing_limit is not None and limit is not None:
                part = int(limit * item.fishing_limit)
                self.fishing_parts[step.index] = (
                    part, f"{limit_words(item.fishing_limit)} (fishing for {short_name(item)})",
                    ScoreLine(item.code, f"Fishing for {item.wording}", part, 0, 1))
        # The note of each fishing hand's extra doubles (Purity's), made once.
        self.fishing_notes = {
            step.index: ScoreLine(step.item.code, f"Fishing for {step.item.wording}", 0,
                                  step.item.fishing_doubles, 1)
            for step, _gate in self.fishing if step.item.fishing_doubles}
        # Each item's line by its number of matches (False: worth nothing), with the doubles
        # shown or not (003 counts points only).
        self.lines: dict[bool, tuple[dict[int, ScoreLine | bool], ...]] = {
            use: tuple({} for _ in items) for use in (False, True)}


def _prepare(rule: HouseRule) -> _Plan:
    """Bind every item to its rule function once, so scoring a hand does no lookups; an
    unknown function or argument is the house rule's error, reported with its path."""
    errors: dict[str, list[str]] = {}
    steps: list[_Step] = []
    for i, item in enumerate(rule.items):
        function = REGISTRY.get(item.rule)
        if function is None:
            errors.setdefault(f"items[{i}].rule", []).append(
                f"Unknown rule function {item.rule!r}; known: {', '.join(sorted(REGISTRY))}.")
            continue
        fn = function.match
        kwargs = item.kwargs
        problem = _argument_problem(fn, kwargs)
        if problem:
            errors.setdefault(f"items[{i}].args", []).append(f"{item.rule}: {problem}.")
            continue
        if _worthless(item):
            continue
        call = partial(fn, **kwargs) if kwargs else fn
        factory = function.per_set
        try:
            per_set = factory(**kwargs) if factory else None
        except (TypeError, ValueError) as exc:
            errors.setdefault(f"items[{i}].args", []).append(f"{item.rule}: {exc}.")
            continue
        fast = _hint(function.fast, kwargs)
        per_bonus = None if per_set else _hint(function.per_bonus, kwargs)
        steps.append(_Step(i, item, fast or call, per_set, _hint(function.prefilter, kwargs),
                           fast is not None, per_bonus))
    if errors:
        raise HouseRuleError(errors)
    return _Plan(rule, steps)


def _accepted_shapes(item: Item) -> tuple[str, ...]:
    shapes = REGISTRY[item.rule].shapes
    if callable(shapes):
        try:
            return tuple(shapes(**item.kwargs))
        except (TypeError, ValueError):
            return ()  # arguments the function rejects: reported when it is called
    return shapes


def _hint(factory: Callable | None, kwargs: dict):
    """A rule function's fast form, prefilter or per-bonus test for these arguments, or None
    (arguments it was not made for are left to the rule function itself, which reports
    them)."""
    if factory is None:
        return None
    try:
        return factory(**kwargs)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None


def _worthless(item: Item) -> bool:
    """An item that can change nothing (004's chow, 0 points; the East double left off):
    checked for mistakes like any other, but not asked about every hand."""
    return not (item.points or item.doubles or item.limit is not None or item.replaces
                or item.fishing_limit is not None or item.fishing_doubles)


def _argument_problem(fn: Callable, kwargs: dict) -> str | None:
    """What is wrong with calling ``fn(ctx, **kwargs)``, read from its code, or None."""
    code = getattr(fn, "__code__", None)
    if code is None or code.co_flags & inspect.CO_VARKEYWORDS:
        return None
    names = code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]
    unknown = sorted(set(kwargs) - set(names))
    if unknown:
        return (f"no argument {', '.join(map(repr, unknown))}; it takes "
                f"{', '.join(names) or 'none'}")
    required = names[:code.co_argcount - 1 - len(fn.__defaults__ or ())]
    missing = [name for name in required if name not in kwargs]
    if missing:
        return f"it needs {', '.join(map(repr, missing))}"
    return None


# Keyed by identity: hashing a house rule would walk all its items on every hand. Holding the
# rule in the entry keeps its id from being reused while the entry lives.
_PLANS: OrderedDict[int, tuple[HouseRule, _Plan]] = memo.table("score: prepared plans",
                                                                 factory=OrderedDict)
_PLANS_KEPT = 64


def plan_for(rule: HouseRule) -> _Plan:
    entry = _PLANS.get(id(rule))
    if entry is not None and entry[0] is rule:
        return entry[1]
    plan = _prepare(rule)
    _PLANS[id(rule)] = (rule, plan)
    if len(_PLANS) > _PLANS_KEPT:
        _PLANS.popitem(last=False)
    return plan


def _forget_answers_by_hand() -> None:
    """Forget what each prepared plan remembered of particular hands (a group's matches by
    the hand's flowers or win), keeping its per-set match table and its shared lines: those
    depend only on the rule and on one set or one item at a time."""
    for _rule, plan in _PLANS.values():
        plan.winner.keyed_hits.clear()
        plan.loser.keyed_hits.clear()


memo.register("score: plans' answers by a hand's facts", memo.HAND, _forget_answers_by_hand)


# -- words for limits ------------------------------------------------------------------------

_FRACTION_WORDS = {
    Fraction(1): "limit",
    Fraction(1, 2): "half limit",
    Fraction(1, 4): "a quarter of the limit",
    Fraction(3, 4): "three quarters of the limit",
    Fraction(1, 3): "a third of the limit",
    Fraction(2, 3): "two thirds of the limit",
    Fraction(1, 5): "one fifth of the limit",
    Fraction(2, 5): "two fifths of the limit",
    Fraction(3, 5): "three fifths of the limit",
}


def limit_words(fraction: Fraction) -> str:
    words = _FRACTION_WORDS.get(fraction)
    if words is not None:
        return words
    if fraction > 1:
        return f"{fraction} times the limit"
    return f"{fraction.numerator}/{fraction.denominator} of the limit"


def short_name(item: Item) -> str:
    """The special hand's name: its wording up to any explanation."""
    return item.wording.split(":")[0].split(" (")[0].strip()


# An item's part in a tally (_Plan.role).
_ORDINARY, _SPECIAL, _REPLACING = 0, 1, 2
