"""Score a hand under a house rule: the orchestrator.

For each arrangement of the hand, every item of the house rule is asked how often it matches
(``RULE_FUNCTIONS[item.rule](ctx, **item.kwargs)``); the matches become ``ScoreLine``s and the
lines a score. Nothing here knows a particular rule: the order, the worth and the wording of
every item are the house rule's data. The best-scoring arrangement is kept.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

from . import memo
from .arrange import arrangements as find_arrangements
from .arrange import completions as find_completions
from .arrange import valid_plain_arrangements
from .context import (
    ALL_BITS,
    TILE_MASK,
    ScoringContext,
    set_tiles,
)
from .errors import HandError, Problem
from .hand import Arrangement, Hand, Meld
from .rules.functions import (
    BONUS_RULE_FUNCTIONS,
    PER_BONUS_RULE_FUNCTIONS,
    PER_SET_RULE_FUNCTIONS,
    RULE_FUNCTION_FAST,
    RULE_FUNCTION_GATES,
    RULE_FUNCTION_KEYS,
    RULE_FUNCTION_PREFILTERS,
    RULE_FUNCTION_SHAPES,
    RULE_FUNCTIONS,
    SPECIAL_SHAPES,
    SetPredicate,
)
from .rules.model import HouseRule, HouseRuleError, Item
from .validate import validate_hand


@dataclass(frozen=True)
class ScoreLine:
    """One item that gave points or doubles, in the house rule's words."""

    code: str
    name: str
    points: int
    doubles: int
    count: int = 1


@dataclass(frozen=True)
class ScoreResult:
    """A hand's value before any payment rule, and how it was reached (docs/ARCHITECTURE.md).

    ``score`` is ``points x 2^doubles`` unless ``limit`` names the limit that capped or set it.
    ``lines`` hold every item that gave points or doubles; ``item_codes`` every item that
    matched, whatever it was worth.
    """

    points: int
    doubles: int
    score: int
    limit: str | None
    lines: tuple[ScoreLine, ...]
    arrangement: tuple[Meld, ...]
    shape: str
    mahjong: bool
    meets_minimum: bool = True
    minimum_reason: str | None = None
    fishing_for: str | None = None
    special: str | None = None
    item_codes: frozenset[str] = field(default_factory=frozenset)
    loose: tuple[str, ...] = ()


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
                rule = step.item.rule
                depends_on = RULE_FUNCTION_KEYS.get(rule)
                if callable(depends_on):
                    depends_on = depends_on(**step.item.kwargs)
                groups.setdefault((RULE_FUNCTION_GATES.get(rule), depends_on), []).append(step)
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
        self.bonus = tuple(item.rule in BONUS_RULE_FUNCTIONS for item in items)
        index = {item.code: i for i, item in enumerate(items)}
        self.replaces = tuple(tuple(index[c] for c in item.replaces if c in index)
                              for item in items)
        self.role = tuple(_SPECIAL if value is not None else _REPLACING if replaced else _ORDINARY
                          for value, replaced in zip(self.special_value, self.replaces,
                                                     strict=True))
        # The items that neither score as a special hand nor replace others: when every
        # match is one of them, a tally keeps them all (_tally's common case).
        self.ordinary = frozenset(i for i, r in enumerate(self.role) if r == _ORDINARY)
        self.winner = _Side([s for s in steps if s.item.who in ("all", "mahjong")])
        # The Mah Jong player's items that accept a special shape as a whole hand, each with
        # the shapes it accepts: a special shape no matching item accepts is no Mah Jong.
        self.shape_items = tuple((s.index, _accepted_shapes(s.item))
                                 for s in steps if s.item.who in ("all", "mahjong")
                                 and s.item.rule in RULE_FUNCTION_SHAPES)
        self.loser = _Side([s for s in steps if s.item.who in ("all", "losers")])
        # Special hands with a part-score for fishing, each with the fact it needs.
        self.fishing = tuple((s, RULE_FUNCTION_GATES.get(s.item.rule)) for s in steps
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
        fn = RULE_FUNCTIONS.get(item.rule)
        if fn is None:
            errors.setdefault(f"items[{i}].rule", []).append(
                f"Unknown rule function {item.rule!r}; known: {', '.join(sorted(RULE_FUNCTIONS))}."
            )
            continue
        kwargs = item.kwargs
        problem = _argument_problem(fn, kwargs)
        if problem:
            errors.setdefault(f"items[{i}].args", []).append(f"{item.rule}: {problem}.")
            continue
        if _worthless(item):
            continue
        call = partial(fn, **kwargs) if kwargs else fn
        factory = PER_SET_RULE_FUNCTIONS.get(item.rule)
        try:
            per_set = factory(**kwargs) if factory else None
        except (TypeError, ValueError) as exc:
            errors.setdefault(f"items[{i}].args", []).append(f"{item.rule}: {exc}.")
            continue
        fast = _hint(RULE_FUNCTION_FAST, item.rule, kwargs)
        per_bonus = None if per_set else _hint(PER_BONUS_RULE_FUNCTIONS, item.rule, kwargs)
        steps.append(_Step(i, item, fast or call, per_set,
                           _hint(RULE_FUNCTION_PREFILTERS, item.rule, kwargs), fast is not None,
                           per_bonus))
    if errors:
        raise HouseRuleError(errors)
    return _Plan(rule, steps)


def _accepted_shapes(item: Item) -> tuple[str, ...]:
    shapes = RULE_FUNCTION_SHAPES[item.rule]
    if callable(shapes):
        try:
            return tuple(shapes(**item.kwargs))
        except (TypeError, ValueError):
            return ()  # arguments the function rejects: reported when it is called
    return shapes


def _hint(registry: dict, rule: str, kwargs: dict):
    """A fast form or prefilter of ``rule`` for these arguments, or None (arguments it was not
    made for are left to the rule function itself, which reports them)."""
    factory = registry.get(rule)
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


# -- scoring one arrangement ------------------------------------------------------------------

@dataclass(slots=True)
class _Scored:
    """One arrangement's score; its lines are written out only for the arrangement kept."""

    points: int
    doubles: int
    score: int
    limit: str | None
    arrangement: Arrangement
    counts: dict[int, int]
    kept: tuple[int, ...]  # items shown as lines, in the house rule's order
    special: int = -1  # the special hand scored, by index
    special_value: int = 0  # its part of the limit
    dropped: frozenset[int] = frozenset()  # items another one replaced
    lines: tuple[ScoreLine, ...] | None = None  # when given, instead of the kept items'

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.score, self.points, self.doubles)


