"""Keeps ``NightResult`` (one row per seat: a player at one table one night) in step with the
stored hand results: clubs sends ``table_recomputed`` inside the transaction of every record,
correction, void and swap, and the table's rows are rebuilt in that same transaction (a
rollback takes both).

Recording a hand is the service's hot path, so it costs one statement whatever the length of
the night: the table's rows with the new hand's results added, ranked again on the new nets
(``add_hand``). A correction, void or swap rebuilds the table's rows in one
statement (``refresh_table``): an INSERT ... SELECT ... ON CONFLICT DO UPDATE that sums the
table's results per seat and works out each seat's place and table points in SQL (window
functions; PostgreSQL and SQLite alike). ``league.ranking.places`` and ``table_points`` say the same in Python; the tests hold
the stored rows to them through a replay of every table.
"""

from __future__ import annotations

import json

from django.db import connection
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from clubs.models import ClubSession, Hand, HandResult, Table
from clubs.signals import players_moved, table_recomputed
from league import standings_store
from league.models import NightResult
from league.ranking import POINT_SCHEMES


def _cumulative(scheme: str, k: str) -> str:
    """SQL for the sum of the scheme's points of places 1..k (places past the last are worth
    the last value), so a shared place's points are (cum(last) - cum(first - 1)) / tied."""
    values = POINT_SCHEMES[scheme]
    total, cases = 0.0, ["WHEN {k} <= 0 THEN 0.0"]
    for n, value in enumerate(values, 1):
        total += value
        cases.append(f"WHEN {{k}} = {n} THEN {total!r}")
    last = f"{total!r} + {values[-1]!r} * ({{k}} - {len(values)})"
    return ("CASE " + " ".join(cases) + f" ELSE {last} END").format(k=k)


def _points(scheme: str) -> str:
    return (f"CAST(({_cumulative(scheme, 'p.place + p.tied - 1')}) - "
            f"({_cumulative(scheme, 'p.place - 1')}) AS DOUBLE PRECISION) / p.tied")


# The player history's figures of the recorded hands (history.stats), each a sum over the
# seat's results of the CASE given (``r``: the result, ``h``: its hand).
# The win sources that count as won from the wall; history.stats reads the same tuple.
FROM_WALL = ("wall", "kong_box")
_FROM_WALL_SQL = "(" + ", ".join(f"'{source}'" for source in FROM_WALL) + ")"
HISTORY_CASES = {
    "won_from_wall": f"CASE WHEN r.won AND h.win_source IN {_FROM_WALL_SQL} THEN 1 ELSE 0 END",
    "east_hands": "CASE WHEN r.seat_wind = 'E' THEN 1 ELSE 0 END",
    "east_won": "CASE WHEN r.won AND r.seat_wind = 'E' THEN 1 ELSE 0 END",
    "east_net": "CASE WHEN r.seat_wind = 'E' THEN r.net ELSE 0 END",
    "goulash_hands": "CASE WHEN h.goulash THEN 1 ELSE 0 END",
    "goulash_won": "CASE WHEN r.won AND h.goulash THEN 1 ELSE 0 END",
    "goulash_net": "CASE WHEN h.goulash THEN r.net ELSE 0 END",
}
HISTORY = tuple(HISTORY_CASES)

COLUMNS = ("seat_id", "table_id", "club_id", "season_id", "session_id", "member_id",
           "guest_name", "date", "house_rule_id", "table_number", "counted", "hands", "net",
           "mahjongs", "given", "limits", "best_score", *HISTORY, "imported", "imported_hands",
           "imported_net", "paid", "place", "tied", "points_zero", "points_half")

# A seat's night's payments from a JSON object of them by seat id (``paid_by_seat``), given
# as the statement's parameter ``paid``: the JSON types and operators differ.
PAID_OF = {
    "postgresql": "CAST(%(paid)s AS jsonb) -> CAST({seat} AS text)",
    "sqlite": "json_extract(%(paid)s, '$.\"' || {seat} || '\"')",  # '->' takes '12' for [12]
}

