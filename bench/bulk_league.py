"""Clubs of league history written in bulk SQL on PostgreSQL: the one source of the rows that
``bench/league_build.py`` (one club of 1M hands) and ``bench/bench_db_growth.py`` (many clubs
beside a club made through the ORM) load, so a schema change (a NOT NULL column with no
database default, as league/0007's) is mended here once. ``tests/growth/test_bench_bulk.py``
builds it small and holds its rows to the service's own summary (``league.summary``).

Each club: members, seasons of nights (a night every ``every`` days), tables of four seats (a
guest in the last seat of every ``guests``-th table, if set), hands (a wall game one in 15,
half the wins on a discard; the winner +3s and the others -s each, so every hand sums to zero),
their results with running totals, and the league's per-night summary worked out in SQL as
``league.summary`` does (places by net, ties sharing the table points). The summary's player
history columns (won from the wall, East, goulash, paid) are left at zero: the benches that
load these rows do not read them, and summing them would join every hand to its results.
The stored standings are not made here (``league.standings_store.rebuild`` after, if wanted).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass

# Each statement is formatted with the sizes, the first night and the ids already used
# ({c}, {m}, ... : the offsets); the rows' ids follow them, numbered 1.. within the load.
SQL = [
    ("clubs", """
     INSERT INTO clubs_club (id, name, slug, published, created, time_zone)
     SELECT {c} + k, 'Other club ' || k, 'other-' || k, false, now(), 'Europe/London'
     FROM generate_series(1, {CLUBS}) k"""),
    ("members", """
     INSERT INTO clubs_member (id, club_id, display_name, role, active)
     SELECT {m} + k, {c} + (k - 1) / {MEMBERS} + 1,
            'Player ' || lpad(((k - 1) % {MEMBERS} + 1)::text, 2, '0'), 'member', true
     FROM generate_series(1, {CLUBS} * {MEMBERS}) k"""),
    ("seasons", """
     INSERT INTO clubs_season (id, club_id, name, start, "end")
     SELECT {s} + k, {c} + (k - 1) / {SEASONS} + 1, 'Season ' || ((k - 1) % {SEASONS} + 1),
            date '{START}' + ((k - 1) % {SEASONS}) * {NIGHTS} * {EVERY},
            date '{START}' + ((k - 1) % {SEASONS} + 1) * {NIGHTS} * {EVERY} - 1
     FROM generate_series(1, {CLUBS} * {SEASONS}) k"""),
    ("nights", """
     INSERT INTO clubs_clubsession (id, club_id, season_id, date, notes, status, created,
                                    house_rule_version_id)
     SELECT {n} + k, {c} + (k - 1) / ({SEASONS} * {NIGHTS}) + 1, {s} + (k - 1) / {NIGHTS} + 1,
            date '{START}' + ((k - 1) % ({SEASONS} * {NIGHTS})) * {EVERY}, '', 'closed', now(),
            {VERSION}
     FROM generate_series(1, {CLUBS} * {SEASONS} * {NIGHTS}) k"""),
    ("tables", """
     INSERT INTO clubs_table (id, session_id, number)
     SELECT {t} + k, {n} + (k - 1) / {TABLES} + 1, (k - 1) % {TABLES} + 1
     FROM generate_series(1, {CLUBS} * {SEASONS} * {NIGHTS} * {TABLES}) k"""),
    # The four players of a table change from night to night (3 places on each night), and no
    # one sits at two tables of a night (members >= 4 x tables).
    ("seats", """
     INSERT INTO clubs_seat (id, table_id, member_id, guest_name, position, starting_wind)
     SELECT {seat} + (k - 1) * 4 + p + 1, {t} + k,
            CASE WHEN {GUEST_SEAT} THEN NULL
                 ELSE {m} + ((k - 1) / ({SEASONS} * {NIGHTS} * {TABLES})) * {MEMBERS} + 1
                      + (((k - 1) / {TABLES}) * 3 + ((k - 1) % {TABLES}) * 4 + p) % {MEMBERS} END,
            CASE WHEN {GUEST_SEAT} THEN 'Guest ' || (k / {GUESTS}) % 7 ELSE '' END,
            p, substr('ESWN', p + 1, 1)
     FROM generate_series(1, {CLUBS} * {SEASONS} * {NIGHTS} * {TABLES}) k, generate_series(0, 3) p"""),
    ("hands", """
     INSERT INTO clubs_hand (id, table_id, number, prevailing_wind, draw, goulash, win_source,
                             facts, voided, created, updated, dealer_id, winner_id, discarder_id)
     SELECT {h} + x.h, {t} + k, n, 'E', x.h % 15 = 0, false,
            CASE WHEN x.h % 15 = 0 THEN '' WHEN x.h % 2 = 0 THEN 'discard' ELSE 'wall' END,
            '{{}}', false, now(), now(), {seat} + (k - 1) * 4 + (n - 1) % 4 + 1,
            CASE WHEN x.h % 15 = 0 THEN NULL ELSE {seat} + (k - 1) * 4 + (x.h::bigint * 7919 % 4) + 1 END,
            CASE WHEN x.h % 15 = 0 OR x.h % 2 = 1 THEN NULL
                 ELSE {seat} + (k - 1) * 4 + ((x.h::bigint * 7919 + 1) % 4) + 1 END
     FROM generate_series(1, {CLUBS} * {SEASONS} * {NIGHTS} * {TABLES}) k,
          generate_series(1, {HANDS}) n, LATERAL (SELECT (k - 1) * {HANDS} + n AS h) x"""),
    ("hand results", """
     INSERT INTO clubs_handresult (id, hand_id, seat_id, club_id, season_id, session_id,
                                   member_id, seat_wind, score, net, running_total, won, gave,
                                   "limit", computed)
     SELECT {hr} + (h.id - {h} - 1) * 4 + s.position + 1, h.id, s.id, ss.club_id, ss.season_id,
            ss.id, s.member_id, s.starting_wind, v.score, v.net,
            sum(v.net) OVER (PARTITION BY s.id ORDER BY h.number),
            coalesce(h.winner_id = s.id, false), coalesce(h.discarder_id = s.id, false),
            CASE WHEN h.winner_id = s.id AND v.score >= 300 THEN 'limit' ELSE '' END, now()
     FROM clubs_hand h JOIN clubs_table t ON t.id = h.table_id
     JOIN clubs_clubsession ss ON ss.id = t.session_id
     JOIN clubs_seat s ON s.table_id = h.table_id,
     LATERAL (SELECT CASE WHEN h.draw THEN 0 WHEN h.winner_id = s.id THEN 10 + (h.id * 31 % 300)
                          ELSE (h.id * 17 + s.position) % 20 END AS score,
                     CASE WHEN h.draw THEN 0 WHEN h.winner_id = s.id THEN 3 * (10 + (h.id * 31 % 300))
                          ELSE -(10 + (h.id * 31 % 300)) END AS net) v
     WHERE h.id > {h}"""),
    ("night summary", """
     INSERT INTO league_nightresult (seat_id, table_id, club_id, season_id, session_id, member_id,
         guest_name, date, house_rule_id, table_number, counted, hands, net, mahjongs, given, limits,
         best_score, place, tied, points_zero, points_half,
         won_from_wall, east_hands, east_won, east_net, goulash_hands, goulash_won, goulash_net,
         imported, imported_hands, imported_net, paid)
     SELECT p.seat_id, p.table_id, ss.club_id, ss.season_id, ss.id, p.member_id, p.guest_name,
            ss.date, v.record_id, t.number, true, p.hands, p.net, p.mj, p.given, p.limits, p.best,
            p.place, p.tied,
            (SELECT avg((ARRAY[4, 2, 1, 0]::float8[])[least(g, 4)])
             FROM generate_series(p.place, p.place + p.tied - 1) g),
            (SELECT avg((ARRAY[4, 2, 1, 0.5]::float8[])[least(g, 4)])
             FROM generate_series(p.place, p.place + p.tied - 1) g),
            -- The player history's figures (history.stats): left at zero (the docstring says
            -- why), given since Django sets no default in the database.
            0, 0, 0, 0, 0, 0, 0, false, 0, 0, '{{}}'::jsonb
     FROM (
       SELECT s.id AS seat_id, s.table_id, s.member_id, s.guest_name, a.hands, a.net, a.mj,
              a.given, a.limits, a.best,
              rank() OVER (PARTITION BY s.table_id ORDER BY a.net DESC) AS place,
              count(*) OVER (PARTITION BY s.table_id, a.net) AS tied
       FROM clubs_seat s JOIN (
         SELECT seat_id, count(*) AS hands, sum(net) AS net, count(*) FILTER (WHERE won) AS mj,
                count(*) FILTER (WHERE gave) AS given,
                count(*) FILTER (WHERE "limit" <> '') AS limits,
                coalesce(max(score) FILTER (WHERE won), 0) AS best
         FROM clubs_handresult WHERE seat_id > {seat} GROUP BY seat_id) a ON a.seat_id = s.id
     ) p JOIN clubs_table t ON t.id = p.table_id JOIN clubs_clubsession ss ON ss.id = t.session_id
     JOIN clubs_houseruleversion v ON v.id = ss.house_rule_version_id"""),
]
# The ids each statement numbers on from ({c}: clubs, {m}: members, ...).
OFFSETS = {"c": "clubs_club", "m": "clubs_member", "s": "clubs_season", "n": "clubs_clubsession",
           "t": "clubs_table", "seat": "clubs_seat", "h": "clubs_hand", "hr": "clubs_handresult"}


@dataclass(frozen=True)
class Shape:
    """How many of each a club has, and when its first night is."""

    clubs: int
    members: int
    seasons: int
    nights: int  # a season's
    tables: int  # a night's
    hands: int  # a table's
    start: dt.date
    every: int = 1  # days from one night to the next
    guests: int = 0  # a guest in the last seat of every guests-th table; 0: none

    def __post_init__(self):
        if self.members < 4 * self.tables:
            raise ValueError(f"{self.members} members cannot fill {self.tables} tables of four "
                             "without someone at two tables a night")

    @property
    def club_hands(self) -> int:
        return self.seasons * self.nights * self.tables * self.hands


def build(shape: Shape, version_id: int, first_club: int | None = None,
          report: Callable[[str, int, float], None] | None = None,
          keys_checked: bool = False) -> None:
    """Write ``shape.clubs`` clubs' rows after the ids already used, in one transaction.

    ``first_club``: the clubs are ``first_club``, ``first_club + 1``... made already (through
    the ORM); without it they are made here. ``report(step, rows, seconds)`` after each
    statement. The foreign-key triggers are off while loading (session_replication_role: the
    load takes a third less time) unless ``keys_checked`` (the test's, where a key pointing
    nowhere must fail)."""
    from django.db import connection, transaction

    sizes = {"CLUBS": shape.clubs, "MEMBERS": shape.members, "SEASONS": shape.seasons,
             "NIGHTS": shape.nights, "TABLES": shape.tables, "HANDS": shape.hands,
             "START": shape.start.isoformat(), "EVERY": int(shape.every),
             "VERSION": int(version_id), "GUESTS": max(1, int(shape.guests)),
             "GUEST_SEAT": f"k % {int(shape.guests)} = 0 AND p = 3" if shape.guests else "false"}
    with transaction.atomic(), connection.cursor() as cursor:
        if not keys_checked:
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("SET LOCAL work_mem = '256MB'")
        for key, table in OFFSETS.items():
            cursor.execute(f"SELECT coalesce(max(id), 0) FROM {table}")
            sizes[key] = cursor.fetchone()[0]
        statements = SQL
        if first_club is not None:
            sizes["c"] = int(first_club) - 1
            statements = [(name, sql) for name, sql in SQL if name != "clubs"]
        for name, sql in statements:
            t0 = time.perf_counter()
            # No parameters: every value is formatted in, so "%" is SQL's modulo as written.
            cursor.execute(sql.format(**sizes))
            if report:
                report(name, cursor.rowcount, time.perf_counter() - t0)
        for table in [*OFFSETS.values(), "league_nightresult"]:
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT max(id) FROM {table}))")
