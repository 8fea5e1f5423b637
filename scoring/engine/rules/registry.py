"""The registry of rule functions: one object per function, holding everything the orchestrator
may know of it side by side.

A rule function answers one question about an arrangement (how many times it matches). Its
registration also says whether it is about flowers and seasons, the fact without which it gives
0, and the special shapes it accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

RuleFunctionCall = Callable[..., int]


@dataclass(frozen=True)
class RuleFunction:
    """A registered rule function and its hints, each None when it has none.

    ``match(ctx, **args)``: how many times the function matches an arrangement.
    ``bonus``: it is about flowers and seasons; on a limit hand its items are kept and added
    on top of the limit when the house rule says so (004 Sheet 21 item 6).
    ``needs``: a ``ScoringContext`` attribute without which the function gives 0 (asked
    before the function).
    ``shapes``: the special shapes of the arrangement search it accepts as a whole hand (or a
    function of the item's arguments giving them). A special shape is a Mah Jong only when an
    item whose function accepts that shape matches it (issue #11).
    """

    name: str
    match: RuleFunctionCall
    bonus: bool = False
    needs: str | None = None
    shapes: tuple[str, ...] | Callable[..., tuple[str, ...]] | None = None


REGISTRY: dict[str, RuleFunction] = {}

# Every special shape the arrangement search reads (arrange/special.py), with words for
# messages.
SPECIAL_SHAPES = {
    "seven_pairs": "seven pairs",
    "thirteen_orphans": "thirteen orphans (one of each one, nine, wind and dragon)",
    "knitting": "a knitting (pairs of one number in two suits)",
    "triple_knitting": "a triple knitting (groups of one number in three suits)",
    "snake": "a snake (a run of 1 to 9 of one suit with honours)",
    "gates_of_heaven": "gates of heaven (1112345678999 of one suit and one more)",
}


def rule_function(name: str, **hints: Any) -> Callable[[RuleFunctionCall], RuleFunctionCall]:
    """Register the decorated function under ``name`` so that an item's ``rule`` can name
    it, with what ``RuleFunction`` describes (``bonus``, ``needs``, ``shapes``)."""

    def register(fn: RuleFunctionCall) -> RuleFunctionCall:
        known = REGISTRY.get(name)
        if known is not None and known.match is not fn:
            raise ValueError(f"Rule function {name!r} is registered twice.")
        REGISTRY[name] = RuleFunction(name, fn, **hints)
        return fn

    return register


class _Matches(Mapping[str, RuleFunctionCall]):
    """The registry read as name -> function (what a house rule's items may name)."""

    def __getitem__(self, name: str) -> RuleFunctionCall:
        return REGISTRY[name].match

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)


RULE_FUNCTIONS: Mapping[str, RuleFunctionCall] = _Matches()

__all__ = ["REGISTRY", "RULE_FUNCTIONS", "SPECIAL_SHAPES", "RuleFunction",
           "rule_function"]
