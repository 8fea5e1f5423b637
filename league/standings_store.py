"""Stored standings: each player's ``NightResult`` rows of a season, and of a club's all time,
summed (``Standing``), and how many nights each counted (``StandingScope``), so the standings
API and page read one row a player instead of summing the season's or the club's nights on
every request (issue #27: the all-time sum grew with the club's history).

Derived, never the record. Every write of ``NightResult`` goes through ``tracking(rows)``: the
rows it may change are read before and after, and their difference is added to the stored
sums in the same transaction (a rollback takes both). Rows deleted with what they belong to (a
night, a table, a season, an import undone) are subtracted by the delete signals below.
``rebuild()`` (``manage.py refresh_league``) makes them again from ``NightResult`` alone; the
tests hold the two equal through recording, corrections, voids, moves, imports and undo.

The rows also sum the player history's figures of the nights (won from the wall, East and
goulash results, imported hands and net, table-nights at each place), so a member's season
statistics (``history.stats``) are one row too.

Why differences and not a GROUP BY of the players touched: a player's all-time row would sum
their whole history on every hand recorded; a difference costs the table's rows whatever the
history (on the hot path, a hand added at the end of a table: the table's rows read before, the
summary's upsert returning them as written, one UPDATE of the players' sums).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.signals import post_delete, pre_delete
from django.dispatch import receiver

from league.models import NightResult, Standing, StandingScope

# The row's columns summed as they are (the player history's figures after the standings').
ROW_SUMS = ("hands", "net", "mahjongs", "given", "points_zero", "points_half",
            "won_from_wall", "east_hands", "east_won", "east_net", "goulash_hands",
            "goulash_won", "goulash_net", "imported_hands", "imported_net")
PLACES = ("place_1", "place_2", "place_3", "place_4", "place_5")  # a table seats five at most
# What Standing sums: the row's columns, then what each row counts for (its place, itself, an
# imported table, a table-night at its place).
SUMS = (*ROW_SUMS, "place_sum", "tables", "imported_tables", *PLACES)
ROW_FIELDS = ("seat_id", "session_id", "club_id", "season_id", "member_id", "guest_name",
              "counted", *ROW_SUMS, "imported", "place", "paid")

_local = threading.local()


def _player(row: dict) -> tuple:
    return (row["member_id"], "" if row["member_id"] else row["guest_name"])


def read(rows: QuerySet) -> list[dict]:
    return list(rows.order_by().values(*ROW_FIELDS))


# ``read``'s columns resolved once (a module-level queryset each use filters a copy of, as
# league.queries' stored reads): resolving them on every hand recorded cost about as much CPU
# as reading the table's rows (issue #27).
_ROWS = NightResult.objects.order_by().values(*ROW_FIELDS)


def table_rows(table_id: int) -> list[dict]:
    """A table's rows as ``read`` gives them (the hot path: a hand added at a table's end)."""
    return list(_ROWS.filter(table_id=table_id))


@contextmanager
def tracking(rows: QuerySet) -> Iterator[None]:
    """Keep the stored standings in step with a write of the ``NightResult`` rows that
    ``rows`` selects (the same filter must select them before and after)."""
    # One transaction for the read, the write and the difference (a caller in autocommit, e.g.
    # a night saved from the admin, gets its own; inside the caller's, no savepoint).
    with transaction.atomic(savepoint=False):
        before = read(rows)
        _local.depth = getattr(_local, "depth", 0) + 1
        try:
            yield
        finally:
            _local.depth -= 1
        apply(before, read(rows))


def apply(before: list[dict], after: list[dict]) -> None:
    """Add to the stored standings what changed from the rows ``before`` to ``after`` (the
    same seats, or some gone or new)."""
    sums: dict[tuple, dict[str, float]] = defaultdict(
        lambda: dict.fromkeys((*SUMS, "nights"), 0))
    present: list[dict[tuple, None]] = [{}, {}]
    played: list[dict[tuple, None]] = [{}, {}]
    for side, rows in ((0, before), (1, after)):
        sign = 1 if side else -1
        for row in rows:
            if not row["counted"]:
                continue
            scope, player = (row["club_id"], row["season_id"]), _player(row)
            into = sums[(scope, player)]
            for name in ROW_SUMS:
                into[name] += sign * row[name]
            into["place_sum"] += sign * row["place"]
            into["tables"] += sign
            if row["imported"]:
                into["imported_tables"] += sign
            into[PLACES[min(row["place"], len(PLACES)) - 1]] += sign
            present[side][(scope, player, row["session_id"])] = None
            played[side][(scope, row["session_id"])] = None
    if present[0] == present[1] and played[0] == played[1] and len(
            {scope for scope, _ in sums}) == 1:
        # No one's nights came or went, on one night's season (a hand added, a correction):
        # every player changed already has their rows, which take the sums in one statement.
        _increment(sums)
        return
    seats = {row["seat_id"] for row in (*before, *after)}
    changed = [(k, +1) for k in present[1] if k not in present[0]] + [
        (k, -1) for k in present[0] if k not in present[1]]
    pairs, sessions = _elsewhere(seats, {session for _, _, session in (k for k, _ in changed)})
    for (scope, player, session), sign in changed:
        if (session, player) not in pairs:
            sums[(scope, player)]["nights"] += sign
    scope_nights: dict[tuple, int] = defaultdict(int)
    for side, sign in ((1, +1), (0, -1)):
        for scope, session in played[side]:
            if (scope, session) not in played[1 - side] and session not in sessions:
                scope_nights[scope] += sign
    _write(sums, scope_nights)


def _elsewhere(seats: set[int], sessions: set[int]) -> tuple[set[tuple], set[int]]:
    """What the other tables of these nights say: the (night, player) pairs with a counted
    row at a seat not being changed (a player's night came or went only if not), and the
    nights with such a row. One query, and none on the hot path (a hand added to a counted
    table changes no one's nights)."""
    if not sessions:
        return set(), set()
    rows = (NightResult.objects.filter(session_id__in=sessions, counted=True)
            .exclude(seat_id__in=seats).values_list("session_id", "member_id", "guest_name")
            .distinct())
    pairs = {(session, (member_id, "" if member_id else guest))
             for session, member_id, guest in rows}
    return pairs, {session for session, _ in pairs}


def _increment(sums: dict[tuple, dict[str, float]]) -> None:
    """Add the differences to rows that exist (each player counted before and after): one
    UPDATE of the season's and the club's all-time rows of those players, joined to the
    players' differences given as rows. Rows missing (stored standings out of step, e.g. a
    bulk load not rebuilt after) are made again from NightResult for the club.

    Written as SQL, not an ORM ``update`` of ``F() + Case(When(...))``: that expression (a
    ``When`` a player a column) took the ORM about 3 ms to build on every hand recorded, a
    third of the recording request's CPU (bench_api_load, issue #27); this is one statement
    whichever way, on PostgreSQL and SQLite (UPDATE ... FROM)."""
    changes = {key: change for key, change in sums.items() if any(change.values())}
    if not changes:
        return
    scopes = {scope for scope, _ in changes}
    (club, season), = scopes  # apply() takes this path for one night's season only
    columns = (*SUMS, "nights")
    floats = {"points_zero", "points_half"}
    one = "SELECT CAST(%s AS bigint) AS member_id, CAST(%s AS varchar(80)) AS guest_name, " + \
        ", ".join(f"CAST(%s AS {'double precision' if c in floats else 'bigint'}) AS {c}"
                  for c in columns)
    params: list = []
    for (_, (member_id, guest)), change in changes.items():
        params += [member_id, "" if member_id else guest, *(change[c] for c in columns)]
    s = Standing._meta.db_table
    sql = (
        f"UPDATE {s} SET " + ", ".join(f"{c} = {s}.{c} + d.{c}" for c in columns)
        + f" FROM ({' UNION ALL '.join([one] * len(changes))}) d"
        + f" WHERE {s}.scope_id IN (SELECT id FROM {StandingScope._meta.db_table}"
        + " WHERE (club_id = %s AND season_id IS NULL)"
        + (" OR season_id = %s)" if season is not None else ")")
        + f" AND ({s}.member_id = d.member_id OR ({s}.member_id IS NULL AND"
        + f" d.member_id IS NULL AND {s}.guest_name = d.guest_name))"
    )
    params += [club] + ([season] if season is not None else [])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        updated = cursor.rowcount
    if updated != len(changes) * (2 if season is not None else 1):
        rebuild({club})


def _scopes(keys: Iterable[tuple]) -> dict[tuple, int]:
    """The scope rows' ids of these (club, season) pairs, each with its club's all-time one
    (season None), made when missing (``ignore_conflicts``: two nights of a new season
    recorded at once both make it, once)."""
    wanted = set()
    for club, season in keys:
        wanted.add((club, None))
        if season is not None:
            wanted.add((club, season))
    query = Q()
    for club, season in wanted:
        query |= Q(season_id=season) if season is not None else Q(club_id=club,
                                                                  season__isnull=True)
    found = {(c, s): pk for pk, c, s in
             StandingScope.objects.filter(query).values_list("pk", "club_id", "season_id")}
    missing = wanted - found.keys()
    if missing:
        StandingScope.objects.bulk_create(
            [StandingScope(club_id=c, season_id=s) for c, s in missing], ignore_conflicts=True)
        found = {(c, s): pk for pk, c, s in
                 StandingScope.objects.filter(query).values_list("pk", "club_id", "season_id")}
    return found


def _write(sums: dict[tuple, dict], scope_nights: dict[tuple, int]) -> None:
    # Each change counts in its season's row (when the night has a season) and the club's
    # all-time row.
    deltas: dict[tuple, dict[str, float]] = defaultdict(lambda: dict.fromkeys((*SUMS, "nights"), 0))
    for ((club, season), player), change in sums.items():
        if not any(change.values()):
            continue
        for scope in {(club, season), (club, None)}:
            into = deltas[(scope, player)]
            for name, value in change.items():
                into[name] += value
    night_deltas: dict[tuple, int] = defaultdict(int)
    for (club, season), gained in scope_nights.items():
        for scope in {(club, season), (club, None)}:
            night_deltas[scope] += gained
    if not deltas and not any(night_deltas.values()):
        return
    scope_ids = _scopes([scope for scope, _ in deltas] + list(night_deltas))
    for scope, gained in night_deltas.items():
        if gained:
            # An increment in the statement: two nights' first tables may count at once.
            StandingScope.objects.filter(pk=scope_ids[scope]).update(nights=F("nights") + gained)
    if not deltas:
        return
    by_key = {(scope_ids[scope], player): change for (scope, player), change in deltas.items()}
    members = {m for (_, (m, _)) in by_key if m}
    guests = {g for (_, (m, g)) in by_key if not m}
    rows = (Standing.objects.select_for_update()
            .filter(scope_id__in={s for s, _ in by_key})
            .filter(Q(member_id__in=members) | Q(member__isnull=True, guest_name__in=guests))
            .order_by("pk"))
    existing = {(r.scope_id, (r.member_id, r.guest_name)): r for r in rows}
    update, create, gone = [], [], []
    for key, change in by_key.items():
        row = existing.get(key)
        if row is None:
            scope_id, (member_id, guest) = key
            row = Standing(scope_id=scope_id, member_id=member_id, guest_name=guest)
            create.append(row)
        else:
            update.append(row)
        for name, value in change.items():
            setattr(row, name, getattr(row, name) + value)
        if row.tables <= 0:  # no counted table left: the player is not in these standings
            (gone.append(row) if row.pk else create.remove(row))
            if row.pk:
                update.remove(row)
    if update:
        Standing.objects.bulk_update(update, [*SUMS, "nights"])
    if create:
        Standing.objects.bulk_create(create)
    if gone:
        Standing.objects.filter(pk__in=[r.pk for r in gone]).delete()


def rebuild(clubs: Iterable[int] | None = None) -> int:
    """Make the stored standings again from ``NightResult`` (every club's, or these clubs'):
    what ``manage.py refresh_league`` ends with. Returns the rows written."""
    scopes = StandingScope.objects.all()
    nights = NightResult.objects.filter(counted=True)
    if clubs is not None:
        clubs = list(clubs)
        scopes = scopes.filter(club_id__in=clubs)
        nights = nights.filter(club_id__in=clubs)
    scopes.delete()
    sums = {"nights": Count("session_id", distinct=True), **{n: Sum(n) for n in ROW_SUMS},
            "place_sum": Sum("place"), "tables": Count("id"),
            "imported_tables": Count("id", filter=Q(imported=True)),
            **{name: Count("id", filter=Q(place=k) if k < len(PLACES) else Q(place__gte=k))
               for k, name in enumerate(PLACES, 1)}}
    made = {}
    for group in (("club_id", "season_id"), ("club_id",)):
        for row in (nights.filter(season__isnull=False) if len(group) == 2 else nights).values(
                *group).order_by().annotate(n=Count("session_id", distinct=True)):
            made[(row["club_id"], row.get("season_id"))] = StandingScope(
                club_id=row["club_id"], season_id=row.get("season_id"), nights=row["n"])
    StandingScope.objects.bulk_create(made.values())
    ids = {(s.club_id, s.season_id): s.pk for s in StandingScope.objects.filter(
        club_id__in={c for c, _ in made})}
    rows = []
    for group in (("club_id", "season_id"), ("club_id",)):
        qs = nights.filter(season__isnull=False) if len(group) == 2 else nights
        for t in qs.values(*group, "member_id", "guest_name").order_by().annotate(**sums):
            rows.append(Standing(
                scope_id=ids[(t["club_id"], t.get("season_id"))], member_id=t["member_id"],
                guest_name="" if t["member_id"] else t["guest_name"],
                **{name: t[name] for name in (*SUMS, "nights")}))
    Standing.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


# -- rows deleted with what they belong to ------------------------------------------------------
# A night, a table, a season or a member deleted takes its NightResult rows with it (cascade).
# Django sends pre_delete for every row first, deletes them all, then sends post_delete: the
# rows are gathered as they are announced and subtracted at once at the first post_delete,
# when none of them is left to count as "another table that night". Writes inside
# ``tracking`` are counted by its second read instead.

def _pending() -> dict[int, dict]:
    if not hasattr(_local, "pending"):
        _local.pending = {}
    return _local.pending


@receiver(pre_delete, sender=NightResult, dispatch_uid="league-standings-row-deleting")
def _row_deleting(sender, instance, **kwargs):
    if getattr(_local, "depth", 0):
        return
    _pending()[instance.pk] = {name: getattr(instance, name) for name in ROW_FIELDS}


@receiver(post_delete, sender=NightResult, dispatch_uid="league-standings-row-deleted")
def _row_deleted(sender, instance, **kwargs):
    pending = _pending()
    if instance.pk not in pending:
        return
    announced = dict(pending)
    pending.clear()
    # A delete that failed after its pre_delete (an error, a protected row) sent no post_delete:
    # its rows are still there, and must not be taken off with this delete's.
    kept = set(NightResult.objects.filter(pk__in=list(announced)).values_list("pk", flat=True))
    rows = [row for pk, row in announced.items() if pk not in kept]
    if rows:
        with transaction.atomic(savepoint=False):
            apply(rows, [])
