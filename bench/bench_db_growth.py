"""One club's pages with 20k hands in the database against the same club with 1M (issue #27:
the same queries, the time within 1.5x), side by side in one run, on PostgreSQL.

    flock /tmp/bench.lock .venv/bin/python bench/bench_db_growth.py [--repeats 7]
          [--small 20000] [--big 1000000] [--keep] [--db-prefix mahjong_dbgrowth]

Builds two databases, ``mahjong_dbgrowth_small`` and ``mahjong_dbgrowth_big`` (``--keep``
reuses them when they exist; ``--db-prefix`` names them otherwise). In each, first the same
club, made through the ORM as ``tests/growth/test_db_growth.py`` makes it: one night recorded through ``clubs.recording``
and copied into 50 (400 hands), the next night at the door with check-ins and a draw, a
comparison, the rating turned on. Then other clubs fill the database in bulk SQL
(``bench/bulk_league.py``, as ``bench/league_build.py`` does for one club) up to ``--small``
or ``--big`` hands: clubs of 20 members, 4 seasons of 50 nights, two tables of 25 hands a night (10,000 hands a club: 2 clubs,
or 100; a guest in one seat of every fifth table), their hand results, running totals and the league's per-night summary.

Each database is served by its own worker process (a Django test client as the club's admin,
its API client, and a superuser for the admin's lists); the parent asks both in turn for every
page and answer of the growth test, the order alternating each repeat. Prints each median at
both sizes, their ratio and the queries of each.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench import database  # noqa: E402
from bench.bulk_league import Shape, build  # noqa: E402

# Other clubs: 4 seasons of 50 weekly nights, two tables of 25 hands, a guest at every fifth.
OTHER_CLUB = dict(members=20, seasons=4, nights=50, tables=2, hands=25,
                  start=dt.date(2020, 1, 1), every=7, guests=5)
FIXED_NIGHTS = 50


def django_on(db: str) -> None:
    database.django_on(database.postgres_url(db))


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
    from django.db import connection

    from clubs.models import Hand

    call_command("migrate", verbosity=0)
    began = time.perf_counter()
    version = make_fixed_club()
    per_club = Shape(clubs=1, **OTHER_CLUB).club_hands
    clubs = max(0, round((hands - Hand.objects.count()) / per_club))
    build(Shape(clubs=clubs, **OTHER_CLUB), version.pk, report=lambda name, rows, seconds: print(
        f"  {db}: {name:>14}: {rows:>9,} rows in {seconds:5.1f} s", flush=True))
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
    parser.add_argument("--db-prefix", default="mahjong_dbgrowth",
                        help="the databases' names before _small and _big (another engineer's "
                             "databases are left alone)")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--build-in", help=argparse.SUPPRESS)
    parser.add_argument("--hands", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve)
    if args.build_in:
        return build_in(args.build_in, args.hands)
    sizes = {"small": args.small, "big": args.big}
    dbs = {k: f"{args.db_prefix}_{k}" for k in sizes}
    existing = subprocess.run(["psql", *database.HOST, "-Atc", "SELECT datname FROM pg_database"],
                              capture_output=True, text=True, check=True).stdout.split()
    for k, db in dbs.items():
        if not (args.keep and db in existing):
            database.fresh_postgres(db)
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