def _value(points: int, doubles: int, use_doubles: bool) -> int:
    # 003 counts points only; its items' doubles are already dropped from the lines.
    return points * 2 ** doubles if use_doubles else points


def _tally(plan: _Plan, params, counts: dict[int, int], arrangement: Arrangement) -> _Scored:
    if plan.ordinary.issuperset(counts):
        # Neither a special hand nor an item that replaces another: every match is kept, in
        # the house rule's order, as the loop below would keep them.
        return _ordinary(plan, params, counts, sorted(counts), arrangement, _NONE_DROPPED)
    values = plan.special_value
    replaces = plan.replaces
    role = plan.role
    special = -1
    dropped: frozenset[int] = _NONE_DROPPED
    kept = []
    for i in counts:
        r = role[i]
        if r == _ORDINARY:
            kept.append(i)
        elif r == _SPECIAL:
            # The highest-valued special hand wins; on a tie, the one listed first.
            value = values[i]
            if special < 0 or value > values[special] or (
                    value == values[special] and i < special):
                special = i
        else:  # an ordinary item that replaces others
            kept.append(i)
            dropped = dropped.union(replaces[i])
    if dropped:
        kept = [i for i in kept if i not in dropped]
    kept.sort()
    ordinary = _ordinary(plan, params, counts, kept, arrangement, dropped)
    if special < 0:
        return ordinary
    limit_hand = _limit_hand(plan, params, counts, kept, arrangement, special, dropped)
    if (params.special_or_ordinary_if_greater and arrangement.shape == "standard"
            and ordinary.key > limit_hand.key):
        return ordinary
    return limit_hand


