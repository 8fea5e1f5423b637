"""The settlement engine: plain Python, no Django. Scores in, payments and seating out."""

from settlements.engine.ledger import Payment, Settlement, SettlementBug
from settlements.engine.penalties import PENALTIES
from settlements.engine.rotation import ROTATIONS, Seating, start_seating
from settlements.engine.schemes import SETTLEMENT_SCHEMES
from settlements.engine.session import HandRecord, SessionHand, SessionResult, run_session
from settlements.engine.settle import settle_hand
from settlements.engine.table import HandAtTable, Penalty, SettlementInputError

__all__ = [
    "ROTATIONS",
    "HandRecord",
    "Seating",
    "SessionHand",
    "SessionResult",
    "run_session",
    "start_seating",
    "PENALTIES",
    "SETTLEMENT_SCHEMES",
    "HandAtTable",
    "Payment",
    "Penalty",
    "Settlement",
    "SettlementBug",
    "SettlementInputError",
    "settle_hand",
]
