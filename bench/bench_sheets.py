"""The score sheets of a long table and of a whole night, against a short table's (issue #15).

    .venv/bin/python bench/bench_sheets.py [--db sqlite|postgres] [--repeats 5]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL
`mahjong_bench_page`, as bench_table_page.py on 127.0.0.1, dropped and made again) and records through the recording
service a table of 24 hands, a table of 100, and a night of 4 tables of 24 hands (96 hands),
under bmja (quick hands, 004 Sheet 19 hand 1 as tiles, wall games). Then asks, alternately in
each repeat, for each one's sheet page (HTML) and PDF as a member of the club. Prints the
median time of each, the queries each runs and its size, and the 100-hand table's cost over the
24-hand table's (the target: at most 3 times; the queries the same and at most 10 for a table).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
# A benchmark makes many requests a minute: the API's throttles (issue #13) would refuse them.
os.environ.setdefault("API_THROTTLE", "0")

from bench.bench_table_page import bench_club, build_night, setup_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    setup_database(args.db)

    import datetime as dt

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from clubs.models import ClubSession

    versions, club, user, members = bench_club("ABCDEFGHIJKLMNOP")

    def session_on(day):
        return ClubSession.objects.create(club=club, date=dt.date(2026, 11, day),
                                          house_rule_version=versions["bmja"])

    start = time.perf_counter()
    tables_night = session_on(24)
    short = build_night(24, 1, tables_night, members[:4], user)
    long = build_night(100, 2, tables_night, members[4:8], user)
    night = session_on(25)
    for number in range(1, 5):
        build_night(24, number, night, members[4 * (number - 1):4 * number], user)
    print(f"recorded {24 + 100 + 96} hands in {time.perf_counter() - start:.1f} s ({args.db})")

    def table_url(table, fmt):
        if fmt == "html":
            return reverse("sheets:table", args=[club.slug, tables_night.pk, table.pk])
        return reverse("sheets:table-download",
                       args=[club.slug, tables_night.pk, table.pk, fmt])

    def night_url(fmt):
        if fmt == "html":
            return reverse("sheets:session", args=[club.slug, night.pk])
        return reverse("sheets:session-download", args=[club.slug, night.pk, fmt])

    urls = {}
    for fmt in ("html", "pdf"):
        urls[("24-hand table", fmt)] = table_url(short, fmt)
        urls[("100-hand table", fmt)] = table_url(long, fmt)
        urls[("4-table 96-hand night", fmt)] = night_url(fmt)

    client = Client()
    client.force_login(user)

    def fetch(url) -> int:
        response = client.get(url, secure=True)
        assert response.status_code == 200, url
        body = (b"".join(response.streaming_content) if response.streaming
                else response.content)
        return len(body)

    for url in urls.values():  # warm up
        fetch(url)
    times = {key: [] for key in urls}
    for _ in range(args.repeats):
        for key, url in urls.items():
            began = time.perf_counter()
            fetch(url)
            times[key].append(time.perf_counter() - began)
    print(f"{'what':<34}{'median ms':>10}{'queries':>9}{'bytes':>10}")
    medians = {}
    for key, url in urls.items():
        with CaptureQueriesContext(connection) as seen:
            size = fetch(url)
        medians[key] = statistics.median(times[key]) * 1000
        print(f"{f'{key[0]}, {key[1]}':<34}{medians[key]:>10.1f}"
              f"{len(seen.captured_queries):>9}{size:>10}")
    for fmt in ("html", "pdf"):
        ratio = medians[("100-hand table", fmt)] / medians[("24-hand table", fmt)]
        print(f"{fmt}: 100-hand table / 24-hand table = {ratio:.2f} (target: at most 3)")


if __name__ == "__main__":
    main()
