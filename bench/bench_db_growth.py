"""One club's pages with 20k hands in the database against the same club with 1M (issue #27:
the same queries, the time within 1.5x), side by side in one run, on PostgreSQL.

    flock /tmp/bench.lock .venv/bin/python bench/bench_db_growth.py [--repeats 7]
          [--small 20000] [--big 1000000] [--keep]

Builds two databases, ``mahjong_dbgrowth_small`` and ``mahjong_dbgrowth_big`` (``--keep``
reuses them when they exist). In each, first the same club, made through the ORM as
``tests/growth/test_db_growth.py`` makes it: one night recorded through ``clubs.recording``
and copied into 50 (400 hands), the next night at the door with check-ins and a draw, a
comparison, the rating turned on. Then other clubs fill the database in bulk SQL (as
``bench/league_build.py`` does for one club) up to ``--small`` or ``--big`` hands: clubs of 20
members, 4 seasons of 50 nights, two tables of 25 hands a night (10,000 hands a club: 2 clubs,
or 100; a guest in one seat of every fifth table), their hand results, running totals and the league's per-night summary.

Each database is served by its own worker process (a Django test client as the club's admin,
its API client, and a superuser for the admin's lists); the parent asks both in turn for every
page and answer of the growth test, the order alternating each repeat. Prints each median at
both sizes, their ratio and the queries of each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
HOST = ["-h", "127.0.0.1", "-U", "postgres"]
MEMBERS, SEASONS, NIGHTS, TABLES, HANDS = 20, 4, 50, 2, 25
PER_CLUB = SEASONS * NIGHTS * TABLES * HANDS
FIXED_NIGHTS = 50

# Other clubs, numbered 1..{CLUBS} after the ids already used ({c}, {m}, ... are the offsets).
SQL = [
    ("clubs", """
     INSERT INTO clubs_club (id, name, slug, published, created, time_zone)
     SELECT {c} + k, 'Other club ' || k, 'other-' || k, false, now(), 'Europe/London'
     FROM generate_series(1, {CLUBS}) k"""),
    ("members", """
     INSERT INTO clubs_member (id, club_id, display_name, role, active)
     SELECT {m} + k, {c} + (k - 1) / {MEMBERS} + 1, 'Player ' || lpad(((k - 1) % {MEMBERS})::text, 2, '0'),
            'member', true
     FROM generate_series(1, {CLUBS} * {MEMBERS}) k"""),
    ("seasons", """
     INSERT INTO clubs_season (id, club_id, name, start, "end")
     SELECT {s} + k, {c} + (k - 1) / {SEASONS} + 1, 'Season ' || ((k - 1) % {SEASONS} + 1),
            date '2020-01-01' + ((k - 1) % {SEASONS}) * {NIGHTS} * 7,
            date '2020-01-01' + ((k - 1) % {SEASONS} + 1) * {NIGHTS} * 7 - 1
     FROM generate_series(1, {CLUBS} * {SEASONS}) k"""),
    ("nights", """
     INSERT INTO clubs_clubsession (id, club_id, season_id, date, notes, status, created,
                                    house_rule_version_id)
     SELECT {n} + k, {c} + (k - 1) / ({SEASONS} * {NIGHTS}) + 1, {s} + (k - 1) / {NIGHTS} + 1,
            date '2020-01-01' + ((k - 1) % ({SEASONS} * {NIGHTS})) * 7, '', 'closed', now(),
            {version}
     FROM generate_series(1, {CLUBS} * {SEASONS} * {NIGHTS}) k"""),
    ("tables", """
     INSERT INTO clubs_table (id, session_id, number)
     SELECT {t} + k, {n} + (k - 1) / {TABLES} + 1, (k - 1) % {TABLES} + 1
     FROM generate_series(1, {CLUBS} * {SEASONS} * {NIGHTS} * {TABLES}) k"""),
    ("seats", """
     INSERT INTO clubs_seat (id, table_id, member_id, guest_name, position, starting_wind)
     SELECT {seat} + (k - 1) * 4 + p + 1, {t} + k,
            CASE WHEN k % 5 = 0 AND p = 3 THEN NULL
                 ELSE {m} + ((k - 1) / ({SEASONS} * {NIGHTS} * {TABLES})) * {MEMBERS} + 1
                      + (((k - 1) / {TABLES}) * 3 + ((k - 1) % {TABLES}) * 4 + p) % {MEMBERS} END,
            CASE WHEN k % 5 = 0 AND p = 3 THEN 'Guest ' || (k / 5) % 7 ELSE '' END,
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
            -- The player history's figures (history.stats): left at their defaults, as Django
            -- sets no default in the database.
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
OFFSETS = {"c": "clubs_club", "m": "clubs_member", "s": "clubs_season", "n": "clubs_clubsession",
           "t": "clubs_table", "seat": "clubs_seat", "h": "clubs_hand", "hr": "clubs_handresult"}


