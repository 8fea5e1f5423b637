"""Playing a table, in plain Python: what was entered for a hand -> each seat's score (the scoring
engine) -> the payments (the settlement engine) -> the next hand's seating and pot; and
``replay`` over a table's recorded hands. No Django here: the clubs app stores what this
computes, and a rule comparison replays recorded hands under other house rules with it.
"""

from play.entry import (
    BONUS_TILES,
    GIVEN,
    KONG_HOWS,
    MAX_SCORE,
    UNKNOWN,
    WIN_SOURCES,
    Outcome,
    check_entry,
    discarder_unknown,
    entry_kind,
    fact_problems,
    full_hand_json,
    is_quick,
    quick_problems,
)
from play.errors import HandInputError, SeatingError
from play.hand import ComputedHand, SeatScore, SessionRules, compute_hand, score_seat
from play.seating import (
    WIND_ORDER,
    Seating,
    apply_swaps,
    rotation_advance,
    rotation_from_json,
    rotation_json,
    rotation_start,
    seating_of,
)
from play.sequence import (
    AS_RECORDED,
    KEPT,
    LATER_HANDS,
    RESEAT,
    Break,
    SeatingOf,
    sequence_breaks,
)
from play.table import (
    POT,
    STATE_VERSION,
    HandRow,
    NextHand,
    RecordedHand,
    SeatInfo,
    StoredResult,
    TablePayment,
    TableState,
    hand_row,
    play_hand,
    replay,
    snapshot_json,
)

__all__ = [
    "AS_RECORDED", "KEPT", "LATER_HANDS", "RESEAT", "Break", "SeatingOf", "sequence_breaks",
    "BONUS_TILES", "GIVEN", "KONG_HOWS", "MAX_SCORE", "POT", "STATE_VERSION", "UNKNOWN",
    "WIND_ORDER", "discarder_unknown",
    "WIN_SOURCES", "ComputedHand", "HandInputError", "HandRow", "NextHand", "Outcome",
    "RecordedHand", "SeatInfo", "SeatScore", "Seating", "SeatingError", "SessionRules",
    "StoredResult", "TablePayment", "TableState", "apply_swaps", "check_entry",
    "compute_hand", "entry_kind", "fact_problems", "full_hand_json", "hand_row", "is_quick", "play_hand",
    "quick_problems", "replay", "rotation_advance", "rotation_from_json", "rotation_json",
    "rotation_start", "score_seat", "seating_of", "snapshot_json",
]
