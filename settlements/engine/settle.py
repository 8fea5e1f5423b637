"""Settle one finished hand: the house rule's scheme, then the shared steps, then penalties."""

from __future__ import annotations

from scoring.engine.rules.model import HouseRule
from settlements.engine.ledger import Ledger, Settlement
from settlements.engine.penalties import PENALTIES
from settlements.engine.schemes import SETTLEMENT_SCHEMES
from settlements.engine.steps import STEPS_AFTER, STEPS_BEFORE
from settlements.engine.table import HandAtTable
from settlements.engine.validate import check_table


def settle_hand(table: HandAtTable, rule: HouseRule) -> Settlement:
    """Every payment of the hand and each seat's net.

    Raises ``SettlementInputError`` for a hand that cannot have happened, and
    ``SettlementBug`` if the payments would not net to zero (a defect in the engine).
    """
    check_table(table, rule)
    ledger = Ledger(table.seats, table.pot)
    for step in STEPS_BEFORE:
        step(ledger, table, rule)
    # 003 p.8: in a goulash the winner takes the pot money only.
    if not (table.goulash and rule.payment.goulash_pays_pot_only):
        SETTLEMENT_SCHEMES[rule.payment.scheme](ledger, table, rule)
    for step in STEPS_AFTER:
        step(ledger, table, rule)
    for pen in table.penalties:
        PENALTIES[pen.kind](ledger, table, rule, pen)
    return ledger.settlement(table.scores)