def django_on(db: str) -> None:
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("API_THROTTLE", "0")
    os.environ.setdefault("APP_LOG_LEVEL", "WARNING")
    import django

    django.setup()


def make_fixed_club():
    """The club the pages are asked of, as tests/growth/test_db_growth.py makes it."""
    import datetime as dt

    from django.contrib.auth import get_user_model

    from clubs.models import Club, ClubSession, Member, MemberRole, Season
    from history import rating_store
    from houserules.sync import ensure_builtin_house_rules
    from tests.growth.history import copy_nights, record_night
    from tests.growth.test_db_growth import compare_the_night, open_the_door

    version = ensure_builtin_house_rules()["bmja"]
    club = Club.objects.create(name="Jade Dragon Club", slug="jade",
                               default_house_rule=version.record)
    users = get_user_model().objects
    admin = users.create_user("jade-admin")
    Member.objects.create(club=club, user=admin, display_name="Admin", role=MemberRole.ADMIN)
    users.create_superuser("root", password="x-y-z-123")
    members = [Member.objects.create(club=club, display_name=f"Player {i}") for i in range(8)]
    season = Season.objects.create(club=club, name="2030", start=dt.date(2030, 1, 1),
                                   end=dt.date(2030, 12, 31))
    night = ClubSession.objects.create(club=club, season=season, date=dt.date(2030, 11, 20),
                                       house_rule_version=version)
    record_night(night, members, admin)
    copy_nights(night, FIXED_NIGHTS - 1)
    open_the_door(club, night)
    compare_the_night(night, admin)
    rating_store.turn_on(club)
    return version


def build_in(db: str, hands: int) -> None:
    django_on(db)
    from django.core.management import call_command
    from django.db import connection, transaction

    from clubs.models import Hand

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    version = make_fixed_club()
    clubs = max(0, round((hands - Hand.objects.count()) / PER_CLUB))
    with connection.cursor() as cursor:
        offsets = {}
        for key, table in OFFSETS.items():
            cursor.execute(f"SELECT coalesce(max(id), 0) FROM {table}")
            offsets[key] = cursor.fetchone()[0]
    sizes = {"CLUBS": clubs, "MEMBERS": MEMBERS, "SEASONS": SEASONS, "NIGHTS": NIGHTS,
             "TABLES": TABLES, "HANDS": HANDS, "version": version.pk, **offsets}
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("SET LOCAL work_mem = '256MB'")
        for name, sql in SQL:
            t0 = time.perf_counter()
            cursor.execute(sql.format(**sizes))
            print(f"  {db}: {name:>14}: {cursor.rowcount:>9,} rows in "
                  f"{time.perf_counter() - t0:5.1f} s", flush=True)
        for table in [*OFFSETS.values(), "league_nightresult"]:
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT max(id) FROM {table}))")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"  {db}: {Hand.objects.count():,} hands in {clubs + 1} clubs, built in "
          f"{time.perf_counter() - began:.0f} s", flush=True)


