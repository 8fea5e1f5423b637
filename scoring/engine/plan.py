"""A house rule's items made ready to call: the plan.

Each item is bound once to its rule function, with the fact that gates it (the function's
``needs``); the plan holds, side by side in the house rule's order, each item's worth and
part in a tally, the items of the Mah Jong player and of the others, and the special hands
with a part-score for fishing. ``score.py`` asks a plan for an arrangement's matches
(``count_matches``) and scores them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import memo
from .context import ScoringContext
from .result import ScoreLine
from .rules.model import HouseRule, HouseRuleError, Item
from .rules.registry import REGISTRY

# -- the plan: a house rule's items made ready to call ---------------------------------------

# What a badly given argument makes a rule function raise: the house rule's error, not a crash.
ARGUMENT_ERRORS = (TypeError, ValueError, KeyError, AttributeError, IndexError)


@dataclass(frozen=True)
class Step:
    """One item bound to its rule function."""

    index: int  # the item's place in the house rule, which is also its line's place
    item: Item
    match: Callable[..., int]
    kwargs: dict[str, Any]
    # A ``ScoringContext`` attribute without which the function gives 0 (its ``needs``).
    needs: str | None

    def count(self, ctx: ScoringContext) -> int:
        """How many times the item matches the arrangement."""
        if self.needs is not None and not getattr(ctx, self.needs):
            return 0
        try:
            return self.match(ctx, **self.kwargs)
        except ARGUMENT_ERRORS as exc:
            raise bad_arguments(self, exc) from exc


def count_matches(steps: Sequence[Step], ctx: ScoringContext) -> dict[int, int]:
    """How many times each matching item of ``steps`` matched, by the item's index."""
    counts = {}
    for step in steps:
        n = step.count(ctx)
        if n:
            counts[step.index] = n
    return counts


def bad_arguments(step: Step, exc: Exception) -> HouseRuleError:
    """A stored house rule whose item arguments are of the wrong kind (a number where tile
    names belong...): the house rule's error, with the item's path, not a crash."""
    return HouseRuleError({f"items[{step.index}].args": [
        f"{step.item.rule} cannot use {dict(step.item.args)!r} ({type(exc).__name__}: {exc})."
    ]})


@dataclass(frozen=True)
class Plan:
    """A house rule's items as parallel tuples (by the item's index), bound to their rule
    functions."""

    items: tuple[Item, ...]
    codes: tuple[str, ...]
    points: tuple[int, ...]
    doubles: tuple[int, ...]
    # A special hand's value and its words; None for ordinary items, and for special hands
    # under a house rule with no limit to take a part of.
    special_value: tuple[int | None, ...]
    limit_words: tuple[str | None, ...]
    # Items about flowers and seasons (kept on top of a limit hand, 004 Sheet 21 item 6).
    bonus: tuple[bool, ...]
    # The items each item supersedes when it applies, by index.
    replaces: tuple[tuple[int, ...], ...]
    # Special hands scored by doubles and capped at the limit (Purity under 004).
    capped: tuple[bool, ...]
    # Each item's part in a tally: _ORDINARY, _SPECIAL or _REPLACING.
    role: tuple[int, ...]
    # The steps asked of the Mah Jong player's arrangements, and of the others'.
    winner: tuple[Step, ...]
    loser: tuple[Step, ...]
    # The Mah Jong player's items that accept a special shape as a whole hand, each with the
    # shapes it accepts: a special shape no matching item accepts is no Mah Jong.
    shape_items: tuple[tuple[int, tuple[str, ...]], ...]
    # Special hands with a part-score for fishing, in the house rule's order (which settles
    # ties).
    fishing: tuple[Step, ...]
    # Each fishing part of the limit, its words and its line, by the item's index.
    fishing_parts: dict[int, tuple[int, str, ScoreLine]] = field(default_factory=dict)

    @property
    def fishing_pungs_only(self) -> bool:
        """Every fishing hand needs a pung hand or a special shape: a completion's standard
        readings with a chow can match none of them and need not be read."""
        return all(step.needs in ("pung_hand", "special_shape") for step in self.fishing)


def _plan(rule: HouseRule, steps: Sequence[Step]) -> Plan:
    items = rule.items
    limit = rule.scoring.limit
    special_value = tuple(
        int(limit * item.limit) if item.limit is not None and limit is not None else None
        for item in items)
    index = {item.code: i for i, item in enumerate(items)}
    replaces = tuple(tuple(index[c] for c in item.replaces if c in index) for item in items)
    capped = tuple(item.capped_at_limit and limit is not None for item in items)
    role = tuple(_SPECIAL if value is not None else _REPLACING if replaced or cap else _ORDINARY
                 for value, replaced, cap in zip(special_value, replaces, capped, strict=True))
    fishing = tuple(s for s in steps if s.item.fishing_limit is not None or s.item.fishing_doubles)
    fishing_parts = {}
    for step in fishing:
        item = step.item
        if item.fishing_limit is not None and limit is not None:
            part = int(limit * item.fishing_limit)
            fishing_parts[step.index] = (
                part, f"{limit_words(item.fishing_limit)} (fishing for {short_name(item)})",
                ScoreLine(item.code, f"Fishing for {item.wording}", part, 0, 1))
    winner = tuple(s for s in steps if s.item.who in ("all", "mahjong"))
    return Plan(
        items=items,
        codes=tuple(item.code for item in items),
        points=tuple(item.points for item in items),
        doubles=tuple(item.doubles for item in items),
        special_value=special_value,
        limit_words=tuple(limit_words(item.limit) if item.limit is not None else None
                          for item in items),
        bonus=tuple(REGISTRY[item.rule].bonus for item in items),
        replaces=replaces,
        capped=capped,
        role=role,
        winner=winner,
        loser=tuple(s for s in steps if s.item.who in ("all", "losers")),
        shape_items=tuple((s.index, _accepted_shapes(s.item)) for s in winner
                          if REGISTRY[s.item.rule].shapes is not None),
        fishing=fishing,
        fishing_parts=fishing_parts,
    )


def _prepare(rule: HouseRule) -> Plan:
    """Bind every item to its rule function once; an unknown function or argument is the
    house rule's error, reported with its path."""
    errors: dict[str, list[str]] = {}
    steps: list[Step] = []
    for i, item in enumerate(rule.items):
        function = REGISTRY.get(item.rule)
        if function is None:
            errors.setdefault(f"items[{i}].rule", []).append(
                f"Unknown rule function {item.rule!r}; known: {', '.join(sorted(REGISTRY))}.")
            continue
        kwargs = item.kwargs
        problem = _argument_problem(function.match, kwargs)
        if problem:
            errors.setdefault(f"items[{i}].args", []).append(f"{item.rule}: {problem}.")
            continue
        if _worthless(item):
            continue
        steps.append(Step(i, item, function.match, kwargs, function.needs))
    if errors:
        raise HouseRuleError(errors)
    return _plan(rule, steps)


def _accepted_shapes(item: Item) -> tuple[str, ...]:
    shapes = REGISTRY[item.rule].shapes
    if callable(shapes):
        try:
            return tuple(shapes(**item.kwargs))
        except (TypeError, ValueError):
            return ()  # arguments the function rejects: reported when it is called
    return shapes or ()


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


@memo.cached(maxsize=64)
def plan_for(rule: HouseRule) -> Plan:
    """The house rule's plan, made once per rule (a house rule is frozen and hashed once):
    binding and checking some fifty items costs more than scoring a hand."""
    return _prepare(rule)


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


# An item's part in a tally (Plan.role).
_ORDINARY, _SPECIAL, _REPLACING = 0, 1, 2
