"""Keeps ``NightResult`` (one row per seat: a player at one table one night) in step with the
stored hand results: clubs sends ``table_recomputed`` inside the transaction of every record,
correction, void and swap, and the table's rows are rebuilt in that same transaction (a
rollback takes both).

Recording a hand is the service's hot path, so it costs two statements whatever the length of
the night: the new hand's results added to the seats' rows, then the table's places worked out
again from those rows (``add_hand``). A correction, void or swap rebuilds the table's rows in one
statement (``refresh_table``): an INSERT ... SELECT ... ON CONFLICT DO UPDATE that sums the
table's results per seat and works out each seat's place and table points in SQL (window
functions; PostgreSQL and SQLite alike). ``league.ranking.places`` and ``table_points`` say the same in Python; the tests hold
the stored rows to them through a replay of every table.
"""

from __future__ import annotations

from django.db import connection
from django.db.models.signals import post_save
from django.dispatch import receiver

from clubs.models import ClubSession, Table
from clubs.signals import table_recomputed
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


COLUMNS = ("seat_id", "table_id", "club_id", "season_id", "session_id", "member_id",
           "guest_name", "date", "house_rule_id", "table_number", "counted", "hands", "net",
           "mahjongs", "given", "limits", "best_score", "place", "tied", "points_zero",
           "points_half")

REFRESH_SQL = f"""
INSERT INTO league_nightresult ({", ".join(COLUMNS)})
SELECT p.seat_id, t.id, ss.club_id, ss.season_id, ss.id, p.member_id, p.guest_name, ss.date,
       v.record_id, t.number, p.counted, p.hands, p.net, p.mahjongs, p.given, p.limits, p.best,
       p.place, p.tied, {_points("4-2-1-0")}, {_points("4-2-1-0.5")}
FROM (
    SELECT s.id AS seat_id, s.member_id, s.guest_name,
           COUNT(a.seat_id) OVER () > 0 AS counted,
           COALESCE(a.hands, 0) AS hands, COALESCE(a.net, 0) AS net,
           COALESCE(a.mahjongs, 0) AS mahjongs, COALESCE(a.given, 0) AS given,
           COALESCE(a.limits, 0) AS limits, COALESCE(a.best, 0) AS best,
           RANK() OVER (ORDER BY COALESCE(a.net, 0) DESC) AS place,
           COUNT(*) OVER (PARTITION BY COALESCE(a.net, 0)) AS tied
    FROM clubs_seat s LEFT JOIN (
        SELECT r.seat_id, COUNT(*) AS hands, SUM(r.net) AS net,
               SUM(CASE WHEN r.won THEN 1 ELSE 0 END) AS mahjongs,
               SUM(CASE WHEN r.gave THEN 1 ELSE 0 END) AS given,
               SUM(CASE WHEN r."limit" <> '' THEN 1 ELSE 0 END) AS limits,
               MAX(CASE WHEN r.won THEN r.score END) AS best
        FROM clubs_handresult r
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


# A hand added at the end of a table: its results added to the seats' rows (two statements
# whatever the length of the night), then the table's places worked out again from its rows.
ADD_HAND_SQL = f"""
INSERT INTO league_nightresult ({", ".join(COLUMNS)})
SELECT r.seat_id, t.id, ss.club_id, ss.season_id, ss.id, s.member_id, s.guest_name, ss.date,
       v.record_id, t.number, true, 1, r.net,
       CASE WHEN r.won THEN 1 ELSE 0 END, CASE WHEN r.gave THEN 1 ELSE 0 END,
       CASE WHEN r."limit" <> '' THEN 1 ELSE 0 END, CASE WHEN r.won THEN r.score ELSE 0 END,
       1, 1, 0.0, 0.0
FROM clubs_handresult r
JOIN clubs_seat s ON s.id = r.seat_id
JOIN clubs_table t ON t.id = s.table_id
JOIN clubs_clubsession ss ON ss.id = t.session_id
JOIN clubs_houseruleversion v ON v.id = ss.house_rule_version_id
WHERE r.hand_id = %(hand)s
ON CONFLICT (seat_id) DO UPDATE SET
    counted = true,
    hands = league_nightresult.hands + 1,
    net = league_nightresult.net + excluded.net,
    mahjongs = league_nightresult.mahjongs + excluded.mahjongs,
    given = league_nightresult.given + excluded.given,
    limits = league_nightresult.limits + excluded.limits,
    best_score = CASE WHEN excluded.best_score > league_nightresult.best_score
                      THEN excluded.best_score ELSE league_nightresult.best_score END
"""

PLACES_SQL = f"""
UPDATE league_nightresult SET
    counted = true, place = p.place, tied = p.tied,
    points_zero = {_points("4-2-1-0")}, points_half = {_points("4-2-1-0.5")}
FROM (
    SELECT seat_id, RANK() OVER (ORDER BY net DESC) AS place,
           COUNT(*) OVER (PARTITION BY net) AS tied
    FROM league_nightresult WHERE table_id = %(table)s
) p
WHERE league_nightresult.seat_id = p.seat_id
"""


def add_hand(table: Table, hand_id: int) -> None:
    """The table's rows after one more hand at its end: its results added, the places worked
    out again, in two statements however long the night."""
    with connection.cursor() as cursor:
        cursor.execute(ADD_HAND_SQL, {"hand": hand_id})
        cursor.execute(PLACES_SQL, {"table": table.pk})


def refresh_table(table: Table) -> None:
    """Rebuild the table's rows: one statement (an upsert of every seat), so recording a hand
    pays one statement for the league. A table with no counted hand (none yet, or all voided)
    keeps its rows marked not ``counted``, which standings leave out; a seat that sat out
    every hand of a table that played (a five-player night) has its night with no hands."""
    with connection.cursor() as cursor:
        cursor.execute(REFRESH_SQL, {"table": table.pk, "session": table.session_id})


@receiver(table_recomputed, sender=Table, dispatch_uid="league-refresh-table")
def _table_recomputed(sender, table, from_number=1, appended=None, **kwargs):
    # A table's first hand makes every seat's row (a fifth player sitting out included).
    if appended is not None and from_number > 1:
        add_hand(table, appended)
    else:
        refresh_table(table)


@receiver(post_save, sender=ClubSession, dispatch_uid="league-session-moved")
def _session_saved(sender, instance, created, **kwargs):
    # A night moved to another season or date, or its house rule changed: the rows say where.
    if created:
        return
    record_id = instance.house_rule_version.record_id
    NightResult.objects.filter(session_id=instance.pk).exclude(
        season_id=instance.season_id, date=instance.date, house_rule_id=record_id,
    ).update(season_id=instance.season_id, date=instance.date, house_rule_id=record_id)


def refresh_all(tables=None) -> int:
    """Rebuild every table's rows (or those given): ``manage.py refresh_league`` and the
    migration that fills the summary for nights recorded before this app."""
    count = 0
    qs = tables if tables is not None else Table.objects.all()
    for table in qs.only("id", "session_id").iterator(chunk_size=500):
        refresh_table(table)
        count += 1
    return count
