"""The next hand of a table, worked out before anything is written: the table's state after its
last hand (``Table.state``: running totals, pot, the next seating, a revision number), the entry
checked against that seating, every seat scored and the hand settled."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from clubs.models import ClubSession, Hand, SessionStatus, Table
from clubs.table_state import build_table_state, named_now, rules_of, with_names
from play import (
    STATE_VERSION,
    UNKNOWN,
    ComputedHand,
    HandInputError,
    HandRow,
    SeatInfo,
    Seating,
    check_entry,
    compute_hand,
    discarder_unknown,
    entry_kind,
    hand_row,
    rotation_advance,
    rotation_from_json,
    rotation_json,
    seating_of,
    snapshot_json,
)


class HandConflict(Exception):
    """Someone else recorded a hand at this table first: look at the table and enter again."""

    # The hand saved under that number, and the entry that found it taken, to show side by
    # side (set by clubs.recording.append).
    saved: Hand | None = None
    entry: dict | None = None
    seat_of: dict | None = None  # the entry's winds -> seat ids, as it was read

    def __init__(self, expected: int, actual: int):
        self.expected, self.actual = expected, actual
        super().__init__(
            f"Hand {expected} has just been recorded at this table by someone else, so this "
            f"hand would be hand {actual} and the winds may have moved on. Check the table and "
            f"enter the hand again."
        )


@dataclass(frozen=True)
class HandPreview:
    """Everything a scorer checks before saving: each seat's score with its explanation, the
    payments, and the running totals after the hand."""

    number: int
    computed: ComputedHand
    seat_ids: dict[str, int]  # wind -> seat id
    seats: tuple[SeatInfo, ...]
    totals_before: dict[int, int]
    totals_after: dict[int, int]
    pot_before: int
    pot_after: int
    table: Table | None = None  # whose rules (``rules_of``) move the seating on

    @property
    def seating(self) -> Seating:
        return self.computed.seating

    def row(self, hand_id: int | None = None) -> HandRow:
        """The hand as its table shows it once recorded (``hand_id``, once it is): the row
        ``play.replay`` makes of it, each seat's entry with the kind recording stores."""
        outcome = self.computed.outcome
        seat_ids = self.seat_ids
        base = dict(
            id=hand_id, number=self.number, voided=False, seating=self.computed.seating,
            winner=seat_ids.get(outcome.winner) if outcome.winner else None,
            discarder=seat_ids.get(outcome.discarder) if outcome.discarder else None,
            draw=outcome.draw, goulash=outcome.goulash, win_source=outcome.win_from or "",
            entries={seat_ids[w]: {"kind": entry_kind(data), "data": data, "wind": w}
                     for w, data in outcome.seats.items()},
        )
        return hand_row(base, self.computed, self.totals_before)


# -- reading the entry ----------------------------------------------------------------------


def entry_of(hand: Hand) -> dict:
    """A stored hand in the entry shape (keyed by the winds it was played with)."""
    entries = list(hand.entries.all())
    wind = {e.seat_id: e.seat_wind for e in entries}
    return {
        "number": hand.number,
        "winner": wind.get(hand.winner_id),
        "discarder": (UNKNOWN if discarder_unknown(hand.winner_id, hand.discarder_id,
                                                   hand.win_source)
                      else wind.get(hand.discarder_id)),
        "draw": hand.draw,
        "win_from": hand.win_source or None,
        "goulash": hand.goulash,
        "seats": {e.seat_wind: copy.deepcopy(e.data) for e in entries},
        "facts": copy.deepcopy(hand.facts or {}),
    }


# -- the table's state after its last hand --------------------------------------------------


@dataclass
class TableSnapshot:
    last_number: int
    totals: dict[int, int]
    pot: int
    next: Seating
    rotation: dict
    seats: tuple[SeatInfo, ...]
    rev: int

    @staticmethod
    def usable(state: dict | None) -> bool:
        return bool(state) and state.get("v") == STATE_VERSION

    @classmethod
    def load(cls, table: Table, state: dict | None,
             names: dict[int, str] | None = None) -> TableSnapshot:
        """The snapshot of ``state`` (the table replayed when it is missing or out of date),
        its seats named as they are now: ``names`` (seat id -> name, read with the table's
        lock: ``clubs.table_state.lock_table``), or read here."""
        if not cls.usable(state):
            state = build_table_state(table).snapshot(rev=(state or {}).get("rev", 0))
        seats = tuple(SeatInfo(*seat) for seat in state["seats"])
        return cls(
            state["last_number"],
            {int(k): v for k, v in state["totals"].items()},
            state["pot"],
            Seating.from_json(state["next"]),
            state["rotation"],
            with_names(seats, names) if names is not None else named_now(table.pk, seats),
            state.get("rev", 0),
        )


def preview_next(table: Table, session: ClubSession, snap: TableSnapshot, entry: Any) -> HandPreview:
    if session.status != SessionStatus.OPEN:
        raise HandInputError({"non_field_errors": [
            "This session is closed: reopen it (status open) to record more hands."]})
    seating = snap.next
    outcome = check_entry(entry, seating)
    number = snap.last_number + 1
    expected = entry.get("number")
    if expected is not None and expected > number:
        # Not a race: nobody has recorded the hands between (a 409 would say someone had).
        raise HandInputError({"number": [
            f"The next hand at this table is hand {number}, so hand {expected} cannot be "
            f"recorded yet. Give number {number}, or leave number out."]})
    if expected is not None and expected != number:
        raise HandConflict(expected, number)
    seating = seating.with_goulash(outcome.goulash)
    computed = compute_hand(rules_of(session, table), seating, outcome, snap.pot)
    seat_ids = {w: s for s, w in seating.winds.items()}
    net = {seat_ids[w]: n for w, n in computed.settlement.net.items()}
    return HandPreview(
        number=number,
        computed=computed,
        seat_ids=seat_ids,
        seats=snap.seats,
        totals_before=dict(snap.totals),
        totals_after={s: t + net.get(s, 0) for s, t in snap.totals.items()},
        pot_before=computed.settlement.pot_before,
        pot_after=computed.settlement.pot_after,
        table=table,
    )


def next_hand_of(table: Table) -> tuple[int, Seating, int, tuple[SeatInfo, ...]]:
    """The next hand's number and seating, the pot, and the seats, from the table's state
    (no replay of the night unless that state is missing or out of date)."""
    snap = TableSnapshot.load(table, table.state)
    return snap.last_number + 1, snap.next, snap.pot, snap.seats


def preview_hand(table: Table, entry: dict) -> HandPreview:
    """Score and settle the next hand of the table without saving anything.

    Raises ``HandInputError`` (DRF-shaped errors, seats' hand problems under ``seats.<wind>``)
    or ``HandConflict`` when ``entry["number"]`` is no longer the next hand's number.
    """
    return preview_next(table, table.session, TableSnapshot.load(table, table.state), entry)



def state_after(session, snap: TableSnapshot, preview: HandPreview, winner_id: int | None) -> dict:
    rot = rotation_advance(rules_of(session, preview.table).rule,
                           rotation_from_json(snap.rotation), winner_id)
    return snapshot_json(
        preview.number, preview.totals_after, preview.pot_after, seating_of(rot),
        rotation_json(rot), snap.seats, snap.rev + 1,
    )

