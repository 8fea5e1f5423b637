"""Who plays which wind in a hand, and how the seating moves on from hand to hand.

Players are known by their seat's id (an int). The rotation itself is the settlement engine's
(``settlements.engine.ROTATIONS``, by the house rule's ``rotation.scheme``); this module only
keys it by seat id and keeps it as JSON between hands.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from play.errors import SeatingError
from scoring.engine import HouseRule
from settlements.engine import ROTATIONS, SettlementInputError, start_seating
from settlements.engine import Seating as Rotation

WIND_ORDER = ("E", "S", "W", "N")


@dataclass(frozen=True)
class Seating:
    """Who plays which wind in one hand: ``winds`` maps seat id to wind (a seat sitting out is
    absent), who deals (East, except where the winner deals and the winds stay: 002), the wind
    of the round and whether the hand is a goulash (and follows a wall game)."""

    winds: dict[int, str]
    prevailing_wind: str
    goulash: bool = False
    after_draw: bool = False
    dealer: int | None = None

    def seat_of(self, wind: str) -> int:
        for seat_id, seat_wind in self.winds.items():
            if seat_wind == wind:
                return seat_id
        raise KeyError(wind)

    @property
    def dealer_seat(self) -> int:
        return self.dealer if self.dealer is not None else self.seat_of("E")

    @property
    def dealer_wind(self) -> str:
        return self.winds[self.dealer_seat]

    @property
    def winds_in_play(self) -> tuple[str, ...]:
        return tuple(w for w in WIND_ORDER if w in self.winds.values())

    @property
    def seat_ids(self) -> dict[str, int]:
        """Wind -> seat id."""
        return {w: s for s, w in self.winds.items()}

    def with_goulash(self, goulash: bool) -> Seating:
        return replace(self, goulash=goulash)

    def to_json(self) -> dict:
        return {
            "winds": {str(k): v for k, v in self.winds.items()},
            "prevailing_wind": self.prevailing_wind,
            "goulash": self.goulash,
            "after_draw": self.after_draw,
            "dealer": self.dealer_seat,
        }

    @classmethod
    def from_json(cls, data: dict) -> Seating:
        return cls(
            {int(k): v for k, v in data["winds"].items()},
            data["prevailing_wind"],
            data.get("goulash", False),
            data.get("after_draw", False),
            data.get("dealer"),
        )


def rotation_start(rule: HouseRule, seats) -> Rotation:
    """The first hand's seating: players in starting order (East first; a fifth player with
    no starting wind begins sitting out). ``seats`` are ``SeatInfo``s."""
    order = sorted(
        seats,
        key=lambda s: (WIND_ORDER.index(s.starting_wind) if s.starting_wind else 9, s.position),
    )
    try:
        return start_seating(rule, tuple(str(s.id) for s in order))
    except SettlementInputError as err:
        raise SeatingError({"seats": [m for msgs in err.errors.values() for m in msgs]}) from err


def rotation_advance(rule: HouseRule, rot: Rotation, winner_seat_id: int | None) -> Rotation:
    return ROTATIONS[rule.rotation.scheme](
        rot, None if winner_seat_id is None else str(winner_seat_id), rule
    )


def apply_swaps(rot: Rotation, facts: dict | None) -> Rotation:
    """Two players found to have been recorded the wrong way round from this hand on
    (``facts["swap_seats"]``, written by ``clubs.recording.swap_seats``) take each other's
    place."""
    for a, b in (facts or {}).get("swap_seats", ()):
        a, b = str(a), str(b)
        swap = {a: b, b: a}
        rot = replace(
            rot,
            players=tuple(swap.get(p, p) for p in rot.players),
            dealer=swap.get(rot.dealer, rot.dealer),
        )
    return rot


def seating_of(rot: Rotation) -> Seating:
    return Seating(
        {int(p): w for p, w in rot.winds.items()}, rot.prevailing_wind, rot.goulash,
        rot.after_draw, int(rot.dealer),
    )


def rotation_json(rot: Rotation) -> dict:
    data = {f.name: getattr(rot, f.name) for f in fields(rot)}
    data["players"], data["seats"] = list(rot.players), list(rot.seats)
    return data


def rotation_from_json(data: dict) -> Rotation:
    return Rotation(**{**data, "players": tuple(data["players"]), "seats": tuple(data["seats"])})