REFRESH_SQL = f"""
INSERT INTO league_nightresult ({", ".join(COLUMNS)})
SELECT p.seat_id, t.id, ss.club_id, ss.season_id, ss.id, p.member_id, p.guest_name, ss.date,
       v.record_id, t.number, p.counted, p.hands, p.net, p.mahjongs, p.given, p.limits, p.best,
       {", ".join(f"p.{c}" for c in HISTORY)}, false, 0, 0,
       COALESCE({{paid}}, '{{}}'), p.place, p.tied, {_points("4-2-1-0")}, {_points("4-2-1-0.5")}
FROM (
    SELECT s.id AS seat_id, s.member_id, s.guest_name,
           COUNT(a.seat_id) OVER () > 0 AS counted,
           COALESCE(a.hands, 0) AS hands, COALESCE(a.net, 0) AS net,
           COALESCE(a.mahjongs, 0) AS mahjongs, COALESCE(a.given, 0) AS given,
           COALESCE(a.limits, 0) AS limits, COALESCE(a.best, 0) AS best,
           {", ".join(f"COALESCE(a.{c}, 0) AS {c}" for c in HISTORY)},
           RANK() OVER (ORDER BY COALESCE(a.net, 0) DESC) AS place,
           COUNT(*) OVER (PARTITION BY COALESCE(a.net, 0)) AS tied
    FROM clubs_seat s LEFT JOIN (
        SELECT r.seat_id, COUNT(*) AS hands, SUM(r.net) AS net,
               SUM(CASE WHEN r.won THEN 1 ELSE 0 END) AS mahjongs,
               SUM(CASE WHEN r.gave THEN 1 ELSE 0 END) AS given,
               SUM(CASE WHEN r."limit" <> '' THEN 1 ELSE 0 END) AS limits,
               MAX(CASE WHEN r.won THEN r.score END) AS best,
               {", ".join(f"SUM({case}) AS {c}" for c, case in HISTORY_CASES.items())}
        FROM clubs_handresult r
        JOIN clubs_hand h ON h.id = r.hand_id
        WHERE r.session_id = %(session)s
          AND r.seat_id IN (SELECT id FROM clubs_seat WHERE table_id = %(table)s)
        GROUP BY r.seat_id
    ) a ON a.seat_id = s.id
    WHERE s.table_id = %(table)s
) p
JOIN clubs_table t ON t.id = %(table)s
JOIN clubs_clubsession ss ON ss.id = t.session_id
JOIN clubs_houseruleversion v ON v.id = ss.house_rule_version_id
WHERE true
ON CONFLICT (seat_id) DO UPDATE SET
    {", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c != "seat_id")}
"""


# A hand added at the end of a table, in one statement: every seat's row of the table with the
# hand's results added (a seat that sat the hand out adds nothing), ranked again on the new nets,
# and written back. Only after the table's first hand, which made every seat's row.
ADD_HAND_SQL = f"""
INSERT INTO league_nightresult ({", ".join(COLUMNS)})
SELECT p.seat_id, p.table_id, p.club_id, p.season_id, p.session_id, p.member_id, p.guest_name,
       p.date, p.house_rule_id, p.table_number, true, p.hands, p.net, p.mahjongs, p.given,
       p.limits, p.best, {", ".join(f"p.{c}" for c in HISTORY)}, p.imported, p.imported_hands,
       p.imported_net, COALESCE({{paid}}, p.paid), p.place, p.tied, {_points("4-2-1-0")}, {_points("4-2-1-0.5")}
FROM (
    SELECT a.*, RANK() OVER (ORDER BY a.net DESC) AS place,
           COUNT(*) OVER (PARTITION BY a.net) AS tied
    FROM (
        SELECT n.seat_id, n.table_id, n.club_id, n.season_id, n.session_id, n.member_id,
               n.guest_name, n.date, n.house_rule_id, n.table_number,
               n.hands + CASE WHEN r.seat_id IS NULL THEN 0 ELSE 1 END AS hands,
               n.net + COALESCE(r.net, 0) AS net,
               n.mahjongs + CASE WHEN r.won THEN 1 ELSE 0 END AS mahjongs,
               n.given + CASE WHEN r.gave THEN 1 ELSE 0 END AS given,
               n.limits + CASE WHEN r."limit" <> '' THEN 1 ELSE 0 END AS limits,
               CASE WHEN r.won AND r.score > n.best_score THEN r.score ELSE n.best_score END
                   AS best,
               {", ".join(f"n.{c} + CASE WHEN r.seat_id IS NULL THEN 0 ELSE {case} END AS {c}"
                          for c, case in HISTORY_CASES.items())},
               n.imported, n.imported_hands, n.imported_net, n.paid
        FROM league_nightresult n
        LEFT JOIN clubs_handresult r ON r.seat_id = n.seat_id AND r.hand_id = %(hand)s
        LEFT JOIN clubs_hand h ON h.id = %(hand)s
        WHERE n.table_id = %(table)s
    ) a
) p
WHERE true
ON CONFLICT (seat_id) DO UPDATE SET
    {", ".join(f"{c} = excluded.{c}" for c in COLUMNS if c != "seat_id")}
RETURNING {", ".join(standings_store.ROW_FIELDS)}
"""


def _sql(sql: str) -> str:
    return sql.replace("{paid}", PAID_OF[connection.vendor].format(seat="p.seat_id"))


def paid_by_seat(payments_of_hands, into: dict[int, dict] | None = None) -> dict[int, dict]:
    """What each seat received from and paid to each other seat over these hands' stored
    payments (``Hand.computed["payments"]``, the pot left out), added to ``into`` (each seat's
    night so far): {seat id: {"<other seat id>": [received, paid]}}."""
    found = {seat: {k: list(v) for k, v in paid.items()} for seat, paid in (into or {}).items()}
    for payments in payments_of_hands:
        for p in payments or ():
            payer, payee = p.get("payer"), p.get("payee")
            if payer == "pot" or payee == "pot" or payer == payee:
                continue
            found.setdefault(payee, {}).setdefault(str(payer), [0, 0])[0] += p["amount"]
            found.setdefault(payer, {}).setdefault(str(payee), [0, 0])[1] += p["amount"]
    return found


