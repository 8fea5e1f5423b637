"""Recording and correcting hands: the one service both the pages and the API call.

In four modules: ``preview`` (the next hand worked out from the table's state), ``append`` (the
write), ``recompute`` (derived results rebuilt from what was entered) and ``corrections``
(correct, void, swap seats, with the audit trail).

Every write is atomic and ordered per table, so two scorers at one table get distinct hand
numbers and nothing half-saved: recording and corrections hold the table's row lock
(``select_for_update``; SQLite's IMMEDIATE transactions serialise writers the same way). What
was entered is stored as entered (``Hand``, ``HandEntry``); ``HandResult`` rows and
``Table.state`` are derived and rebuilt by ``recompute_table``. Recording appends from ``Table.state`` (the running totals, pot and
seating after the last hand, with a revision number), so a long night costs no more per hand
than a short one.

The entry shape (pages and API alike), keyed by the seat winds of the hand being recorded::

    {"winner": "S" | None, "discarder": "W" | None, "draw": False,
     "win_from": "wall" | "discard" | "kong_box" | "robbed_kong" | None,
     "goulash": None (as the seating says) | bool, "number": None | expected hand number,
     "seats": {"E": {<contract hand JSON>} | {"score": N}, ...}}
"""

from clubs.recording.append import record_hand
from clubs.recording.corrections import (
    correct_hand,
    entry_seats,
    later_hands_text,
    swap_seats,
    void_hand,
)
from clubs.recording.idempotency import EntryReused, hand_saved_with, same_hand_saved
from clubs.recording.preview import (
    HandConflict,
    HandPreview,
    entry_of,
    next_hand_of,
    preview_hand,
)
from clubs.recording.recompute import recompute_table
from play import HandInputError

__all__ = [
    "EntryReused",
    "HandConflict",
    "HandInputError",
    "HandPreview",
    "correct_hand",
    "later_hands_text",
    "entry_of",
    "entry_seats",
    "hand_saved_with",
    "next_hand_of",
    "preview_hand",
    "record_hand",
    "recompute_table",
    "same_hand_saved",
    "swap_seats",
    "void_hand",
]
