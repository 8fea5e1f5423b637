"""What scoring a hand gives: its value, how it was reached, in the house rule's words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .hand import Meld


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
