"""Writing a recorded hand: the hand, its entries, each seat's result, the hand's computed row
and the table's new state, all at once, in order per table, and nothing half-saved.

One way, through the ORM: inside ``transaction.atomic`` the table's row is locked
(``select_for_update``; on SQLite the IMMEDIATE transaction's write lock), the entry is checked,
scored and settled against the table's state as it is under that lock, the rows are inserted and
the state saved, and ``table_recomputed`` lets league write its night summary in the same
transaction. A club night is well under a hand a second; ``bench/bench_api_load.py --compare``
holds this path to a floor against a bare DRF insert.
"""

from __future__ import annotations

import logging
import random
import time

from django.db import IntegrityError, OperationalError, connection, transaction

from clubs.models import ClubSession, EntryKind, Hand, HandEntry, HandResult, Table
from clubs.recording.idempotency import conflicting_hand, hand_saved_with, same_hand_saved
from clubs.recording.preview import (
    HandConflict,
    HandPreview,
    TableSnapshot,
    preview_next,
    state_after,
)
from clubs.recording.recompute import recompute_table
from clubs.signals import table_recomputed
from clubs.table_state import lock_table
from play import ComputedHand, hand_row, is_quick

# One record a hand recorded (after its commit), and what an operator wants to know of the
# unusual: a table's stored state rebuilt, an entry sent twice, a hand number already taken.
log = logging.getLogger(__name__)


def record_hand(table: Table, entry: dict, user, with_preview: bool = False, client_id=None,
                read_as=None):
    """Save the next hand of the table, atomically, with the next number and the derived
    results appended. Returns the saved ``Hand`` (with ``with_preview``: the hand and the
    ``HandPreview`` it was saved from, None when ``client_id`` finds the hand this very entry
    saved before, or ``entry["number"]`` is a hand already saved with the same figures (from
    another phone: the hand's ``client_id`` is not this one): nothing is written again).

    ``read_as``: how to read what was typed for a saved hand, with that hand's seating (the
    record page: its form names seats, and ``entry`` is keyed by the next hand's winds);
    without it ``entry`` is read as typed for hand ``entry["number"]``, as the API's is.

    Raises ``HandInputError`` (bad entry) or ``HandConflict`` (``entry["number"]`` taken by
    another entry, which the conflict carries as ``saved``)."""
    stale_retries, lock_waits = 1, 0
    while True:
        try:
            hand, preview = _record_under_lock(table, entry, user, client_id, read_as)
            return (hand, preview) if with_preview else hand
        except IntegrityError:
            # A hand written behind the service's back (the admin, a loader) left the stored
            # state behind its hands: rebuild it and try once more.
            if not stale_retries:
                raise
            stale_retries -= 1
            log.warning("table %s: its stored state was behind its hands (written outside the "
                        "recording service); rebuilt, and the hand recorded again", table.pk)
            recompute_table(table)
        except OperationalError as exc:
            # SQLite answers "locked" at once, without waiting, where its shared cache is in
            # use (the in-memory test database); the transaction was rolled back whole, so
            # starting again is safe, unless a caller's transaction encloses this one.
            if "locked" not in str(exc) or lock_waits >= 200 or connection.in_atomic_block:
                raise
            lock_waits += 1
            time.sleep(0.005 + random.random() * 0.01)


