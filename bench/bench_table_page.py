"""The table page of a long night against a short one (issue #12: reads never replay).

    .venv/bin/python bench/bench_table_page.py [--db sqlite|postgres] [--repeats 7]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL `mahjong_bench_page`
on 127.0.0.1, dropped and made again), records a night of 24 hands at one table and of 400 at
another through the recording service (quick hands and 004 Sheet 19 hand 1 as tiles, wall
games), then asks for each table's page and its state API in turn, alternately, as a member of
the club. Prints the median time of each, their ratio, the queries each runs and the page's size.
The target: the 400-hand page costs at most 2 times the 24-hand page, measured in the same run.
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
# A benchmark makes many requests a minute: the API's throttles (issue #13) would refuse them.
os.environ.setdefault("API_THROTTLE", "0")


def setup_database(kind: str) -> None:
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="bench-page-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    else:
        name = "mahjong_bench_page"
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "--force",
                        name], check=True)
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
        os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def bench_club(names):
    """The built-in house rules' versions, a club, its scorer (the benches' logged-in user) and
    a member for each of ``names``."""
    from django.contrib.auth import get_user_model

    from clubs.models import Club, Member
    from houserules.sync import ensure_builtin_house_rules

    versions = ensure_builtin_house_rules()
    club = Club.objects.create(name="Bench Club", slug="bench")
    user = get_user_model().objects.create_user("bench-scorer", password="x")
    Member.objects.create(club=club, user=user, display_name="Scorer", role="scorer")
    members = [Member.objects.create(club=club, display_name=n) for n in names]
    return versions, club, user, members


def build_night(hands: int, number: int, session, members, user):
    from clubs.models import Seat, Table
    from clubs.recording import record_hand
    from tests.web.test_recording import contract_hand, quick

    table = Table.objects.create(session=session, number=number)
    for position, (member, wind) in enumerate(zip(members, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    for n in range(hands):
        if n % 8 == 0:
            entry = contract_hand()
        elif n % 8 == 5:
            entry = {"draw": True, "seats": {w: {"score": 0} for w in "ESWN"}}
        else:
            entry = quick(winner="ESWN"[n % 4], discarder="ESWN"[(n + 1) % 4] if n % 2 else None)
        record_hand(table, entry, user)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--short", type=int, default=24)
    parser.add_argument("--long", type=int, default=400)
    args = parser.parse_args()
    setup_database(args.db)

    import datetime as dt

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from clubs.models import ClubSession

    versions, club, user, members = bench_club("ABCD")
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 24),
                                         house_rule_version=versions["bmja"])
    start = time.perf_counter()
    tables = {n: build_night(n, i + 1, session, members, user)
              for i, n in enumerate((args.short, args.long))}
    print(f"recorded {args.short + args.long} hands in {time.perf_counter() - start:.1f} s "
          f"({args.db})")

    client = Client()
    client.force_login(user)
    urls = {
        (n, kind): (reverse("table", args=[club.slug, session.pk, t.pk]) if kind == "page"
                    else f"/api/v1/tables/{t.pk}/state/")
        for n, t in tables.items() for kind in ("page", "state API")
    }
    for url in urls.values():  # warm up
        assert client.get(url, secure=True).status_code == 200, url
    times = {key: [] for key in urls}
    for _ in range(args.repeats):
        for key, url in urls.items():
            began = time.perf_counter()
            client.get(url, secure=True)
            times[key].append(time.perf_counter() - began)
    print(f"{'what':<28}{'median ms':>10}{'queries':>9}{'bytes':>10}")
    medians = {}
    for key, url in urls.items():
        with CaptureQueriesContext(connection) as seen:
            size = len(client.get(url, secure=True).content)
        medians[key] = statistics.median(times[key]) * 1000
        print(f"{f'{key[0]} hands, {key[1]}':<28}{medians[key]:>10.1f}"
              f"{len(seen.captured_queries):>9}{size:>10}")
    for kind in ("page", "state API"):
        ratio = medians[(args.long, kind)] / medians[(args.short, kind)]
        print(f"{kind}: {args.long}-hand / {args.short}-hand = {ratio:.2f}")


if __name__ == "__main__":
    main()
