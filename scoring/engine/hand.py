"""What was entered for one player's hand, and the arrangements the engine finds in it.

Plain frozen dataclasses: the parser (``parse.py``) builds a ``Hand`` from the contract's JSON,
the arrangement search (``arrange.py``) turns it into ``Arrangement``s, and the orchestrator
(``score.py``) scores each arrangement under a house rule and keeps the best.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import SEATS

WINDS = SEATS  # the seat and round winds, E S W N: the contract's name for them
MELD_KINDS = ("pung", "kong", "chow", "pair")
WIN_SOURCES = ("wall", "discard", "kong_box", "robbed_kong")


@dataclass(frozen=True, slots=True)
class Meld:
    """A set declared on the table, or one given already arranged.

    ``tile`` is the set's tile (a chow's lowest tile). A kong says how it was made:
    ``concealed`` (fourth tile drawn to a concealed pung), ``added`` (drawn and added to an
    exposed pung), otherwise claimed from a discard. ``wild`` counts the wild tiles standing in
    it (a goulash), ``tiles`` the actual tiles when they differ from the set's tile (jokers).
    """

    kind: str
    tile: str
    concealed: bool = False
    added: bool = False
    tiles: tuple[str, ...] = ()

    @property
    def how(self) -> str | None:
        if self.kind != "kong":
            return None
        if self.concealed:
            return "concealed"
        return "added" if self.added else "claimed"

    @property
    def size(self) -> int:
        return {"pung": 3, "kong": 4, "chow": 3, "pair": 2}[self.kind]


@dataclass(frozen=True, slots=True)
class Win:
    tile: str | None
    source: str = "discard"  # one of WIN_SOURCES
    last_wall_tile: bool = False
    last_discard: bool = False
    robbed_kong: bool = False
    kong_replacement: bool = False
    original_call: bool = False
    # Extra facts some special hands need (004 Sheet 29, 002 heavenly/earthly hands).
    heavenly: bool = False  # East's dealt fourteen tiles were a complete hand
    earthly: bool = False  # won with East's first discard
    second_kong_replacement: bool = False  # Twofold Fortune: replacement for a second kong


@dataclass(frozen=True, slots=True)
class Hand:
    seat_wind: str
    prevailing_wind: str
    mahjong: bool
    melds: tuple[Meld, ...] = ()
    concealed: tuple[str, ...] = ()
    bonus: tuple[str, ...] = ()
    win: Win | None = None
    goulash: bool = False
    fishing: bool = False
    rules: str | None = None
    # The number of players at the table (2-5); None: the house rule's default.
    players: int | None = None


@dataclass(frozen=True, slots=True)
class Set:
    """One set of an arrangement: a declared meld or one found among the concealed tiles.

    ``kind`` is pung, kong, chow, pair or group (the tiles of a special shape that are not sets,
    e.g. thirteen unique wonders). ``how`` is the kong's origin (see ``Meld.how``); ``wild`` the
    number of wild tiles in it; ``tiles`` the tiles of a group, or of a set holding wild tiles.
    A set's tiles are as held (``("b1", "b1", "b2")``: a 2 bamboo standing in a pung of b1);
    in a group each wild tile is written as the joker standing for its place (``"jdw"``), so
    that the group's tiles read as the special hand they make.
    """

    kind: str
    tile: str
    concealed: bool
    how: str | None = None
    wild: int = 0
    tiles: tuple[str, ...] = ()
    declared: bool = False  # True when it came from the hand's melds


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to read a hand. ``shape`` is "standard" (sets and a pair), a special shape
    ("seven_pairs", "thirteen_orphans", "knitting", "triple_knitting", "snake",
    "gates_of_heaven", ...) or "partial" for a losing hand, whose leftover tiles are ``loose``."""

    shape: str
    sets: tuple[Set, ...]
    loose: tuple[str, ...] = ()
