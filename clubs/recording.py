"""Recording and correcting hands: the one service both the pages and the API call.

Every write is atomic and ordered per table, so two scorers at one table get distinct hand
numbers and nothing half-saved: corrections (and recording on SQLite) hold the table's row lock
(``select_for_update``; SQLite's IMMEDIATE transactions serialise writers the same way);
recording on PostgreSQL is one statement that writes only if the table's state is still the
revision the hand was computed from. What was entered is stored as entered (``Hand``,
``HandEntry``); ``HandResult`` rows and ``Table.state`` are derived and rebuilt by
``recompute_table``. Recording appends from ``Table.state`` (the running totals, pot and
seating after the last hand, with a revision number), so a long night costs no more per hand
than a short one.

The entry shape (pages and API alike), keyed by the seat winds of the hand being recorded::

    {"winner": "S" | None, "discarder": "W" | None, "draw": False,
     "win_from": "wall" | "discard" | "kong_box" | "robbed_kong" | None,
     "goulash": None (as the seating says) | bool, "number": None | expected hand number,
     "seats": {"E": {<contract hand JSON>} | {"score": N}, ...}}
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import time
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from clubs.models import (
    AuditAction,
    AuditEntry,
    Club,
    ClubSession,
    EntryKind,
    Hand,
    HandEntry,
    HandResult,
    Member,
    Seat,
    SessionStatus,
    Table,
)
from clubs.permissions import remember_role
from clubs.signals import table_recomputed
from clubs.table_state import build_table_state, rules_of
from play import (
    STATE_VERSION,
    ComputedHand,
    HandInputError,
    HandRow,
    SeatInfo,
    Seating,
    TableState,
    check_entry,
    compute_hand,
    hand_row,
    is_quick,
    rotation_advance,
    rotation_from_json,
    rotation_json,
    seating_of,
    snapshot_json,
)

__all__ = [
    "HandConflict",
    "HandInputError",
    "HandPreview",
    "correct_hand",
    "load_table",
    "next_hand_of",
    "entry_of",
    "preview_hand",
    "record_hand",
    "recompute_table",
    "swap_seats",
    "void_hand",
]


class HandConflict(Exception):
    """Someone else recorded a hand at this table first: look at the table and enter again."""

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

    @property
    def seating(self) -> Seating:
        return self.computed.seating


# -- reading the entry ----------------------------------------------------------------------


def entry_of(hand: Hand) -> dict:
    """A stored hand in the entry shape (keyed by the winds it was played with)."""
    entries = list(hand.entries.all())
    wind = {e.seat_id: e.seat_wind for e in entries}
    return {
        "number": hand.number,
        "winner": wind.get(hand.winner_id),
        "discarder": wind.get(hand.discarder_id),
        "draw": hand.draw,
        "win_from": hand.win_source or None,
        "goulash": hand.goulash,
        "seats": {e.seat_wind: copy.deepcopy(e.data) for e in entries},
        "facts": copy.deepcopy(hand.facts or {}),
    }


# -- the table's state after its last hand --------------------------------------------------


@dataclass
class _Snapshot:
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
    def load(cls, table: Table, state: dict | None) -> _Snapshot:
        if not cls.usable(state):
            state = build_table_state(table).snapshot(rev=(state or {}).get("rev", 0))
        return cls(
            state["last_number"],
            {int(k): v for k, v in state["totals"].items()},
            state["pot"],
            Seating.from_json(state["next"]),
            state["rotation"],
            tuple(SeatInfo(*seat) for seat in state["seats"]),
            state.get("rev", 0),
        )


def _preview(table: Table, session: ClubSession, snap: _Snapshot, entry: Any) -> HandPreview:
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
    computed = compute_hand(rules_of(session), seating, outcome, snap.pot)
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
    )


def next_hand_of(table: Table) -> tuple[int, Seating, int, tuple[SeatInfo, ...]]:
    """The next hand's number and seating, the pot, and the seats, from the table's state
    (no replay of the night unless that state is missing or out of date)."""
    snap = _Snapshot.load(table, table.state)
    return snap.last_number + 1, snap.next, snap.pot, snap.seats


def preview_hand(table: Table, entry: dict) -> HandPreview:
    """Score and settle the next hand of the table without saving anything.

    Raises ``HandInputError`` (DRF-shaped errors, seats' hand problems under ``seats.<wind>``)
    or ``HandConflict`` when ``entry["number"]`` is no longer the next hand's number.
    """
    return _preview(table, table.session, _Snapshot.load(table, table.state), entry)


# -- recording ------------------------------------------------------------------------------


def load_table(table_id: int, user) -> Table | None:
    """The table with its session and club, for recording, and the user's role at the club
    remembered for ``clubs.permissions`` — in one small query. Measured here the ORM's version of
    this (select_related and a role subquery) cost ten times the CPU of the query itself, the
    largest single cost of recording a hand, hence plain SQL."""
    member_user = user.pk if user is not None and user.is_authenticated else None
    sql = f"""
        SELECT t.id, t.session_id, t.number, t.state,
               s.club_id, s.season_id, s.status, s.house_rule_version_id,
               s.goulash_rule_version_id, c.name, c.slug, c.published,
               (SELECT m.role FROM {Member._meta.db_table} m
                WHERE m.club_id = c.id AND m.user_id = %s AND m.active = %s)
        FROM {Table._meta.db_table} t
        JOIN {ClubSession._meta.db_table} s ON s.id = t.session_id
        JOIN {Club._meta.db_table} c ON c.id = s.club_id
        WHERE t.id = %s
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [member_user, True, table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    (pk, session_id, number, state, club_id, season_id, status, version_id, goulash_id, name,
     slug, published, role) = row
    club = _loaded(Club, id=club_id, name=name, slug=slug, published=bool(published))
    session = _loaded(ClubSession, id=session_id, club_id=club_id, season_id=season_id,
                      status=status, house_rule_version_id=version_id,
                      goulash_rule_version_id=goulash_id)
    session.club = club
    table = _loaded(Table, id=pk, session_id=session_id, number=number,
                    state=json.loads(state) if isinstance(state, str) else state)
    table.session = session
    if member_user is not None:
        remember_role(user, club_id, role)
    return table


def _loaded(model, **values):
    """A model instance from some of its columns; the others load on first use (deferred), and
    saving it writes only these."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[n] for n in names])


def record_hand(table: Table, entry: dict, user, with_preview: bool = False):
    """Save the next hand of the table, atomically, with the next number and the derived
    results appended. Returns the saved ``Hand`` (with ``with_preview``: the hand and the
    ``HandPreview`` it was saved from).

    On PostgreSQL (outside a caller's transaction) the hand is one statement that writes only
    if the table's state is still the revision it was computed from, else it is computed again
    from the new state: the same guarantees as the row lock, in a third of the round trips.
    Elsewhere it is a transaction under the table's row lock.
    """
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        hand, preview = _record_in_one_statement(table, entry, user)
    else:
        hand, preview = _record_under_lock(table, entry, user)
    return (hand, preview) if with_preview else hand


def _record_under_lock(table: Table, entry: dict, user) -> tuple[Hand, HandPreview]:
    session = table.session
    stale_retries, lock_waits = 1, 0
    # Scored and settled before the lock from the state as last read, so that writers queue
    # only for the writes; under the lock it is done again only if the state has moved on.
    early = None
    if _Snapshot.usable(table.state):
        snap = _Snapshot.load(table, table.state)
        try:
            early = snap, _preview(table, session, snap, entry)
        except (HandInputError, HandConflict):
            early = None  # judged again under the lock, against the state as it is then
    while True:
        try:
            with transaction.atomic():
                # The lock, and the state as it is now that nobody else can change it.
                state = _locked_state(table)
                if early and _Snapshot.usable(state) and state["rev"] == early[0].rev:
                    snap, preview = early
                else:
                    snap = _Snapshot.load(table, state)
                    preview = _preview(table, session, snap, entry)
                hand = _write_hand(table, session, preview, user)
                _save_state(table, _state_after(session, snap, preview, hand.winner_id))
                table_recomputed.send(sender=Table, table=table, from_number=hand.number)
            return hand, preview
        except IntegrityError:
            # A hand written behind the service's back (admin, a loader) made the cached state
            # stale: rebuild it and try once more.
            if not stale_retries:
                raise
            stale_retries -= 1
            recompute_table(table)
        except OperationalError as exc:
            # SQLite answers "locked" at once, without waiting, where its shared cache is in
            # use (the in-memory test database); the transaction was rolled back whole, so
            # waiting a moment and starting again is safe, unless a caller's transaction
            # encloses this one.
            if "locked" not in str(exc) or lock_waits >= 200 or connection.in_atomic_block:
                raise
            lock_waits += 1
            time.sleep(0.005 + random.random() * 0.01)


def _state_after(session, snap: _Snapshot, preview: HandPreview, winner_id: int | None) -> dict:
    rot = rotation_advance(rules_of(session).rule, rotation_from_json(snap.rotation), winner_id)
    return snapshot_json(
        preview.number, preview.totals_after, preview.pot_after, seating_of(rot),
        rotation_json(rot), snap.seats, snap.rev + 1,
    )


# -- PostgreSQL: a hand in one statement ----------------------------------------------------

# Every column the statement writes; tests/web/test_recording.py checks these are all the
# models' columns, so a new field cannot be silently left out.
HAND_COLUMNS = ("table_id", "number", "prevailing_wind", "dealer_id", "winner_id",
                "discarder_id", "draw", "goulash", "win_source", "facts", "computed", "voided",
                "created_by_id", "created", "updated")
ENTRY_COLUMNS = ("hand_id", "seat_id", "seat_wind", "kind", "data")
RESULT_COLUMNS = ("hand_id", "seat_id", "club_id", "season_id", "session_id", "member_id",
                  "seat_wind", "score", "net", "running_total", "won", "gave", "limit",
                  "computed")


def _columns(names: tuple[str, ...]) -> str:
    # Quoted: "limit" is a keyword in SQL.
    return ", ".join(connection.ops.quote_name(n) for n in names)


def _append_sql() -> str:
    # The entries and results go as one JSON document each (jsonb_to_recordset), not as rows
    # of values: the statement has the same text and 19 parameters whatever the table, so it
    # is prepared once per connection, and json.dumps encodes them faster than the driver
    # adapts rows or arrays of values.
    return f"""
        WITH t AS (
            UPDATE {Table._meta.db_table} SET state = %s::jsonb
            WHERE id = %s AND (state ->> 'rev')::int = %s AND state ->> 'v' = %s
            RETURNING id
        ), h AS (
            INSERT INTO {Hand._meta.db_table} ({_columns(HAND_COLUMNS)})
            SELECT t.id, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, false, %s,
                   now(), now()
            FROM t RETURNING id
        ), e AS (
            INSERT INTO {HandEntry._meta.db_table} ({_columns(ENTRY_COLUMNS)})
            SELECT h.id, v.seat_id, v.seat_wind, v.kind, v.data
            FROM h, jsonb_to_recordset(%s::jsonb)
                 AS v (seat_id bigint, seat_wind text, kind text, data jsonb)
        ), r AS (
            INSERT INTO {HandResult._meta.db_table} ({_columns(RESULT_COLUMNS)})
            SELECT h.id, v.seat_id, %s, %s::bigint, %s, v.member_id, v.seat_wind, v.score,
                   v.net, v.running_total, v.won, v.gave, v."limit", now()
            FROM h, jsonb_to_recordset(%s::jsonb) AS v (seat_id bigint, member_id bigint,
                                                        seat_wind text, score int, net int,
                                                        running_total int, won boolean,
                                                        gave boolean, "limit" text)
        )
        SELECT id FROM h
    """


APPEND_SQL = _append_sql()


def _record_in_one_statement(table: Table, entry: dict, user) -> tuple[Hand, HandPreview]:
    session = table.session
    state = table.state
    for _ in range(100):
        if not _Snapshot.usable(state):
            recompute_table(table)
            state = table.state
        snap = _Snapshot.load(table, state)
        preview = _preview(table, session, snap, entry)
        hand = _unsaved_hand(table, preview, user)
        params, new_state = _append_params(session, snap, preview, hand)
        try:
            # One statement needs no transaction of its own, unless a feature app's summaries
            # are to be written with the hand (clubs.signals).
            listening = table_recomputed.has_listeners(Table)
            with transaction.atomic() if listening else contextlib.nullcontext():
                with connection.cursor() as cursor:
                    cursor.execute(APPEND_SQL, params)
                    row = cursor.fetchone()
                if row is not None and listening:
                    table.state = new_state
                    table_recomputed.send(sender=Table, table=table, from_number=hand.number)
        except IntegrityError:
            # A hand written behind the service's back: rebuild the state and compute again.
            recompute_table(table)
            state = table.state
            continue
        if row is not None:
            hand.pk = row[0]
            hand._state.adding = False
            hand._state.db = connection.alias
            table.state = new_state
            return hand, preview
        # Another hand was recorded (or corrected) since the state was read: start again.
        state = Table.objects.values_list("state", flat=True).get(pk=table.pk)
    raise HandConflict(entry.get("number") or snap.last_number + 1, snap.last_number + 1)


def _unsaved_hand(table: Table, preview: HandPreview, user) -> Hand:
    computed, seat_ids = preview.computed, preview.seat_ids
    outcome = computed.outcome
    return Hand(
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
    )


def _append_params(session, snap: _Snapshot, preview: HandPreview,
                   hand: Hand) -> tuple[list, dict]:
    new_state = _state_after(session, snap, preview, hand.winner_id)
    params: list = [
        json.dumps(new_state), hand.table_id, snap.rev, str(STATE_VERSION),
        hand.number, hand.prevailing_wind, hand.dealer_id, hand.winner_id, hand.discarder_id,
        hand.draw, hand.goulash, hand.win_source, json.dumps(hand.facts),
        json.dumps(_computed_json(hand, preview)), hand.created_by_id,
    ]
    computed, seat_ids = preview.computed, preview.seat_ids
    entries = [
        {"seat_id": seat_ids[wind], "seat_wind": wind, "data": data,
         "kind": (EntryKind.QUICK if is_quick(data) else EntryKind.FULL).value}
        for wind, data in computed.outcome.seats.items()
    ]
    params.append(json.dumps(entries))
    params += [session.club_id, session.season_id, session.pk]
    members = {s.id: s.member_id for s in preview.seats}
    results = _result_fields(computed, seat_ids, preview.totals_after, members)
    params.append(json.dumps(results))
    return params, new_state


def _write_hand(table: Table, session: ClubSession, preview: HandPreview, user) -> Hand:
    """Insert the hand, its entries and its results. Plain statements, each value prepared by
    its model field for the database in use: building them with the ORM cost several times
    what running them did, the larger part of a recorded hand's time on SQLite."""
    computed, seat_ids = preview.computed, preview.seat_ids
    hand = _unsaved_hand(table, preview, user)
    hand.created = hand.updated = timezone.now()
    hand.computed = _computed_json(hand, preview)
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(Hand, HAND_COLUMNS) + " RETURNING id",
                       _prepared(Hand, hand, HAND_COLUMNS))
        hand.pk = cursor.fetchone()[0]
        entries = [
            HandEntry(hand_id=hand.pk, seat_id=seat_ids[wind], seat_wind=wind,
                      kind=EntryKind.QUICK if is_quick(data) else EntryKind.FULL, data=data)
            for wind, data in computed.outcome.seats.items()
        ]
        cursor.executemany(_insert_sql(HandEntry, ENTRY_COLUMNS),
                           [_prepared(HandEntry, e, ENTRY_COLUMNS) for e in entries])
        members = {s.id: s.member_id for s in preview.seats}
        results = _results(hand, session, computed, seat_ids, preview.totals_after, members)
        cursor.executemany(_insert_sql(HandResult, RESULT_COLUMNS),
                           [_prepared(HandResult, r, RESULT_COLUMNS) for r in results])
    hand._state.adding = False
    hand._state.db = connection.alias
    return hand


def _insert_sql(model, columns: tuple[str, ...]) -> str:
    marks = ", ".join(["%s"] * len(columns))
    return f"INSERT INTO {model._meta.db_table} ({_columns(columns)}) VALUES ({marks})"


def _prepared(model, obj, columns: tuple[str, ...]) -> list:
    fields = {f.column: f for f in model._meta.concrete_fields}
    return [
        fields[c].get_db_prep_save(getattr(obj, fields[c].attname), connection) for c in columns
    ]


def _locked_state(table: Table) -> dict | None:
    """The table's state, read under its row lock (SQLite: the transaction's write lock)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT state FROM {Table._meta.db_table} WHERE id = %s{lock}", [table.pk])
        (state,) = cursor.fetchone()
    return json.loads(state) if isinstance(state, str) else state


def _save_state(table: Table, state: dict) -> None:
    field = Table._meta.get_field("state")
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Table._meta.db_table} SET state = %s WHERE id = %s",
                       [field.get_db_prep_save(state, connection), table.pk])
    table.state = state


def _results(hand, session, computed, seat_ids, totals_after, members) -> list[HandResult]:
    return [
        HandResult(
            hand_id=hand.pk, club_id=session.club_id, season_id=session.season_id,
            session_id=session.pk, computed=hand.created, **fields,
        )
        for fields in _result_fields(computed, seat_ids, totals_after, members)
    ]


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


# -- recomputing ----------------------------------------------------------------------------


def recompute_table(table: Table, from_number: int | None = None) -> TableState:
    """Rebuild the table's derived results from what was entered: ``Table.state``, each
    hand's ``Hand.computed`` and the ``HandResult`` rows, then tell the feature apps
    (``clubs.signals.table_recomputed``), all in one transaction.

    The whole night is replayed (each hand's seating and pot come from the hands before it).
    Given ``from_number`` (a correction of that hand), only hands from there on whose figures
    moved are written; without it every hand's results are written again. Idempotent. Hands the engines now refuse (a house rule fixed after the night) keep no
    results and carry their ``error``."""
    with transaction.atomic():
        old = Table.objects.select_for_update().values_list("state", flat=True).get(pk=table.pk)
        rev = (old or {}).get("rev", 0) + 1
        state = build_table_state(table)
        session = table.session
        members = {s.id: s.member_id for s in state.seats}
        if from_number is None:
            changed = list(state.hands)
        else:
            stored = dict(Hand.objects.filter(table=table, number__gte=from_number)
                          .values_list("id", "computed"))
            changed = [row for row in state.hands
                       if row.number >= from_number and stored.get(row.id) != row.to_json()]
        Hand.objects.bulk_update(
            [Hand(pk=row.id, computed=row.to_json()) for row in changed], ["computed"],
            batch_size=200)
        HandResult.objects.filter(hand_id__in=[row.id for row in changed]).delete()
        HandResult.objects.bulk_create([
            HandResult(hand_id=row.id, club_id=session.club_id, season_id=session.season_id,
                       session_id=session.pk, **fields)
            for row in changed if row.counted
            for fields in _row_result_fields(row, members)
        ])
        Table.objects.filter(pk=table.pk).update(state=state.snapshot(rev))
        table.state = state.snapshot(rev)
        table_recomputed.send(sender=Table, table=table, from_number=from_number or 1)
    return state


def _row_result_fields(row: HandRow, members: dict) -> list[dict]:
    """``_result_fields`` of a replayed row."""
    winds = row.seating.winds
    return [
        {
            "seat_id": seat_id,
            "member_id": members.get(seat_id),
            "seat_wind": winds[seat_id],
            "score": score,
            "net": row.net.get(seat_id, 0),
            "running_total": row.totals[seat_id],
            "won": seat_id == row.winner,
            "gave": seat_id == row.discarder,
            "limit": (getattr(row.results.get(seat_id), "limit", None) or "")[:60],
        }
        for seat_id, score in row.scores.items()
    ]


# -- corrections ----------------------------------------------------------------------------


def _audit(club_id, user, action, obj, before, after, note="") -> AuditEntry:
    return AuditEntry.objects.create(
        club_id=club_id,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        object_type=obj._meta.model_name,
        object_id=str(obj.pk),
        before=before,
        after=after,
        note=note,
    )


def _lock(hand: Hand) -> tuple[Table, Hand]:
    table = Table.objects.select_for_update().select_related("session").get(pk=hand.table_id)
    return table, Hand.objects.prefetch_related("entries").get(pk=hand.pk)


def correct_hand(hand: Hand, changes: dict, user, note: str = "", with_state: bool = False):
    """Change what was entered for a recorded hand, keeping its number and its seating.

    ``changes`` is part of the entry shape: top-level fields replace the stored ones, and
    ``seats`` replaces only the winds it names. The table is recomputed from it and an audit
    entry keeps who changed what, from what to what. Returns the hand (with ``with_state``: the
    hand and the table's recomputed ``TableState``, which an answer can show without replaying
    the night once more).
    """
    if not isinstance(changes, dict):
        raise HandInputError({"non_field_errors": ["Send the changes as a JSON object."]})
    with transaction.atomic():
        table, hand = _lock(hand)
        before = entry_of(hand)
        after = {**before, **{k: v for k, v in changes.items() if k != "seats"}}
        after["number"] = hand.number
        seats_change = changes.get("seats", {})
        if not isinstance(seats_change, dict):
            raise HandInputError({"seats": ["Give the seats to change by wind."]})
        after["seats"] = {**before["seats"], **seats_change}
        # Seat swaps recorded on this hand stay, whatever facts the correction gives.
        if "swap_seats" in before["facts"]:
            after["facts"] = {**after["facts"], "swap_seats": before["facts"]["swap_seats"]}
        seating = _stored_seating(hand)
        outcome = check_entry(after, seating)
        seat_ids = {w: s for s, w in seating.winds.items()}
        hand.winner_id = seat_ids[outcome.winner] if outcome.winner else None
        hand.discarder_id = seat_ids[outcome.discarder] if outcome.discarder else None
        hand.draw = outcome.draw
        hand.goulash = outcome.goulash
        hand.win_source = outcome.win_from or ""
        hand.facts = outcome.facts
        hand.save(update_fields=["winner", "discarder", "draw", "goulash", "win_source", "facts",
                                 "updated"])
        for entry in hand.entries.all():
            data = outcome.seats[entry.seat_wind]
            if data != entry.data:
                entry.data = data
                entry.kind = EntryKind.QUICK if is_quick(data) else EntryKind.FULL
                entry.save(update_fields=["data", "kind"])
        _audit(table.session.club_id, user, AuditAction.UPDATE, hand, before, entry_of(hand), note)
        # One replay of the night both checks the corrected hand (its seating and the pot before
        # it come from the hands before it) and recomputes the rest; a hand the engines refuse
        # undoes the whole correction.
        state = recompute_table(table, from_number=hand.number)
        error = next(row.error for row in state.hands if row.id == hand.pk)
        if error:
            raise HandInputError(error)
    return (hand, state) if with_state else hand


def _stored_seating(hand: Hand) -> Seating:
    """The winds and goulash flag a recorded hand was played with, as stored with its entries
    (which is all that checking an entry's shape asks of a seating)."""
    return Seating({e.seat_id: e.seat_wind for e in hand.entries.all()}, hand.prevailing_wind,
                   hand.goulash, dealer=hand.dealer_id)


def void_hand(hand: Hand, user, reason: str = "", voided: bool = True, with_state: bool = False):
    """Void a hand (it stays listed, counts for nothing) or, with ``voided=False``, restore it.
    Returns the hand (with ``with_state``: the hand and the table's ``TableState`` when it was
    recomputed, None when the hand already stood as asked)."""
    state = None
    with transaction.atomic():
        table, hand = _lock(hand)
        if hand.voided != voided:
            before = {"voided": hand.voided}
            hand.voided = voided
            hand.save(update_fields=["voided", "updated"])
            action = AuditAction.VOID if voided else AuditAction.RESTORE
            _audit(table.session.club_id, user, action, hand, before, {"voided": voided}, reason)
            state = recompute_table(table, from_number=hand.number)
    return (hand, state) if with_state else hand


def swap_seats(table: Table, seat_a: Seat, seat_b: Seat, from_hand_number: int, user,
               reason: str = "") -> int:
    """The two players were recorded the wrong way round from hand ``from_hand_number`` on:
    exchange everything entered for them (hands, winner, discarder, dealer) in those hands,
    each keeping the wind that seat played. Returns how many hands changed."""
    if seat_a.table_id != table.pk or seat_b.table_id != table.pk:
        raise HandInputError({"seats": ["Both seats must be at this table."]})
    if seat_a.pk == seat_b.pk:
        raise HandInputError({"seat_b": ["Pick two different seats."]})
    a, b = seat_a.pk, seat_b.pk

    def swapped(seat_id):
        return {a: b, b: a}.get(seat_id, seat_id)

    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        hands = list(
            Hand.objects.filter(table=table, number__gte=from_hand_number)
            .order_by("number").prefetch_related("entries")
        )
        if not hands:
            raise HandInputError(
                {"from_hand": [f"There is no hand {from_hand_number} or later at this table."]}
            )
        before = {h.number: entry_seats(h) for h in hands}
        entries = [e for h in hands for e in h.entries.all() if e.seat_id in (a, b)]
        by_hand: dict[int, list[HandEntry]] = {}
        for e in entries:
            by_hand.setdefault(e.hand_id, []).append(e)
        for h in hands:
            pair = by_hand.get(h.pk, [])
            if len(pair) == 2:
                _exchange(*pair)
            elif len(pair) == 1:  # the other player sat out this hand (five players)
                pair[0].seat_id = swapped(pair[0].seat_id)
                pair[0].save(update_fields=["seat"])
            h.dealer_id = swapped(h.dealer_id)
            h.winner_id = swapped(h.winner_id)
            h.discarder_id = swapped(h.discarder_id)
        # The rotation takes the swap from the first of these hands on (table_state.apply_swaps).
        first = hands[0]
        first.facts = {**(first.facts or {})}
        first.facts["swap_seats"] = [*first.facts.get("swap_seats", []), [a, b]]
        Hand.objects.bulk_update(hands, ["dealer", "winner", "discarder", "facts"])
        after = _entry_seats_now(hands)
        _audit(
            table.session.club_id, user, AuditAction.UPDATE, table,
            {"swap": [a, b], "from_hand": from_hand_number, "hands": before},
            {"swap": [a, b], "from_hand": from_hand_number, "hands": after},
            reason,
        )
        recompute_table(table, from_number=from_hand_number)
    return len(hands)


def _exchange(first: HandEntry, second: HandEntry) -> None:
    """Swap what two seats entered in one hand. A wind is unique per hand and PostgreSQL checks
    that row by row, so one row steps aside first."""
    wind_a, wind_b = first.seat_wind, second.seat_wind
    first.data, second.data = second.data, first.data
    first.kind, second.kind = second.kind, first.kind
    HandEntry.objects.filter(pk=first.pk).update(seat_wind="")
    HandEntry.objects.filter(pk=second.pk).update(seat_wind=wind_a, data=second.data,
                                                  kind=second.kind)
    HandEntry.objects.filter(pk=first.pk).update(seat_wind=wind_b, data=first.data,
                                                 kind=first.kind)


def entry_seats(hand: Hand) -> dict:
    """Which seat played each wind in a hand, from its prefetched entries."""
    return {e.seat_wind: e.seat_id for e in hand.entries.all()}


def _entry_seats_now(hands: list[Hand]) -> dict[int, dict]:
    """``entry_seats`` of each hand as the database holds it now, in one query."""
    numbers = {h.pk: h.number for h in hands}
    seats: dict[int, dict] = {h.number: {} for h in hands}
    rows = HandEntry.objects.filter(hand_id__in=numbers).order_by("hand", "seat__position")
    for hand_id, wind, seat_id in rows.values_list("hand_id", "seat_wind", "seat_id"):
        seats[numbers[hand_id]][wind] = seat_id
    return seats