# An item's part in a tally (_Plan.role).
_ORDINARY, _SPECIAL, _REPLACING = 0, 1, 2
_NONE_DROPPED: frozenset[int] = frozenset()


def _sums(plan: _Plan, counts: dict[int, int], indices: list[int]) -> tuple[int, int]:
    """The points and the doubles of ``indices``' items, each times its matches."""
    worth, doubling = plan.points, plan.doubles
    points = doubles = 0
    for i in indices:
        n = counts[i]
        points += n * worth[i]
        doubles += n * doubling[i]
    return points, doubles


def _ordinary(plan: _Plan, params, counts: dict[int, int], kept: list[int],
              arrangement: Arrangement, dropped: frozenset[int]) -> _Scored:
    use_doubles = params.use_doubles
    points, doubles = _sums(plan, counts, kept)
    if use_doubles:
        score = points * 2 ** doubles
    else:
        doubles = 0
        score = points
    score, limit = _capped(params, score, None)
    return _Scored(points, doubles, score, limit, arrangement, counts, tuple(kept), -1, 0,
                   dropped)


def _capped(params, score: int, limit: str | None) -> tuple[int, str | None]:
    """The score and its limit words after the house rule's cap: where every hand is capped
    (``cap_ordinary_hands``, 002), no score passes the limit, whatever path reached it (an
    ordinary hand, flowers on top of a limit hand, a fishing part-score or Purity's fishing
    doubles: issue #11)."""
    if params.cap_ordinary_hands and params.limit is not None and score > params.limit:
        return params.limit, "limit"
    return score, limit


def _limit_hand(plan: _Plan, params, counts: dict[int, int], kept: list[int],
                arrangement: Arrangement, special: int, dropped: frozenset[int]) -> _Scored:
    use_doubles = params.use_doubles
    value = plan.special_value[special]
    # 004 Sheet 21 item 6: flowers and seasons on top, their own doubles applying to the
    # flower total only; nothing else of the ordinary score counts.
    bonus = [i for i in kept if plan.bonus[i]] if params.limit_hand_adds_bonus_tiles else []
    points, doubles = _sums(plan, counts, bonus)
    if not use_doubles:
        doubles = 0
    score, limit = _capped(params, value + _value(points, doubles, use_doubles),
                           plan.limit_words[special])
    return _Scored(value + points, doubles, score, limit, arrangement, counts, tuple(bonus),
                   special, value, dropped)


def _lines(plan: _Plan, scored: _Scored, use_doubles: bool) -> tuple[ScoreLine, ...]:
    if scored.lines is not None:
        return scored.lines
    out = []
    if scored.special >= 0:
        line = plan.special_lines[scored.special]
        if line.points != scored.special_value:  # not the plan's value: a line of its own
            item = plan.items[scored.special]
            line = ScoreLine(item.code, item.wording, scored.special_value, 0, 1)
        out.append(line)
    out.extend(_item_lines(plan, scored.counts, scored.kept, use_doubles))
    return tuple(out)


def _item_lines(plan: _Plan, counts: dict[int, int], indices: Iterable[int],
                use_doubles: bool) -> list[ScoreLine]:
    out = []
    memo = plan.lines[use_doubles]
    for i in indices:
        n = counts[i]
        line = memo[i].get(n)
        if line is None:
            item = plan.items[i]
            points = n * item.points
            doubles = n * item.doubles if use_doubles else 0
            # A line is frozen, so the same one serves every hand that earns it.
            line = memo[i][n] = (ScoreLine(item.code, item.wording, points, doubles, n)
                                 if points or doubles else False)
        if line:
            out.append(line)
    return out


def _codes(plan: _Plan, scored: _Scored) -> frozenset[str]:
    """Every item that matched and was not replaced, whatever it was worth."""
    codes = plan.codes
    if not scored.dropped:
        return frozenset(map(codes.__getitem__, scored.counts))
    return frozenset(codes[i] for i in scored.counts if i not in scored.dropped)


