"""What the draw takes and gives: plain dataclasses, no Django.

A player is known by a string key the caller chooses (the door app uses ``m<member id>`` for a
member and ``g:<name folded>`` for a guest), so the draw never sees a database row. Tables are
numbered from 1 in the order of ``DrawRequest.sizes``; a drawn table lists its players in seat
order round the table, which is also wind order: East, South, West, North (three players: East,
South, West), and at a table of five the fifth sits out the first hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WINDS = ("E", "S", "W", "N")


class DrawError(ValueError):
    """The draw cannot be made as asked: ``message`` says what is wrong and how to mend it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def winds_for(size: int) -> tuple[str, ...]:
    """The starting winds of a table of ``size`` in seat order ("" for the fifth, who sits out
    the first hand: 001 "The game for 5 players")."""
    if size == 5:
        return (*WINDS, "")
    return WINDS[:size]


@dataclass(frozen=True)
class Player:
    key: str
    name: str
    # A newcomer sits next to a regular (someone the caller counts as knowing the club's game).
    newcomer: bool = False
    regular: bool = True


@dataclass(frozen=True)
class PastNight:
    """One earlier night of the season: each table's players in seat order, East first (the
    fifth of a table of five last)."""

    tables: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Constraints:
    apart: tuple[tuple[str, str], ...] = ()
    together: tuple[tuple[str, str], ...] = ()
    # (player, table number from 1): someone who cannot move stays at that table.
    fixed: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Weights:
    """How the draw weighs what it balances. ``half_life`` is in nights: a meeting that many
    nights ago counts half as much as one last week (recent nights weigh more); ``odd_table``
    is what one seat at a table of 3 or 5 costs for a player who has had more than their share,
    in units of one pair meeting once more than its share."""

    half_life: float = 20.0
    odd_table: float = 1.5


@dataclass(frozen=True)
class DrawRequest:
    players: tuple[Player, ...]
    sizes: tuple[int, ...]
    history: tuple[PastNight, ...] = ()  # oldest first
    constraints: Constraints = Constraints()
    seed: int = 0
    weights: Weights = Weights()
    # Wall-clock ceiling for the solver; it also stops on a fixed amount of deterministic work,
    # so two draws with the same seed agree on any machine that is not much slower.
    time_limit: float = 1.2
    deterministic_work: float = 4.0


@dataclass(frozen=True)
class DrawnTable:
    number: int
    seats: tuple[str, ...]  # player keys in seat order: East, South, West, North, (out)

    @property
    def winds(self) -> tuple[str, ...]:
        return winds_for(len(self.seats))

    def seated(self) -> tuple[tuple[str, str], ...]:
        return tuple(zip(self.seats, self.winds, strict=True))


@dataclass(frozen=True)
class Draw:
    tables: tuple[DrawnTable, ...]
    seed: int
    # How it was found: "optimal", "best found in the time", "greedy" (the solver's start) or
    # "resolvable design" (a night of a repeat-free schedule, designs.py).
    method: str = "optimal"
    cost: int = 0
    extra: dict = field(default_factory=dict, compare=False)

    def table_of(self, key: str) -> DrawnTable | None:
        return next((t for t in self.tables if key in t.seats), None)

    def to_json(self) -> dict:
        return {"seed": self.seed, "method": self.method, "cost": self.cost,
                "tables": [list(t.seats) for t in self.tables]}

    @classmethod
    def from_json(cls, data: dict) -> Draw:
        return cls(tuple(DrawnTable(i, tuple(seats)) for i, seats in enumerate(data["tables"], 1)),
                   data.get("seed", 0), data.get("method", "optimal"), data.get("cost", 0))
