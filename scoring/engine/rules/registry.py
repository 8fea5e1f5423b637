"""The registry of rule functions: one object per function, holding everything the orchestrator
may know of it side by side.

A rule function answers one question about an arrangement (how many times it matches). Its
registration may also tell the orchestrator how to ask less often; a function must give the
same answers with or without those hints (``tests/scoring/test_fast_paths.py`` checks them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..context import ScoringContext
from ..hand import Set

RuleFunctionCall = Callable[..., int]
# Answers whether one set counts, given the player's own wind tile and the round's; it may use
# the winds only to compare them with the set's tile.
SetPredicate = Callable[[Set, str, str], bool]


@dataclass(frozen=True)
class RuleFunction:
    """A registered rule function and its hints, each None when it has none.

    ``match(ctx, **args)``: how many times the function matches an arrangement.
    ``bonus``: it is about flowers and seasons; on a limit hand its items are kept and added
    on top of the limit when the house rule says so (004 Sheet 21 item 6).
    ``per_set(**args)``: for a function that counts sets one by one, a test of one set (the
    orchestrator remembers each set's answers, as the same sets recur in hand after hand).
    ``per_bonus(**args)``: for one that counts flowers and seasons one by one, a test of one
    tile given the seat's wind (or None for arguments it was not made for).
    ``needs``: a ``ScoringContext`` attribute without which the function gives 0 (asked once
    per arrangement; when false every function needing it is skipped).
    ``depends_on``: a hashable fact of the context (its attribute name, or a function of the
    item's arguments giving it) that alone decides the answer, such as how the hand went out:
    the orchestrator remembers the answers by it.
    ``fast(**args)``: an equivalent reading only the context's precomputed facts (tile-class
    masks, set counts), or None for arguments it cannot handle.
    ``prefilter(**args)``: a cheap necessary condition of a match read from those facts, or
    None; when it fails the function would have given 0, so it is not asked. Special hands
    need tiles of a kind (all green, all four winds...) that most hands lack.
    ``shapes``: the special shapes of the arrangement search it accepts as a whole hand (or a
    function of the item's arguments giving them). A special shape is a Mah Jong only when an
    item whose function accepts that shape matches it (issue #11).
    """

    name: str
    match: RuleFunctionCall
    bonus: bool = False
    per_set: Callable[..., SetPredicate] | None = None
    per_bonus: Callable[..., Callable[[str, str], bool] | None] | None = None
    needs: str | None = None
    depends_on: str | Callable[..., str] | None = None
    fast: Callable[..., RuleFunctionCall | None] | None = None
    prefilter: Callable[..., Callable[[ScoringContext], bool] | None] | None = None
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
    it, with the hints ``RuleFunction`` describes (``bonus``, ``per_set``, ``per_bonus``,
    ``needs``, ``depends_on``, ``fast``, ``prefilter``, ``shapes``)."""

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

__all__ = ["REGISTRY", "RULE_FUNCTIONS", "SPECIAL_SHAPES", "RuleFunction", "SetPredicate",
           "rule_function"]