def _best(plan: _Plan, side: _Side, hand: Hand, rule: HouseRule,
          arrangements: Iterable[Arrangement], is_winner: bool) -> _Scored:
    """The best-scoring arrangement. A Mah Jong read as a special shape counts only when one
    of the house rule's own special hands accepts it; when no reading is left, the hand is
    refused with what it is and what the house rule would need."""
    best: _Scored | None = None
    params = rule.scoring
    refused: list[str] = []
    for arrangement in arrangements:
        ctx = ScoringContext(hand, rule, arrangement, is_winner)
        counts = side.counts(ctx)
        shape = arrangement.shape
        if is_winner and shape in SPECIAL_SHAPES and not _shape_accepted(plan, shape, counts):
            refused.append(shape)
            continue
        scored = _tally(plan, params, counts, arrangement)
        if best is None or (scored.score, scored.points, scored.doubles) > (
                best.score, best.points, best.doubles):
            best = scored
    if best is None:
        raise HandError([Problem("concealed", "shape_not_in_house_rule",
                                 _shape_refusal(plan, refused))])
    return best


def _shape_accepted(plan: _Plan, shape: str, counts: dict[int, int]) -> bool:
    return any(i in counts and shape in shapes for i, shapes in plan.shape_items)


def _shape_refusal(plan: _Plan, shapes: list[str]) -> str:
    """Why a hand read only as special shapes is no Mah Jong under this house rule."""
    found = " or ".join(dict.fromkeys(SPECIAL_SHAPES[s] for s in shapes))
    wanted = sorted({plan.items[i].wording for i, accepted in plan.shape_items
                     if any(s in accepted for s in shapes)})
    needs = (f"its special hands of that shape are: {'; '.join(wanted)}" if wanted else
             "it has no special hand of that shape, only four sets and a pair and its other "
             "special hands")
    return (f"Not a valid Mah Jong under this house rule: these tiles make {found}, which "
            f"none of its special hands accepts ({needs}). Check the tiles, or send "
            "\"mahjong\": false.")


# -- fishing (004 Sheets 21-29) ---------------------------------------------------------------

def _fishing(hand: Hand, rule: HouseRule, plan: _Plan, actual: _Scored,
             completions: Iterable[tuple[str, Sequence[Arrangement]]]
             ) -> tuple[_Scored, str] | None:
    """The part-score of a losing hand one tile short of a special hand, or None.

    Each special hand with a part-score is tried on every completed arrangement; its part of
    the limit (with flowers on top, as for a limit hand), or its extra doubles on the hand's own
    score, or the greater of the part and the actual value where the house rule says so,
    becomes the score. The best of them is kept.
    """
    best: tuple[_Scored, str] | None = None
    tried: set[str] = set()
    loser = plan.loser
    groups = plan.fishing_groups
    # Completions read for pung hands and special shapes only each pass a gate: their facts
    # are worked out at once, and the pung_hand gate read from them.
    eager = plan.fishing_pungs_only
    for _tile, arrangements in completions:
        if len(tried) == len(plan.fishing):
            break  # every special hand found: nothing more to find
        for arrangement in arrangements:
            ctx = ScoringContext(hand, rule, arrangement, False)
            facts = eager  # else worked out once a gate lets a special hand be asked
            if eager:
                _set_facts(ctx, loser.set_hits, loser.per_set_by_kind, loser.set_ident)
            for gate, steps in groups:
                if gate is not None and not getattr(ctx, gate):
                    continue
                for code, pre, step in steps:
                    if code in tried:
                        continue
                    if not facts:
                        _set_facts(ctx, loser.set_hits, loser.per_set_by_kind, loser.set_ident)
                        facts = True
                    if pre is not None and not pre(ctx):
                        continue
                    try:
                        if not step.call(ctx):
                            continue
                    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                        raise _bad_arguments(step, exc) from exc
                    # A part-score does not depend on the tile that completes the hand.
                    tried.add(code)
                    candidate = _fishing_value(plan, step, rule.scoring, actual)
                    if candidate is not None and (best is None or candidate.key > best[0].key):
                        best = (candidate, code)
    return best