def serve(db: str) -> None:
    """A worker: answers 'urls', 'time I' and 'count I' on stdin, one JSON line each."""
    import warnings

    warnings.filterwarnings("ignore", "No directory at")  # whitenoise: no collectstatic here
    django_on(db)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club, ClubSession
    from compare.models import Comparison
    from tests.growth import test_admin_lists
    from tests.growth.test_club_pages_growth import api_answers, pages
    from tests.growth.test_db_growth import more_urls

    club = Club.objects.get(slug="jade")
    night = ClubSession.objects.filter(club=club, tables__isnull=False).order_by("-date").first()
    door = ClubSession.objects.filter(club=club).order_by("-date").first()
    comparison = Comparison.objects.get()
    users = get_user_model().objects
    admin, root = Client(), Client()
    admin.force_login(users.get(username="jade-admin"))
    root.force_login(users.get(username="root"))
    extra_pages, extra_answers = more_urls(club, night, door, comparison)
    asked = [(admin, u) for u in pages(club, night) + extra_pages + api_answers(club, night)
             + extra_answers] + [(root, u) for u in test_admin_lists.urls(club)]

    def get(i):
        client, url = asked[i]
        response = client.get(url, secure=True)
        assert response.status_code == 200, (url, response.status_code)
        if getattr(response, "streaming", False):
            b"".join(response.streaming_content)

    for line in sys.stdin:
        word, _, arg = line.strip().partition(" ")
        if word == "urls":
            answer = [u for _, u in asked]
        elif word == "time":
            t0 = time.perf_counter()
            get(int(arg))
            answer = (time.perf_counter() - t0) * 1000
        elif word == "count":
            with CaptureQueriesContext(connection) as seen:
                get(int(arg))
            answer = len(seen)
        print(json.dumps(answer), flush=True)


class Worker:
    def __init__(self, db: str):
        self.process = subprocess.Popen([sys.executable, __file__, "--serve", db],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line: str):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--small", type=int, default=20_000)
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--keep", action="store_true", help="reuse databases already built")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--build-in", help=argparse.SUPPRESS)
    parser.add_argument("--hands", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve)
    if args.build_in:
        return build_in(args.build_in, args.hands)
    sizes = {"small": args.small, "big": args.big}
    dbs = {k: f"mahjong_dbgrowth_{k}" for k in sizes}
    existing = subprocess.run(["psql", *HOST, "-Atc", "SELECT datname FROM pg_database"],
                              capture_output=True, text=True, check=True).stdout.split()
    for k, db in dbs.items():
        if not (args.keep and db in existing):
            subprocess.run(["dropdb", *HOST, "--if-exists", "--force", db], check=True)
            subprocess.run(["createdb", *HOST, db], check=True)
            # A process of its own: Django is set up for one database.
            subprocess.run([sys.executable, __file__, "--build-in", db, "--hands",
                            str(sizes[k])], check=True)
    workers = {k: Worker(db) for k, db in dbs.items()}
    urls = {k: w.ask("urls") for k, w in workers.items()}
    assert len(urls["small"]) == len(urls["big"])
    for k, w in workers.items():  # warm up: each once
        for i in range(len(urls[k])):
            w.ask(f"time {i}")
    times: dict[tuple[str, int], list[float]] = {}
    for repeat in range(args.repeats):
        for i in range(len(urls["small"])):
            for k in ("small", "big") if repeat % 2 == 0 else ("big", "small"):
                times.setdefault((k, i), []).append(workers[k].ask(f"time {i}"))
    print(f"{'page or answer (one club; ms)':<60}{args.small:>9,}{args.big:>10,}{'ratio':>7}"
          f"{'queries':>9}")
    ratios = []
    for i, url in enumerate(urls["small"]):
        counts = [workers[k].ask(f"count {i}") for k in ("small", "big")]
        a, b = (statistics.median(times[(k, i)]) for k in ("small", "big"))
        ratios.append(b / a)
        query = f"{counts[0]}" if counts[0] == counts[1] else f"{counts[0]}/{counts[1]}"
        flag = "  <-- over 1.5x" if b / a > 1.5 or counts[0] != counts[1] else ""
        print(f"{url[:59]:<60}{a:9.1f}{b:10.1f}{b / a:7.2f}{query:>9}{flag}")
    for w in workers.values():
        w.close()
    print(f"ratios: median {statistics.median(ratios):.2f}, highest {max(ratios):.2f} "
          f"(floor: 1.5); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