def add_hand(table: Table, hand_id: int, before: list[dict], payments=None) -> list[dict]:
    """The table's rows after one more hand at its end: its results added and the places
    worked out again, in one statement however long the night. ``before``: the rows as they
    are; ``payments``: the hand's (read when not given). Returns the rows as written
    (RETURNING: the stored standings take the difference without reading them again)."""
    if payments is None:
        payments = (Hand.objects.filter(pk=hand_id)
                    .values_list("computed__payments", flat=True).first())
    night = {row["seat_id"]: _decoded(row["paid"]) for row in before}
    paid = paid_by_seat([payments], {seat: night.get(seat, {}) for seat in
                                     {p.get(k) for p in payments or () for k in
                                      ("payer", "payee")} if seat in night})
    with connection.cursor() as cursor:
        cursor.execute(_sql(ADD_HAND_SQL), {"hand": hand_id, "table": table.pk,
                                            "paid": json.dumps(paid)})
        rows = [dict(zip(standings_store.ROW_FIELDS, row, strict=True))
                for row in cursor.fetchall()]
    for row in rows:
        row["paid"] = _decoded(row["paid"])
    return rows


def _decoded(value) -> dict:
    return json.loads(value) if isinstance(value, str) else (value or {})


def refresh_table(table: Table) -> None:
    """Rebuild the table's rows: the table's hands' payments read, then one statement (an
    upsert of every seat). A table with no counted hand (none yet, or all voided)
    keeps its rows marked not ``counted``, which standings leave out; a seat that sat out
    every hand of a table that played (a five-player night) has its night with no hands."""
    payments = (Hand.objects.filter(table_id=table.pk, voided=False).order_by()
                .values_list("computed__payments", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(_sql(REFRESH_SQL), {"table": table.pk, "session": table.session_id,
                                           "paid": json.dumps(paid_by_seat(payments))})


@receiver(table_recomputed, sender=Table, dispatch_uid="league-refresh-table")
def _table_recomputed(sender, table, from_number=1, appended=None, **kwargs):
    # A table's first hand makes every seat's row (a fifth player sitting out included). The
    # stored standings take the difference in the same transaction.
    if appended is not None and from_number > 1:
        # The hot path: the rows read once before, written with RETURNING, the players'
        # stored sums incremented in one statement (league.standings_store.apply).
        before = standings_store.table_rows(table.pk)
        hand = kwargs.get("hand")
        payments = (hand.computed or {}).get("payments") if hand is not None else None
        standings_store.apply(before, add_hand(table, appended, before, payments))
        return
    with standings_store.tracking(NightResult.objects.filter(table_id=table.pk)):
        refresh_table(table)


@receiver(post_save, sender=ClubSession, dispatch_uid="league-session-moved")
def _session_saved(sender, instance, created, **kwargs):
    # A night moved to another season or date, or its house rule changed: the rows say where.
    if created:
        return
    record_id = instance.house_rule_version.record_id
    rows = NightResult.objects.filter(session_id=instance.pk)
    moved = rows.exclude(season_id=instance.season_id, date=instance.date,
                         house_rule_id=record_id)
    if not moved.exists():
        return
    with standings_store.tracking(rows):  # another season's standings, if the season changed
        moved.update(season_id=instance.season_id, date=instance.date, house_rule_id=record_id)
    # The hand results repeat the night's season too (the player history's largest and limit
    # hands are read by it, as the season's hand results and their downloads are): they move
    # with the night, or those pages would go on finding them in the season it left.
    HandResult.objects.filter(session_id=instance.pk).exclude(
        season_id=instance.season_id).update(season_id=instance.season_id)


# Sent after ``refresh_all`` rebuilt the rows from hand results (``tables``: the queryset
# rebuilt, or None for every table): an app whose tables carry results that are not hands
# (history's imported nights) writes its rows again.
summary_rebuilt = Signal()


def refresh_all(tables=None, standings: bool = True, notify: bool = True) -> int:
    """Rebuild every table's rows (or those given), then the stored standings from them:
    ``manage.py refresh_league`` and the migration that fills the summary for nights recorded
    before this app (``notify=False``: no ``summary_rebuilt``, since no app has rows of its
    own to add yet, and its tables may not be made yet)."""
    count = 0
    qs = tables if tables is not None else Table.objects.all()
    for table in qs.only("id", "session_id").iterator(chunk_size=500):
        refresh_table(table)
        count += 1
    if notify:
        summary_rebuilt.send(sender=NightResult, tables=tables)
    if standings:
        standings_store.rebuild()
    return count


@receiver(players_moved, dispatch_uid="league-players-moved")
def _players_moved(sender, seat_ids, to_member=None, to_guest="", **kwargs):
    # A guest made a member, two members merged (or undone): the nights of those seats are the
    # new player's. Nothing else of the row depends on who sat there.
    rows = NightResult.objects.filter(seat_id__in=list(seat_ids))
    with standings_store.tracking(rows):
        rows.update(member_id=to_member.pk if to_member is not None else None,
                    guest_name="" if to_member is not None else to_guest)
