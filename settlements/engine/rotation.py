"""Who sits where, who deals and what the wind of the round is, hand after hand.

Players are stable keys listed in their starting order: the first is the first East, then
South, West, North, and a fifth (if any) starts as the dreamer sitting out. When the deal
passes, every seated player's wind moves on one (South becomes East, ...), so after ``passes``
moves player ``i`` sits at position ``(i - passes) mod n``; a position past the last seat is
sitting out. A rotation scheme (``rotation.scheme``) turns one hand's outcome into the next
``Seating``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property

from scoring.engine.rules.model import HouseRule
from settlements.engine.table import WINDS, SettlementInputError

# 001: two players are East and West; three must include East.
SEATS_FOR = {2: ("E", "W"), 3: ("E", "S", "W"), 4: WINDS, 5: WINDS}


@dataclass(frozen=True)
class Seating:
    """The table for one hand: everything the next hand needs to know before it is played."""

    players: tuple[str, ...]
    seats: tuple[str, ...]
    dealer: str
    prevailing_wind: str = "E"
    goulash: bool = False
    after_draw: bool = False
    number: int = 1
    passes: int = 0
    # Hands the dealer has dealt in a row, drawn hands not counted (004 Sheet 5 item 4).
    dealer_hands: int = 0
    # Hands played in the current wind of the round (002).
    hands_in_wind: int = 0

    @cached_property
    def winds(self) -> dict[str, str]:
        """Each seated player's seat wind, in seat order (computed once: the seating is frozen)."""
        n = len(self.players)
        by_position = {(i - self.passes) % n: p for i, p in enumerate(self.players)}
        return {by_position[k]: wind for k, wind in enumerate(self.seats)}

    @property
    def sitting_out(self) -> str | None:
        seated = set(self.winds)
        return next((p for p in self.players if p not in seated), None)

    @cached_property
    def by_wind(self) -> dict[str, str]:
        return {w: p for p, w in self.winds.items()}

    def player_at(self, wind: str) -> str:
        return self.by_wind[wind]

    @property
    def east(self) -> str:
        return self.player_at("E")

    def east_after(self, passes: int) -> str:
        """Who sits East once the deal has passed ``passes`` times in all: the player that many
        places on from the first East position (as ``winds`` seats them)."""
        return self.players[(self.seats.index("E") + passes) % len(self.players)]

    @property
    def dealer_seat(self) -> str:
        return self.winds[self.dealer]


def start_seating(rule: HouseRule, players: tuple[str, ...] | None = None) -> Seating:
    count = rule.scoring.players
    if players is None:
        players = (*SEATS_FOR[count], "D")[:count] if count == 5 else SEATS_FOR[count]
    if len(players) != count or len(set(players)) != count:
        raise SettlementInputError({"players": [
            f"House rule {rule.slug!r} is for {count} players: list {count} different players "
            "in their starting order (East first)."]})
    first = Seating(players=tuple(players), seats=SEATS_FOR[count], dealer=players[0])
    return replace(first, goulash=first.prevailing_wind in rule.rotation.goulash_winds)


Rotation = Callable[[Seating, "str | None", HouseRule], Seating]
ROTATIONS: dict[str, Rotation] = {}


def rotation_scheme(*names: str) -> Callable[[Rotation], Rotation]:
    def register(fn: Rotation) -> Rotation:
        for name in names:
            ROTATIONS[name] = fn
        return fn

    return register


def next_wind(wind: str) -> str:
    return WINDS[(WINDS.index(wind) + 1) % len(WINDS)]


def following_hand(current: Seating, winner: str | None, rule: HouseRule, **changes) -> Seating:
    """The next hand's seating after ``changes``: numbered on, goulash after a draw or in a
    goulash round (000's West Wind Round)."""
    prevailing_wind = changes.get("prevailing_wind", current.prevailing_wind)
    goulash = (winner is None and rule.rotation.goulash_after_draw) or (
        prevailing_wind in rule.rotation.goulash_winds)
    return replace(current, number=current.number + 1, after_draw=winner is None,
                   goulash=goulash, **changes)


def pass_the_deal(current: Seating) -> dict:
    """The winds move on one; when the deal is back with the round's first East, the wind of
    the round moves on (004 Sheet 16 item 3; 003 'Hands, Rounds and Matches')."""
    passes = current.passes + 1
    wind = current.prevailing_wind
    if passes % len(current.players) == 0:
        wind = next_wind(wind)
    return {"passes": passes, "dealer": current.east_after(passes), "prevailing_wind": wind,
            "dealer_hands": 0}


@rotation_scheme("bmja", "dealer_repeats")
def winds_move_on(current: Seating, winner: str | None, rule: HouseRule) -> Seating:
    """004 Sheet 5 item 4 / Sheet 16: the winds move on after every Mah Jong unless East went
    Mah Jong, East at most ``max_consecutive_dealer`` hands in a row; a draw keeps East (Sheet
    11 item 1). 003: the dealer repeats after a win or a draw; after a goulash that was won the
    dice pass regardless. 001, five players: an East who does not win retires and the dreamer
    comes in as North (the same move, with five positions round the table)."""
    r = rule.rotation
    if winner is None:
        if r.dealer_repeats_on_draw:
            return following_hand(current, winner, rule)
        return following_hand(current, winner, rule, **pass_the_deal(current))
    hands = current.dealer_hands + 1
    keeps = (
        winner == current.dealer
        and r.dealer_repeats_on_win
        and not (current.goulash and r.goulash_passes_dealer)
        and (r.max_consecutive_dealer is None or hands < r.max_consecutive_dealer)
    )
    if keeps:
        return following_hand(current, winner, rule, dealer_hands=hands)
    return following_hand(current, winner, rule, **pass_the_deal(current))


# The first game of a wind whose loss by the dealer moves the wind of the round on, after
# ``games_per_wind`` (RotationParams.wind_moves_on, a named reading of 002).
FIRST_MOVING_GAME = {"after_games_per_wind": 1, "at_games_per_wind": 0}


@rotation_scheme("winner_deals")
def winner_deals(current: Seating, winner: str | None, rule: HouseRule) -> Seating:
    """002 'Setting up the next game': whoever won deals next and the seat winds stay; the
    wind of the round "stays the same until the first four games are over. Then if the dealer
    loses 5th game or any thereafter" it moves on (``games_per_wind`` 4, read as
    ``wind_moves_on``). Five players: an East who does not win retires (001/002 'For 5
    Players')."""
    r = rule.rotation
    changes: dict = {"hands_in_wind": current.hands_in_wind + 1}
    dealer_lost = winner is not None and winner != current.dealer
    if dealer_lost:
        changes["dealer"] = winner
        if changes["hands_in_wind"] >= r.games_per_wind + FIRST_MOVING_GAME[r.wind_moves_on]:
            changes.update(prevailing_wind=next_wind(current.prevailing_wind), hands_in_wind=0)
    if current.sitting_out is not None and winner is not None and winner != current.east:
        changes["passes"] = current.passes + 1
    return following_hand(current, winner, rule, **changes)
