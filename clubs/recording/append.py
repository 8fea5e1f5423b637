"""Writing a recorded hand: the hand, its entries, each seat's result, the hand's computed row
and the table's new state, all at once, in order per table, and nothing half-saved.

``append_hand`` is the one write. Its reference is ``append_with_orm`` (the same rows through
the ORM); the default writes the same rows with plain prepared statements (``RECORDING_WRITES``
= ``"statements"``), which cost a fraction of the ORM's CPU, and on PostgreSQL outside a
caller's transaction a hand is ONE statement that writes only if the table's state is still the
revision the hand was computed from (else it is computed again from the new state): the same
guarantees as the row lock in a third of the round trips. ``tests/web/test_recording_writes.py``
holds every path to the ORM reference.
"""

from __future__ import annotations

import contextlib
import json
import random
import time

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone

from clubs.models import Club, ClubSession, EntryKind, Hand, HandEntry, HandResult, Member, Table
from clubs.permissions import remember_role
from clubs.recording.preview import (
    HandConflict,
    HandPreview,
    TableSnapshot,
    preview_next,
    state_after,
)
from clubs.recording.recompute import recompute_table
from clubs.signals import table_recomputed
from play import STATE_VERSION, ComputedHand, HandInputError, hand_row, is_quick

# -- recording ------------------------------------------------------------------------------


def load_table(table_id: int, user) -> Table | None:
    """The table with its session and club, for recording, and the user's role at the club
    remembered for ``clubs.permissions`` — in one small query. Measured here the ORM's version of
    this (select_related and a role subquery) cost ten times the CPU of the query itself, the
    largest single cost of recording a hand, hence plain SQL."""
    member_user = user.pk if user is not None and user.is_authenticated else None
    sql = f"""
        SELECT t.id, t.session_id, t.number, t.state, t.house_rule_version_id,
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
    (pk, session_id, number, state, table_rule, club_id, season_id, status, version_id,
     goulash_id, name, slug, published, role) = row
    club = _loaded(Club, id=club_id, name=name, slug=slug, published=bool(published))
    session = _loaded(ClubSession, id=session_id, club_id=club_id, season_id=season_id,
                      status=status, house_rule_version_id=version_id,
                      goulash_rule_version_id=goulash_id)
    session.club = club
    table = _loaded(Table, id=pk, session_id=session_id, number=number,
                    house_rule_version_id=table_rule,
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
    if (connection.vendor == "postgresql" and not connection.in_atomic_block
            and writes() == "statements"):
        hand, preview = _record_in_one_statement(table, entry, user)
    else:
        hand, preview = _record_under_lock(table, entry, user)
    return (hand, preview) if with_preview else hand


def writes() -> str:
    """How hands are written: ``"statements"`` (the default: plain prepared statements, and
    one statement on PostgreSQL) or ``"orm"`` (the reference, through the ORM)."""
    return getattr(settings, "RECORDING_WRITES", "statements")


def append_hand(table: Table, session: ClubSession, preview: HandPreview, user) -> Hand:
    """Write the hand, its entries and its results (the caller holds the table's lock and
    writes its new state)."""
    if writes() == "orm":
        return append_with_orm(table, session, preview, user)
    return _write_hand(table, session, preview, user)


def append_with_orm(table: Table, session: ClubSession, preview: HandPreview, user) -> Hand:
    """The reference for every faster path: the same rows, written by the ORM."""
    computed, seat_ids = preview.computed, preview.seat_ids
    hand = _unsaved_hand(table, preview, user)
    hand.computed = _computed_json(hand, preview)
    hand.save(force_insert=True)
    HandEntry.objects.bulk_create(
        HandEntry(hand=hand, seat_id=seat_ids[wind], seat_wind=wind,
                  kind=EntryKind.QUICK if is_quick(data) else EntryKind.FULL, data=data)
        for wind, data in computed.outcome.seats.items()
    )
    members = {s.id: s.member_id for s in preview.seats}
    HandResult.objects.bulk_create(
        _results(hand, session, computed, seat_ids, preview.totals_after, members))
    return hand


def _record_under_lock(table: Table, entry: dict, user) -> tuple[Hand, HandPreview]:
    session = table.session
    stale_retries, lock_waits = 1, 0
    # Scored and settled before the lock from the state as last read, so that writers queue
    # only for the writes; under the lock it is done again only if the state has moved on.
    early = None
    if TableSnapshot.usable(table.state):
        snap = TableSnapshot.load(table, table.state)
        try:
            early = snap, preview_next(table, session, snap, entry)
        except (HandInputError, HandConflict):
            early = None  # judged again under the lock, against the state as it is then
    while True:
        try:
            with transaction.atomic():
                # The lock, and the state as it is now that nobody else can change it.
                state = _locked_state(table)
                if early and TableSnapshot.usable(state) and state["rev"] == early[0].rev:
                    snap, preview = early
                else:
                    snap = TableSnapshot.load(table, state)
                    preview = preview_next(table, session, snap, entry)
                hand = append_hand(table, session, preview, user)
                _save_state(table, state_after(session, snap, preview, hand.winner_id))
                table_recomputed.send(sender=Table, table=table, from_number=hand.number,
                                      appended=hand.pk)
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
        if not TableSnapshot.usable(state):
            recompute_table(table)
            state = table.state
        snap = TableSnapshot.load(table, state)
        preview = preview_next(table, session, snap, entry)
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
                    table_recomputed.send(sender=Table, table=table, from_number=hand.number,
                                          appended=row[0])
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


def _append_params(session, snap: TableSnapshot, preview: HandPreview,
                   hand: Hand) -> tuple[list, dict]:
    new_state = state_after(session, snap, preview, hand.winner_id)
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

