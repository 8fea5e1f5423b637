"""What the settlement engine is told about one finished hand at the table.

Everything is keyed by seat wind (``E S W N``) as the players sit for that hand. A
``HandAtTable`` is built by the API, the ``settle`` command or the session engine; the engine
never looks anything up itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WINDS = ("E", "S", "W", "N")
KONG_HOWS = ("concealed", "claimed", "added")
WIN_SOURCES = ("wall", "discard", "kong_box", "robbed_kong")
# A win on one of these came from another player's tile; on the others the winner drew it.
GIVEN_SOURCES = ("discard", "robbed_kong")
FLOWERS = ("f1", "f2", "f3", "f4")
SEASONS = ("s1", "s2", "s3", "s4")
POT = "pot"


class SettlementInputError(ValueError):
    """The hand as described cannot have happened; ``errors`` maps field paths to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{path}: {' '.join(msgs)}" for path, msgs in errors.items()))


@dataclass(frozen=True)
class Penalty:
    """A breach of 004 Sheet 30 (or 000's dead hand) to be paid for in this hand.

    ``kind`` names a function in ``penalties.PENALTIES``. ``claimant`` is who claimed a falsely
    named discard. ``amount`` overrides the house rule's figure (e.g. a club's own fine).
    """

    kind: str
    offender: str
    claimant: str | None = None
    amount: int | None = None


@dataclass(frozen=True)
class HandAtTable:
    seats: tuple[str, ...]
    scores: dict[str, int]
    winner: str | None = None
    discarder: str | None = None
    draw: bool = False
    goulash: bool = False
    dealer: str = "E"
    # What the goulash pot or kitty holds when the hand starts.
    pot: int = 0
    kongs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    bonus: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # None: "discard" when a discarder is named, else "wall".
    win_source: str | None = None
    # The winning tile was the replacement for a kong (003: that kong earns no chips).
    kong_replacement_win: bool = False
    penalties: tuple[Penalty, ...] = ()
    winner_items: frozenset[str] = frozenset()
    prevailing_wind: str = "E"
    # Losing hands that are clean and cover the minimum doubles (000: they are paid a count).
    clean_hands: frozenset[str] = frozenset()
    # This goulash follows a drawn hand (000's kitty is only put up then). None: = goulash.
    after_draw: bool | None = None
    # Won with another player's tile (a discard, a robbed kong), but nobody knows whose
    # ("discarder unknown": a table that does not remember, a Kajongg import). ``discarder``
    # is then None, and nobody is charged as the discarder: every loser pays as the scheme
    # makes everyone pay (``schemes.winner_paid_by_table``).
    discarder_unknown: bool = False

    @property
    def source(self) -> str | None:
        if self.winner is None:
            return None
        if self.win_source is not None:
            return self.win_source
        if self.kong_replacement_win:
            return "kong_box"
        return "discard" if self.discarder else "wall"

    @property
    def self_drawn(self) -> bool:
        return self.winner is not None and self.source not in GIVEN_SOURCES

    @property
    def losers(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.seats if seat != self.winner)

    @property
    def follows_draw(self) -> bool:
        return self.goulash if self.after_draw is None else self.after_draw

    def score(self, seat: str) -> int:
        return self.scores.get(seat, 0)
