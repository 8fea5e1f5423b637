"""A session: the hands of one table in order, settled one by one with the pot carried on,
running tallies per player, and the seating of every hand and of the next one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scoring.engine.rules.model import HouseRule
from settlements.engine.ledger import Settlement
from settlements.engine.rotation import ROTATIONS, Seating, start_seating
from settlements.engine.settle import settle_hand
from settlements.engine.table import HandAtTable, Penalty, SettlementInputError


@dataclass(frozen=True)
class SessionHand:
    """One hand as recorded at the table, keyed by the seat winds of that hand.

    ``draw`` None means "a draw when nobody won"; ``goulash`` None means "as the rotation says"
    (after a draw, or in a goulash round).
    """

    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    discarder: str | None = None
    draw: bool | None = None
    goulash: bool | None = None
    kongs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    bonus: dict[str, tuple[str, ...]] = field(default_factory=dict)
    win_source: str | None = None
    kong_replacement_win: bool = False
    penalties: tuple[Penalty, ...] = ()
    winner_items: frozenset[str] = frozenset()
    clean_hands: frozenset[str] = frozenset()


@dataclass(frozen=True)
class HandRecord:
    seating: Seating
    table: HandAtTable
    settlement: Settlement
    # Each player's running total after this hand.
    tallies: dict[str, int]

    @property
    def winner_player(self) -> str | None:
        return None if self.table.winner is None else self.seating.player_at(self.table.winner)

    @property
    def net_by_player(self) -> dict[str, int]:
        return {self.seating.player_at(w): amount for w, amount in self.settlement.net.items()}


@dataclass(frozen=True)
class SessionResult:
    hands: tuple[HandRecord, ...]
    starting_tallies: dict[str, int]
    tallies: dict[str, int]
    pot: int
    upcoming: Seating

    def next_hand(self) -> Seating:
        """Who is East (deals), each player's seat wind, the wind of the round, goulash or not."""
        return self.upcoming


def table_for(hand: SessionHand, seating: Seating, pot: int) -> HandAtTable:
    seats = seating.seats
    return HandAtTable(
        seats=seats,
        pot=pot,
        scores={seat: hand.scores.get(seat, 0) for seat in seats},
        winner=hand.winner,
        discarder=hand.discarder,
        draw=hand.winner is None if hand.draw is None else hand.draw,
        goulash=seating.goulash if hand.goulash is None else hand.goulash,
        dealer=seating.dealer_seat,
        kongs=hand.kongs,
        bonus=hand.bonus,
        win_source=hand.win_source,
        kong_replacement_win=hand.kong_replacement_win,
        penalties=hand.penalties,
        winner_items=hand.winner_items,
        prevailing_wind=seating.prevailing_wind,
        clean_hands=hand.clean_hands,
        after_draw=seating.after_draw,
    )


def run_session(
    hands: Sequence[SessionHand],
    rule: HouseRule,
    players: Sequence[str] | None = None,
    pot: int = 0,
    goulash_rule: HouseRule | None = None,
) -> SessionResult:
    """Settle ``hands`` in order under ``rule``. Raises ``SettlementInputError`` with paths
    ``hands.<n>.<field>`` (n from 0) for a hand that cannot have happened.

    ``goulash_rule`` is the house rule named by ``rule.goulash_rule`` (the caller looks it up):
    goulash hands are paid by it (e.g. 000's kitty), while the seating follows ``rule``.
    """
    if rule.rotation.scheme not in ROTATIONS:
        raise SettlementInputError({"rules": [
            f"House rule {rule.slug!r} names an unknown rotation {rule.rotation.scheme!r}; "
            f"use one of {', '.join(sorted(ROTATIONS))}."]})
    rotate = ROTATIONS[rule.rotation.scheme]
    seating = start_seating(rule, tuple(players) if players is not None else None)
    start = {p: rule.payment.starting_tally for p in seating.players}
    tallies = dict(start)
    records: list[HandRecord] = []
    for i, hand in enumerate(hands):
        table = table_for(hand, seating, pot)
        if table.goulash != seating.goulash:
            # Recorded as a goulash (or not) against the rotation's expectation: what was
            # played decides, e.g. whether 003's dice pass after it.
            seating = replace(seating, goulash=table.goulash)
        paid_by = goulash_rule if table.goulash and goulash_rule is not None else rule
        try:
            settlement = settle_hand(table, paid_by)
        except SettlementInputError as exc:
            raise SettlementInputError(
                {f"hands.{i}.{path}": msgs for path, msgs in exc.errors.items()}) from None
        for wind, amount in settlement.net.items():
            tallies[seating.player_at(wind)] += amount
        records.append(HandRecord(seating, table, settlement, dict(tallies)))
        pot = settlement.pot_after
        winner = None if table.winner is None else seating.player_at(table.winner)
        seating = rotate(seating, winner, rule)
    return SessionResult(tuple(records), start, tallies, pot, seating)
