"""Payments, the settlement they make up, and the ledger that collects them while settling.

The ledger tags each payment with what it is for (``kind``) so that a later step can find the
Mah Jong payments again, e.g. a penalty that makes the offender pay for everyone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from settlements.engine.table import POT

# What a payment is for; penalties and the goulash pot look payments up by these.
MAHJONG = "mahjong"
DIFFERENCE = "difference"
KONG = "kong"
BOUQUET = "bouquet"
COUNT = "count"
POT_STAKE = "pot_stake"
POT_WIN = "pot_win"
PENALTY = "penalty"


class SettlementBug(AssertionError):
    """The engine produced a settlement that does not net to zero: a defect, never bad input."""


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int
    why: str
    kind: str = ""


@dataclass(frozen=True)
class Settlement:
    payments: tuple[Payment, ...]
    net: dict[str, int]
    pot_before: int
    pot_after: int
    scores: dict[str, int]


class Ledger:
    """The payments of one hand, in the order the table would make them."""

    def __init__(self, seats: tuple[str, ...], pot: int):
        self.seats = seats
        self.pot_before = pot
        self.payments: list[Payment] = []

    def pay(self, payer: str, payee: str, amount: int, why: str, kind: str) -> None:
        # A zero payment is no payment; nobody hands over nothing.
        if amount > 0 and payer != payee:
            self.payments.append(Payment(payer, payee, amount, why, kind))

    def of_kind(self, *kinds: str) -> list[Payment]:
        return [p for p in self.payments if p.kind in kinds]

    def drop(self, *kinds: str) -> None:
        self.payments = [p for p in self.payments if p.kind not in kinds]

    def redirect(self, payment: Payment, payer: str, why: str) -> None:
        """Make ``payer`` pay ``payment`` instead of whoever was to pay it."""
        index = self.payments.index(payment)
        self.payments[index] = replace(payment, payer=payer, why=why)

    @property
    def pot(self) -> int:
        into = sum(p.amount for p in self.payments if p.payee == POT)
        out_of = sum(p.amount for p in self.payments if p.payer == POT)
        return self.pot_before + into - out_of

    def settlement(self, scores: dict[str, int]) -> Settlement:
        net = {seat: 0 for seat in self.seats}
        for p in self.payments:
            if not {p.payer, p.payee} <= {*self.seats, POT}:
                raise SettlementBug(f"{p} names someone who is not at the table.")
            if p.payer != POT:
                net[p.payer] -= p.amount
            if p.payee != POT:
                net[p.payee] += p.amount
        pot_after = self.pot
        if sum(net.values()) + (pot_after - self.pot_before) != 0:
            raise SettlementBug(f"Nets {net} and pot {self.pot_before}->{pot_after} do not sum to zero.")
        if pot_after < 0:
            raise SettlementBug(f"The pot would hold {pot_after}.")
        return Settlement(tuple(self.payments), net, self.pot_before, pot_after, dict(scores))