def _changed(actual: _Scored, points: int, doubles: int, score: int, limit: str | None,
             lines: tuple[ScoreLine, ...]) -> _Scored:
    """``actual`` with another value and lines (dataclasses.replace, without its lookups)."""
    return _Scored(points, doubles, score, limit, actual.arrangement, actual.counts, actual.kept,
                   actual.special, actual.special_value, actual.dropped, lines)


def _fishing_value(plan: _Plan, step: _Step, params, actual: _Scored) -> _Scored | None:
    item = step.item
    use_doubles = params.use_doubles
    fishing_part = plan.fishing_parts.get(step.index)
    if fishing_part is not None:  # a part of the limit (item.fishing_limit, under a limit)
        part, label, line = fishing_part
        lines = [line]
        points, doubles, score = part, 0, part
        kept_bonus = ([i for i in actual.kept if plan.bonus[i]]
                      if params.limit_hand_adds_bonus_tiles else None)
        if kept_bonus:  # without flowers or seasons there is nothing to add
            # As for a limit hand (004 Sheet 21 item 6): flowers on top of the part-score.
            bonus = _item_lines(plan, actual.counts, kept_bonus, use_doubles)
            lines += bonus
            for ln in bonus:
                points += ln.points
                doubles += ln.doubles
            score += _value(points - part, doubles, use_doubles)
            score, label = _capped(params, score, label)
        if item.fishing_actual_if_greater and actual.score > score:
            # 004 Sheet 28: "or actual hand value, whichever is the greater".
            note = ScoreLine(item.code, f"Fishing for {item.wording}: the actual value is "
                             f"greater than {label}", 0, 0, 1)
            return _changed(actual, actual.points, actual.doubles, actual.score, actual.limit,
                            (*_lines(plan, actual, use_doubles), note))
        return _changed(actual, points, doubles, score, label, tuple(lines))
    if item.fishing_doubles and use_doubles:
        # 004 Sheet 23 (Purity): "Fishing also gets three doubles" on the hand's own points.
        doubles = actual.doubles + item.fishing_doubles
        note = plan.fishing_notes[step.index]
        score, limit = _capped(params, actual.points * 2 ** doubles, actual.limit)
        return _changed(actual, actual.points, doubles, score, limit,
                        (*_lines(plan, actual, use_doubles), note))
    return None


# -- minimums ---------------------------------------------------------------------------------

_MEASURE_WORDS = {"points": "points", "doubles": "doubles", "score": "points in all"}


def _minimum(hand: Hand, rule: HouseRule, scored: _Scored) -> tuple[bool, str | None]:
    params = rule.scoring
    thresholds = params.go_out_minimum
    if hand.goulash and params.goulash_go_out_minimum is not None:
        thresholds = params.goulash_go_out_minimum
    if not hand.mahjong or not thresholds:
        return True, None
    values = {"points": scored.points, "doubles": scored.doubles, "score": scored.score}
    if any(values[measure] >= threshold for measure, threshold in thresholds):
        return True, None
    needs = " or ".join(f"{threshold} {_MEASURE_WORDS[measure]}" for measure, threshold
                        in thresholds)
    has = ", ".join(f"{values[measure]} {_MEASURE_WORDS[measure]}" for measure, _ in thresholds)
    where = " in a goulash" if hand.goulash and params.goulash_go_out_minimum is not None else ""
    return False, (f"Not a valid Mah Jong under this house rule: it needs at least {needs}"
                   f"{where}; this hand has {has}.")


# -- the public entry points ------------------------------------------------------------------

_MELDS: dict[tuple, Meld] = memo.table("score: result melds")
_MELDS_KEPT = 20_000


def _meld(s) -> Meld:
    # Most sets are shared objects (the search's tables): looked up by identity first, the
    # entry holding the set so that its id is not reused while the entry lives.
    entry = _MELD_OF_SET.get(id(s))
    if entry is not None and entry[0] is s:
        return entry[1]
    key = (s.kind, s.tile, s.concealed, s.how, s.tiles)
    meld = _MELDS.get(key)
    if meld is None:
        # Frozen, so one per distinct set serves every result.
        if len(_MELDS) > _MELDS_KEPT:
            _MELDS.clear()
        meld = _MELDS[key] = Meld(kind=s.kind, tile=s.tile, concealed=s.concealed,
                                  added=s.how == "added", tiles=s.tiles)
    if len(_MELD_OF_SET) > _MELDS_KEPT:
        _MELD_OF_SET.clear()
    _MELD_OF_SET[id(s)] = (s, meld)
    return meld