def _record_under_lock(table: Table, entry: dict, user, client_id,
                       read_as=None) -> tuple[Hand, HandPreview | None]:
    session = table.session
    with transaction.atomic():
        # The lock, and the state as it is now that nobody else can change it (with the
        # seats' names as they are now, for the answer).
        state, names = lock_table(table.pk)
        saved = hand_saved_with(table, client_id, entry)
        if saved is not None:
            log.info("table %s: entry %s sent again; answered with hand %s saved before",
                     table.pk, client_id, saved.number)
            return saved, None
        snap = TableSnapshot.load(table, state, names)
        try:
            preview = preview_next(table, session, snap, entry)
        except HandConflict as conflict:
            same = same_hand_saved(table, conflict.expected, read_as or entry)
            if same is not None:
                # Two phones saved this hand with the same figures: the second is told it is
                # saved (the hand the first saved), nothing written twice, no clash to mend.
                log.info("table %s: hand %s sent from two phones with the same figures; "
                         "answered with the hand saved first", table.pk, same.number)
                return same, None
            conflict.saved = conflicting_hand(table, conflict.expected)
            conflict.entry = entry
            conflict.seat_of = {wind: seat for seat, wind in snap.next.winds.items()}
            log.info("table %s: hand %s was recorded by another entry first; the scorer is "
                     "asked which to keep", table.pk, conflict.expected)
            raise
        hand = append_hand(table, session, preview, user, client_id)
        table.state = state_after(session, snap, preview, hand.winner_id)
        table.save(update_fields=["state"])
        table_recomputed.send(sender=Table, table=table, from_number=hand.number,
                              appended=hand.pk, hand=hand)
        who = user.pk if user is not None and user.is_authenticated else None
        transaction.on_commit(lambda: log.info(
            "club %s: hand %s recorded at table %s (night %s) by user %s", session.club_id,
            hand.number, table.pk, session.date, who))
    return hand, preview


def append_hand(table: Table, session: ClubSession, preview: HandPreview, user,
                client_id=None) -> Hand:
    """Insert the hand, its entries and its results (the caller holds the table's lock and
    saves its new state)."""
    computed, seat_ids = preview.computed, preview.seat_ids
    outcome = computed.outcome
    hand = Hand(
        table=table,
        number=preview.number,
        prevailing_wind=computed.seating.prevailing_wind,
        dealer_id=computed.seating.dealer_seat,
        winner_id=seat_ids[outcome.winner] if outcome.winner else None,
        discarder_id=seat_ids[outcome.discarder] if outcome.discarder else None,
        draw=outcome.draw,
        goulash=outcome.goulash,
        win_source=outcome.win_from or "",
        facts=outcome.facts,
        created_by=user if user is not None and user.is_authenticated else None,
        client_id=client_id,
    )
    hand.computed = _computed_json(hand, preview)
    hand.save(force_insert=True)
    HandEntry.objects.bulk_create(
        HandEntry(hand=hand, seat_id=seat_ids[wind], seat_wind=wind,
                  kind=EntryKind.QUICK if is_quick(data) else EntryKind.FULL, data=data)
        for wind, data in outcome.seats.items()
    )
    members = {s.id: s.member_id for s in preview.seats}
    HandResult.objects.bulk_create(
        HandResult(hand=hand, club_id=session.club_id, season_id=session.season_id,
                   session_id=session.pk, computed=hand.created, **fields)
        for fields in _result_fields(computed, seat_ids, preview.totals_after, members)
    )
    return hand


def _result_fields(computed: ComputedHand, seat_ids: dict[str, int], totals_after: dict,
                   members: dict) -> list[dict]:
    """Each seat's row of a counted hand, as ``HandResult``'s own fields."""
    net, outcome = computed.settlement.net, computed.outcome
    return [
        {
            "seat_id": seat_ids[wind],
            "member_id": members.get(seat_ids[wind]),
            "seat_wind": wind,
            "score": seat.score,
            "net": net[wind],
            "running_total": totals_after[seat_ids[wind]],
            "won": outcome.winner == wind,
            "gave": outcome.discarder == wind,
            "limit": (seat.result.limit or "")[:60] if seat.result else "",
        }
        for wind, seat in computed.seats.items()
    ]


def _computed_json(hand: Hand, preview: HandPreview) -> dict:
    """``Hand.computed`` of a hand being recorded: its row of the table, as a replay makes it."""
    base = dict(
        id=hand.pk, number=hand.number, voided=False, seating=preview.computed.seating,
        winner=hand.winner_id, discarder=hand.discarder_id, draw=hand.draw,
        goulash=hand.goulash, win_source=hand.win_source, entries={},
    )
    return hand_row(base, preview.computed, preview.totals_before).to_json()
