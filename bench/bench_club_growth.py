"""A club's pages after 10 nights against the same pages after 1,000 (issue #27's third floor:
the same queries, the time within 1.5x), side by side in one database.

    flock /tmp/bench.lock .venv/bin/python bench/bench_club_growth.py [--db sqlite|postgres]
          [--repeats 7]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL
``mahjong_club_growth``), and two clubs in it: each records one night of two tables through the
recording service (``tests/growth/history.py``: distinct winners' tiles and agreed scores), then
one gets 9 earlier nights and the other 999, copied with ``bulk_create`` in seasons of fifty.
Then every page and API answer of ``tests/growth/test_club_pages_growth.py`` (club, night,
table, hand, record, league, standings, player, all-time, what-if, sheets and their downloads,
the API's club, nights, tables, hands, members, seasons, standings and hand results) is asked
of both clubs in turn, the order alternating each repeat, as each club's admin. Prints the
median time of each at 10 and at 1,000 nights, their ratio and the queries of each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("API_THROTTLE", "0")
os.environ.setdefault("APP_LOG_LEVEL", "WARNING")


def setup_database(kind: str) -> None:
    if kind == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='bench-growth-')}/b.sqlite3"
    else:
        name = "mahjong_club_growth"
        host = ["-h", "127.0.0.1", "-U", "postgres"]
        subprocess.run(["dropdb", *host, "--if-exists", "--force", name], check=True)
        subprocess.run(["createdb", *host, name], check=True)
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_club(slug: str, nights: int, version):
    import datetime as dt

    from django.contrib.auth import get_user_model

    from clubs.models import Club, ClubSession, Member, Season
    from tests.growth.history import copy_nights, record_night

    club = Club.objects.create(name=f"Club {slug}", slug=slug)
    admin = get_user_model().objects.create_user(f"{slug}-admin")
    Member.objects.create(club=club, user=admin, display_name="Admin", role="admin")
    members = [Member.objects.create(club=club, display_name=f"Player {i}") for i in range(8)]
    season = Season.objects.create(club=club, name="2030", start=dt.date(2030, 1, 1),
                                   end=dt.date(2030, 12, 31))
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2030, 11, 20),
                                         house_rule_version=version)
    record_night(session, members, admin)
    copy_nights(session, nights - 1)
    return club, session, admin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--long", type=int, default=1000, help="the long club's nights")
    args = parser.parse_args()
    setup_database(args.db)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from houserules.sync import ensure_builtin_house_rules
    from tests.growth.test_club_pages_growth import api_answers, pages

    version = ensure_builtin_house_rules()["bmja"]
    began = time.perf_counter()
    long = args.long
    clubs = {n: make_club(f"c{n}", n, version) for n in (10, long)}
    print(f"two clubs, 10 and {long:,} nights, made in {time.perf_counter() - began:.0f} s "
          f"({args.db})")
    clients, urls = {}, {}
    for n, (club, session, admin) in clubs.items():
        clients[n] = Client()
        clients[n].force_login(admin)
        urls[n] = pages(club, session) + api_answers(club, session)
    for n in clubs:  # warm up: each page once
        for url in urls[n]:
            assert clients[n].get(url, secure=True).status_code == 200, url
    times: dict[tuple[int, int], list[float]] = {}
    for repeat in range(args.repeats):
        for i in range(len(urls[10])):
            for n in (10, long) if repeat % 2 == 0 else (long, 10):
                t0 = time.perf_counter()
                clients[n].get(urls[n][i], secure=True)
                times.setdefault((n, i), []).append((time.perf_counter() - t0) * 1000)
    print(f"{'page or answer (of the 10-night club)':<58}{'10':>8}{long:>8,}{'ratio':>7}"
          f"{'queries':>9}")
    ratios = []
    for i, url in enumerate(urls[10]):
        counts = []
        for n in (10, long):
            with CaptureQueriesContext(connection) as seen:
                clients[n].get(urls[n][i], secure=True)
            counts.append(len(seen))
        a, b = (statistics.median(times[(n, i)]) for n in (10, long))
        ratios.append(b / a)
        query = f"{counts[0]}" if counts[0] == counts[1] else f"{counts[0]}/{counts[1]}"
        print(f"{url[:57]:<58}{a:8.1f}{b:8.1f}{b / a:7.2f}{query:>9}")
    print(f"ratios: median {statistics.median(ratios):.2f}, highest {max(ratios):.2f} "
          f"(floor: 1.5); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