_MELD_OF_SET: dict[int, tuple] = memo.table("score: result melds by set")


def _melds(sets) -> tuple[Meld, ...]:
    """``tuple(map(_meld, sets))``: a shared set's meld read here without a call."""
    known = _MELD_OF_SET
    out = []
    for s in sets:
        entry = known.get(id(s))
        out.append(entry[1] if entry is not None and entry[0] is s else _meld(s))
    return tuple(out)
def _result(hand: Hand, plan: _Plan, params, scored: _Scored, *,
            fishing_for: str | None = None,
            minimum: tuple[bool, str | None] = (True, None)) -> ScoreResult:
    codes = _codes(plan, scored)
    if fishing_for:
        codes |= {fishing_for}
    arrangement = scored.arrangement
    return ScoreResult(
        points=scored.points,
        doubles=scored.doubles,
        score=scored.score,
        limit=scored.limit,
        lines=_lines(plan, scored, params.use_doubles),
        arrangement=_melds(arrangement.sets),
        shape=arrangement.shape,
        mahjong=hand.mahjong,
        meets_minimum=minimum[0],
        minimum_reason=minimum[1],
        fishing_for=fishing_for,
        special=plan.codes[scored.special] if scored.special >= 0 else None,
        item_codes=codes,
        loose=arrangement.loose,
    )


def score_arrangements(hand: Hand, rule: HouseRule, arrangements: Sequence[Arrangement],
                       completions: Iterable[tuple[str, Sequence[Arrangement]]] = ()
                       ) -> ScoreResult:
    """Score ``hand`` given its arrangements (and, for a fishing hand, the completions).

    The hand must already be valid under ``rule``; ``score_hand`` checks that first.
    """
    if not arrangements:
        raise ValueError("score_arrangements needs at least one arrangement of the hand.")
    plan = plan_for(rule)
    params = rule.scoring
    if not hand.mahjong and params.only_winner_scores:
        line = ScoreLine("only_winner_scores",
                         "Only the Mah Jong player scores under this house rule", 0, 0, 0)
        nothing = _Scored(0, 0, 0, None, arrangements[0], {}, (), lines=(line,))
        return _result(hand, plan, params, nothing)
    side = plan.winner if hand.mahjong else plan.loser
    best = _best(plan, side, hand, rule, arrangements, hand.mahjong)
    if not hand.mahjong and hand.fishing and params.fishing_part_scores and plan.fishing:
        fished = _fishing(hand, rule, plan, best, completions)
        if fished is not None:
            return _result(hand, plan, params, fished[0], fishing_for=fished[1])
    return _result(hand, plan, params, best, minimum=_minimum(hand, rule, best))


def score_hand(hand: Hand, rule: HouseRule) -> ScoreResult:
    """Validate ``hand`` under ``rule`` (``HandError`` if it cannot be), find its
    arrangements and score the best of them."""
    found = valid_plain_arrangements(hand, rule)  # the common hand, checked as it is read
    if found is None:
        validate_hand(hand, rule)
        found = find_arrangements(hand, rule)
    if not found:
        raise HandError([Problem("concealed", "not_a_winning_hand", NOT_A_WINNING_HAND)])
    fishing: list = []
    # Completing a hand tile by tile is the dearest search: only when a part-score can come.
    if not hand.mahjong and hand.fishing and rule.scoring.fishing_part_scores:
        plan = plan_for(rule)
        if plan.fishing:
            fishing = find_completions(hand, rule, plan.fishing_pungs_only)
    return score_arrangements(hand, rule, found, fishing)


NOT_A_WINNING_HAND = (
    "These tiles do not make a complete hand under this house rule (four sets and a pair, or "
    "one of its special hands): check the melds and concealed tiles, or send \"mahjong\": false."
)


__all__ = ["ScoreLine", "ScoreResult", "limit_words", "plan_for",
           "score_arrangements", "score_hand"]
