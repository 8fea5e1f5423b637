"""Build the 1M-hand club for the league benchmarks (issue #17), with bulk SQL on PostgreSQL.

    flock /tmp/bench.lock .venv/bin/python bench/league_build.py [--db mahjong_league_bench]

Drops and re-creates the database, migrates it, then writes one club of 40 members in 50
seasons of 200 nights (four tables of 25 hands a night): 10,000 nights, 40,000 tables,
1,000,000 hands, 4,000,000 hand results (winner +3s, the others -s; one hand in 15 a wall
game; half the wins on a discard), their running totals, and the league's per-night summary
worked out in SQL as ``league.summary`` does (places by net, ties sharing the table points).
Every season holds 20,000 hands. Foreign-key triggers are off while loading
(session_replication_role) and the tables analysed afterwards. About two minutes here.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MEMBERS, SEASONS, NIGHTS, TABLES, HANDS = 40, 50, 200, 4, 25

SQL = [
    ("members", """
     INSERT INTO clubs_member (id, club_id, display_name, role, active)
     SELECT m, %(club)s, 'Player ' || lpad(m::text, 2, '0'), 'member', true
     FROM generate_series(1, {MEMBERS}) m"""),
    ("seasons", """
     INSERT INTO clubs_season (id, club_id, name, start, "end")
     SELECT s, %(club)s, 'Season ' || s, date '2000-01-01' + (s - 1) * {NIGHTS},
            date '2000-01-01' + s * {NIGHTS} - 1
     FROM generate_series(1, {SEASONS}) s"""),
    ("nights", """
     INSERT INTO clubs_clubsession (id, club_id, season_id, date, notes, status, created,
                                    house_rule_version_id)
     SELECT n, %(club)s, (n - 1) / {NIGHTS} + 1, date '2000-01-01' + n - 1, '', 'closed', now(),
            %(version)s
     FROM generate_series(1, {SEASONS} * {NIGHTS}) n"""),
    ("tables", """
     INSERT INTO clubs_table (id, session_id, number)
     SELECT t, (t - 1) / {TABLES} + 1, (t - 1) % {TABLES} + 1
     FROM generate_series(1, {SEASONS} * {NIGHTS} * {TABLES}) t"""),
    ("seats", """
     INSERT INTO clubs_seat (id, table_id, member_id, guest_name, position, starting_wind)
     SELECT (t - 1) * 4 + p + 1, t,
            1 + (((t - 1) / {TABLES}) * 3 + ((t - 1) % {TABLES}) * 4 + p) % {MEMBERS},
            '', p, substr('ESWN', p + 1, 1)
     FROM generate_series(1, {SEASONS} * {NIGHTS} * {TABLES}) t, generate_series(0, 3) p"""),
    ("hands", """
     INSERT INTO clubs_hand (id, table_id, number, prevailing_wind, draw, goulash, win_source,
                             facts, voided, created, updated, dealer_id, winner_id, discarder_id)
     SELECT h, t, n, 'E', h % 15 = 0, false,
            CASE WHEN h % 15 = 0 THEN '' WHEN h % 2 = 0 THEN 'discard' ELSE 'wall' END,
            '{{}}', false, now(), now(), (t - 1) * 4 + (n - 1) % 4 + 1,
            CASE WHEN h % 15 = 0 THEN NULL ELSE (t - 1) * 4 + (h::bigint * 7919 % 4) + 1 END,
            CASE WHEN h % 15 = 0 OR h % 2 = 1 THEN NULL
                 ELSE (t - 1) * 4 + ((h::bigint * 7919 + 1) % 4) + 1 END
     FROM generate_series(1, {SEASONS} * {NIGHTS} * {TABLES}) t, generate_series(1, {HANDS}) n,
          LATERAL (SELECT (t - 1) * {HANDS} + n AS h) x"""),
    ("hand results", """
     INSERT INTO clubs_handresult (id, hand_id, seat_id, club_id, season_id, session_id,
                                   member_id, seat_wind, score, net, running_total, won, gave,
                                   "limit", computed)
     SELECT (h.id - 1) * 4 + s.position + 1, h.id, s.id, %(club)s, ss.season_id, ss.id,
            s.member_id, s.starting_wind, v.score, v.net,
            sum(v.net) OVER (PARTITION BY s.id ORDER BY h.number), coalesce(h.winner_id = s.id, false),
            coalesce(h.discarder_id = s.id, false),
            CASE WHEN h.winner_id = s.id AND v.score >= 300 THEN 'limit' ELSE '' END, now()
     FROM clubs_hand h JOIN clubs_table t ON t.id = h.table_id
     JOIN clubs_clubsession ss ON ss.id = t.session_id
     JOIN clubs_seat s ON s.table_id = h.table_id,
     LATERAL (SELECT CASE WHEN h.draw THEN 0 WHEN h.winner_id = s.id THEN 10 + (h.id * 31 % 300)
                          ELSE (h.id * 17 + s.position) % 20 END AS score,
                     CASE WHEN h.draw THEN 0 WHEN h.winner_id = s.id THEN 3 * (10 + (h.id * 31 % 300))
                          ELSE -(10 + (h.id * 31 % 300)) END AS net) v"""),
    ("night summary", """
     INSERT INTO league_nightresult (seat_id, table_id, club_id, season_id, session_id, member_id,
         guest_name, date, house_rule_id, table_number, counted, hands, net, mahjongs, given, limits,
         best_score, place, tied, points_zero, points_half,
         won_from_wall, east_hands, east_won, east_net, goulash_hands, goulash_won, goulash_net,
         imported, imported_hands, imported_net, paid)
     SELECT p.seat_id, p.table_id, %(club)s, ss.season_id, ss.id, p.member_id, p.guest_name,
            ss.date, v.record_id, t.number, true, p.hands, p.net, p.mj, p.given, p.limits, p.best,
            p.place, p.tied,
            (SELECT avg((ARRAY[4, 2, 1, 0]::float8[])[least(g, 4)])
             FROM generate_series(p.place, p.place + p.tied - 1) g),
            (SELECT avg((ARRAY[4, 2, 1, 0.5]::float8[])[least(g, 4)])
             FROM generate_series(p.place, p.place + p.tied - 1) g),
            -- The player history's figures (history.stats) are not what these benches read:
            -- left at their defaults, as Django sets no default in the database.
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
         FROM clubs_handresult GROUP BY seat_id) a ON a.seat_id = s.id
     ) p JOIN clubs_table t ON t.id = p.table_id JOIN clubs_clubsession ss ON ss.id = t.session_id
     JOIN clubs_houseruleversion v ON v.id = ss.house_rule_version_id"""),
]
SEQUENCES = ["clubs_member", "clubs_season", "clubs_clubsession", "clubs_table", "clubs_seat",
             "clubs_hand", "clubs_handresult"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="mahjong_league_bench")
    args = parser.parse_args()
    host = ["-h", "127.0.0.1", "-U", "postgres"]
    subprocess.run(["dropdb", *host, "--if-exists", args.db], check=True)
    subprocess.run(["createdb", *host, args.db], check=True)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, transaction

    from clubs.models import Club
    from houserules.sync import ensure_builtin_house_rules

    call_command("migrate", verbosity=0)
    version = ensure_builtin_house_rules()["bmja"]
    club = Club.objects.create(name="Bench Club", slug="bench", published=False)
    params = {"club": club.pk, "version": version.pk}
    sizes = {"MEMBERS": MEMBERS, "SEASONS": SEASONS, "NIGHTS": NIGHTS, "TABLES": TABLES,
             "HANDS": HANDS}
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("SET LOCAL work_mem = '256MB'")
        for name, sql in SQL:
            t0 = time.perf_counter()
            # Modulo is "%" in SQL and a placeholder to the driver: doubled.
            cursor.execute(sql.format(**sizes).replace(" % ", " %% "), params)
            print(f"{name:>14}: {cursor.rowcount:>9,} rows in {time.perf_counter() - t0:5.1f} s",
                  flush=True)
        for table in SEQUENCES:
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT max(id) FROM {table}))")
    # The stored standings (league.standings_store) from the summary, as refresh_league
    # makes them after a bulk load.
    from league.standings_store import rebuild

    t0 = time.perf_counter()
    print(f"{'standings':>14}: {rebuild():>9,} rows in {time.perf_counter() - t0:5.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"built in {time.perf_counter() - started:.0f} s: club id {club.pk}, slug 'bench'")


if __name__ == "__main__":
    main()
