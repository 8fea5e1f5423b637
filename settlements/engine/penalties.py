"""Penalties (004 Sheet 30; 000's dead hand), applied after the hand's other payments.

Each kind is a named function ``fn(ledger, table, rule, penalty)``. The "pays for all" kinds
move the other losers' Mah Jong payments onto the offender rather than adding refunds, so the
payments list shows plainly who paid the winner and why.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from scoring.engine.rules.model import HouseRule
from settlements.engine.ledger import COUNT, DIFFERENCE, MAHJONG, PENALTY, Ledger
from settlements.engine.table import HandAtTable, Penalty

PenaltyFn = Callable[[Ledger, HandAtTable, HouseRule, Penalty], None]
PENALTIES: dict[str, PenaltyFn] = {}
# Kinds that need a winner (the offender pays the winner for the others).
PAYS_FOR_ALL = ("cannon", "not_calling", "false_naming_mahjong")
# Kinds that need a claimant.
NEEDS_CLAIMANT = ("false_naming",)


def penalty(kind: str) -> Callable[[PenaltyFn], PenaltyFn]:
    def register(fn: PenaltyFn) -> PenaltyFn:
        PENALTIES[kind] = fn
        return fn

    return register


def false_mahjong_amount(rule: HouseRule, given: int | None) -> int | None:
    if given is not None:
        return given
    if rule.scoring.limit is None:
        return None
    return int(Fraction(rule.scoring.limit) * rule.payment.false_mahjong_penalty_limit_fraction)


def pay_for_the_others(ledger: Ledger, offender: str, words: str) -> None:
    for p in ledger.of_kind(MAHJONG):
        if p.payer != offender:
            ledger.redirect(p, offender, f"{p.why} (for {p.payer}, paid by {offender}: {words})")


@penalty("false_mahjong")
def false_mahjong(ledger: Ledger, table: HandAtTable, rule: HouseRule, pen: Penalty) -> None:
    """004 Sheet 30 item 3: once another player has exposed a hand, the false caller pays each
    other player half the limit."""
    amount = false_mahjong_amount(rule, pen.amount)
    assert amount is not None, "validate.py asks for an amount where the rule has no limit"
    for seat in table.seats:
        ledger.pay(pen.offender, seat, amount, "false declaration of Mah Jong", PENALTY)


@penalty("false_naming")
def false_naming(ledger: Ledger, table: HandAtTable, rule: HouseRule, pen: Penalty) -> None:
    """004 Sheet 30 item 2: a wrongly named discard claimed for a chow, pung or kong: 50 to the
    claimant."""
    amount = rule.payment.false_naming_penalty if pen.amount is None else pen.amount
    assert pen.claimant is not None, "validate.py asks for the claimant"
    ledger.pay(pen.offender, pen.claimant, amount, "false naming of a discard", PENALTY)


@penalty("false_naming_mahjong")
def false_naming_mahjong(ledger: Ledger, table: HandAtTable, rule: HouseRule, pen: Penalty) -> None:
    """004 Sheet 30 item 2: claimed for Mah Jong, the discarder pays the winner in full and
    settles the others' debts to the winner; no other settlements between players."""
    pay_for_the_others(ledger, pen.offender, "false naming of the Mah Jong discard")
    ledger.drop(DIFFERENCE, COUNT)


@penalty("cannon")
def letting_off_a_cannon(ledger: Ledger, table: HandAtTable, rule: HouseRule, pen: Penalty) -> None:
    """004 Sheet 30 item 5: the offender reimburses the others what they paid the winner as
    well as settling their own debt; 000: after a penalty the others get no count."""
    pay_for_the_others(ledger, pen.offender, "letting off a cannon")
    ledger.drop(COUNT)


@penalty("not_calling")
def gave_mahjong_when_not_calling(ledger: Ledger, table: HandAtTable, rule: HouseRule,
                                  pen: Penalty) -> None:
    """000 Basic rules: giving the Mah Jong tile when not calling is a dead hand: the giver
    pays the penalty (the others' debts to the winner) and the others get no count."""
    pay_for_the_others(ledger, pen.offender, "gave the Mah Jong tile when not calling")
    ledger.drop(COUNT)
