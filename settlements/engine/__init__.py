"""The settlement engine: plain Python, no Django. Scores in, payments and seating out.

``settle_hand(HandAtTable, HouseRule) -> Settlement`` settles one hand: the house rule's
scheme (``schemes.py``), the shared steps its params switch on (``steps.py``), penalties
(``penalties.py``); the ledger refuses a result that does not net to zero with the pot.
``run_session(hands, rule)`` settles a table's hands in order, keeps the tallies and the pot,
and moves the seating on by the rule's rotation (``rotation.py``).

Readings chosen where the rule documents leave a gap (each a parameter where clubs differ):
- 004: East keeps the seat for at most three hands in a row (Sheet 5 item 4; Sheet 16's "up to
  three times" read the same way); a drawn hand is replayed as a goulash by the same East and
  does not count towards the three.
- 001, five players: a drawn hand keeps everyone in place (the goulash "with the same player as
  East"); only a hand won by someone else retires East.
- 002: the wind of the round lasts ``games_per_wind`` (4) hands, then moves on at the first hand
  the dealer loses after them (the 5th or later: ``wind_moves_on="after_games_per_wind"``); a
  draw is not a loss.
- 003: kong chips are paid at once, so also in a drawn hand and in a goulash (where the winner
  otherwise takes the pot only); with a win on a kong's replacement tile, the winner's last
  listed kong earns no chips. A hand below the first row of the points-to-payment table pays
  the first row.
- 000: the kitty is put up when a goulash follows a draw and the kitty is empty; "a further
  1000" after another draw is read per player; a clean hand's count is its own score, paid by
  the other losers (East double); any "pays for all" penalty cancels the counts.
- A robbed kong is paid like a discard: the robbed player is the ``discarder``.
- Discarder unknown (``HandAtTable.discarder_unknown``: won on another player's tile, nobody
  remembers whose, or a KDE Kajongg import, which stores no discarder): where every loser pays
  the winner anyway (``bmja``, ``goulash_kitty``) the hand is paid exactly as with a named
  discarder; where the discarder pays more (``winner_table``, ``discarder_pays``) nobody is
  charged the discarder's part and every loser pays the winner as on a self-drawn hand, the
  way Kajongg pays every hand. A penalty that names the discarder cannot be given with it.
"""

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
