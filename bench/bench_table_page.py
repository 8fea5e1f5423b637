"""The table page and the table's state API at a long table against a short one: the growth
that exists (issue #27).

    flock /tmp/bench.lock .venv/bin/python bench/bench_table_page.py [--db sqlite|postgres]
          [--repeats 7] [--short 24] [--long 1000]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL `mahjong_bench_page`
on 127.0.0.1, dropped and made again), records ``--short`` hands at one table and ``--long`` at
another through the recording service (distinct hands from ``bench/distinct_hands.py``: every
winner's hand as tiles, wall games and the goulash after them), then asks for each table's page
and its state API, every repeat in another order (the four requests rotate), as the club's
scorer. Prints the median time of each, the queries each runs and the answer's size, and the
long table's cost over the short one's.

What grows and what does not: the page shows the latest hands of the table, a fixed number of
them, whatever the night's length (its cost should not grow: the issue's floor); the state API
answers every hand of the table with its lines and payments, so its size and time grow with the
table's hands, by design (a phone asks for it once when it opens the table). A real table plays
20-40 hands a night; 1,000 is the stretch.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench.database import fresh_database  # noqa: E402


def setup_database(kind: str) -> None:
    fresh_database(kind, "mahjong_bench_page", "bench-page-", "bench.sqlite3")


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
    from bench.distinct_hands import distinct_entries
    from clubs.models import Seat, Table
    from clubs.recording import record_hand

    table = Table.objects.create(session=session, number=number)
    for position, (member, wind) in enumerate(zip(members, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    for entry in distinct_entries(hands, seed=number):
        record_hand(table, entry, user)
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--short", type=int, default=24)
    parser.add_argument("--long", type=int, default=1000)
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
    keys = list(urls)
    for repeat in range(args.repeats):
        for key in keys[repeat % len(keys):] + keys[:repeat % len(keys)]:  # rotate the order
            url = urls[key]
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
        print(f"{kind}: {args.long}-hand / {args.short}-hand = {ratio:.2f}x")


if __name__ == "__main__":
    main()
