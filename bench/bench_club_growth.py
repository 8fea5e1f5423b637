"""A club's pages after 10 nights against the same pages after 1,000 (issue #27's third floor:
the same queries, the time within 1.5x), side by side in one database.

    flock /tmp/bench.lock .venv/bin/python bench/bench_club_growth.py [--db sqlite|postgres]
          [--repeats 7]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL
``mahjong_club_growth``), and three clubs in it: each records one night of two tables through
the recording service (``tests/growth/history.py``: distinct winners' tiles and agreed scores),
then gets 9, 99 or 999 earlier nights, copied with ``bulk_create`` in seasons of fifty (the
stored standings rebuilt after, as ``refresh_league`` does after a bulk load).
Then every page and API answer of ``tests/growth/test_club_pages_growth.py`` (club, night,
table, hand, record, league, standings, player, all-time, what-if, sheets and their downloads,
the API's club, nights, tables, hands, members, seasons, standings and hand results) is asked
of the clubs in turn, the order alternating each repeat, as each club's admin. Prints the
median time of each at 10, 100 and 1,000 nights, the ratio of 1,000 to 10 (for the API's list
of nights, 1,000 to 100: its page of 100 is full from 100 nights on, so it is compared at the
same page length; a player's history, which shows their latest season, also 1,000 to 100, a
full season of fifty nights) and the queries of each; then a player's history over every
season, asked for (what it showed by default before: it reads every hand).
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
from bench.database import fresh_database  # noqa: E402


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
    fresh_database(args.db, "mahjong_club_growth", "bench-growth-")
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from houserules.sync import ensure_builtin_house_rules
    from tests.growth.test_club_pages_growth import api_answers, pages

    version = ensure_builtin_house_rules()["bmja"]
    began = time.perf_counter()
    long = args.long
    sizes = (10, 100, long)
    clubs = {n: make_club(f"c{n}", n, version) for n in sizes}
    print(f"three clubs, {', '.join(f'{n:,}' for n in sizes)} nights, made in "
          f"{time.perf_counter() - began:.0f} s ({args.db})")
    clients, urls = {}, {}
    for n, (club, session, admin) in clubs.items():
        clients[n] = Client()
        clients[n].force_login(admin)
        urls[n] = pages(club, session) + api_answers(club, session) + every_season(club)
    for n in clubs:  # warm up: each page once
        for url in urls[n]:
            assert clients[n].get(url, secure=True).status_code == 200, url
    times: dict[tuple[int, int], list[float]] = {}
    for repeat in range(args.repeats):
        for i in range(len(urls[10])):
            for n in sizes if repeat % 2 == 0 else sizes[::-1]:
                t0 = time.perf_counter()
                clients[n].get(urls[n][i], secure=True)
                times.setdefault((n, i), []).append((time.perf_counter() - t0) * 1000)
    # A list answer holds a page (100 by default): a club of 10 nights fills a tenth of it, so
    # its growth is read from 100 nights (a full page) to 1,000, at the same page length.
    paged = {i for i, url in enumerate(urls[10]) if "/api/v1/sessions/?" in url}
    # A player's history shows their latest season by default: a season of fifty nights is
    # full from 100 nights on (tests.growth.history), so it is also read from 100 to 1,000.
    seasonal = {i for i, url in enumerate(urls[10])
                if "/history/players/" in url or url.endswith("/history/")}
    # Every season of a player's history, asked for: what the default read before (it grows
    # with the history by what it is; left out of the median).
    asked = {i for i, url in enumerate(urls[10]) if url in every_season(clubs[10][0])}
    print(f"{'page or answer (of the 10-night club)':<58}{'10':>8}{'100':>8}{long:>8,}"
          f"{'ratio':>7}{'queries':>9}")
    ratios = []
    for i, url in enumerate(urls[10]):
        counts = []
        for n in sizes:
            with CaptureQueriesContext(connection) as seen:
                clients[n].get(urls[n][i], secure=True)
            counts.append(len(seen))
        a, mid, b = (statistics.median(times[(n, i)]) for n in sizes)
        base = mid if i in paged else a
        if i not in asked:
            ratios.append(b / base)
        query = "/".join(map(str, counts)) if len(set(counts)) > 1 else f"{counts[0]}"
        print(f"{url[:57]:<58}{a:8.1f}{mid:8.1f}{b:8.1f}{b / base:7.2f}{query:>9}"
              + ("  (ratio to 100: a full page)" if i in paged else "")
              + (f"  (to 100, a full season: {b / mid:.2f})" if i in seasonal else "")
              + ("  (every season, asked for: not in the median)" if i in asked else ""))
    print(f"ratios: median {statistics.median(ratios):.2f}, highest {max(ratios):.2f} "
          f"(floor: 1.5); load average {os.getloadavg()[0]:.1f}")
    standings_yardsticks(clubs[long], clients[long], args.repeats)


def every_season(club) -> list[str]:
    """A player's history over every season (page and API), as it was shown by default
    before issue #27's change: the yardstick of the default's cost."""
    from clubs.models import Member

    member = Member.objects.filter(club=club, display_name="Player 0").get()
    return [f"/clubs/{club.slug}/history/players/{member.pk}/?season=all",
            f"/api/v1/clubs/{club.slug}/members/{member.pk}/history/?all=true"]


def standings_yardsticks(made, client, repeats: int) -> None:
    """The long club's season and all-time standings (API) against reading the stored rows
    they read, in bare SQL, and against the aggregate over the per-night summary they made
    before (bench_league.py's yardsticks, on this database: SQLite too)."""
    sys.path.insert(0, str(REPO / "bench"))
    from bench_league import STORED_CLUB, STORED_SEASON, SUMMARY_CLUB, SUMMARY_SEASON
    from django.db import connection

    club, session, _ = made

    def sql(query, arg):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(query, [arg])
                return cursor.fetchall()
        return run

    def api(path):
        return lambda: client.get(path, secure=True).json()

    for label, path, arg, stored, summed in (
        ("season", f"/api/v1/seasons/{session.season_id}/standings/", session.season_id,
         STORED_SEASON, SUMMARY_SEASON),
        ("all time", f"/api/v1/clubs/{club.slug}/standings/", club.pk, STORED_CLUB,
         SUMMARY_CLUB),
    ):
        runs = {"api": api(path), "stored": sql(stored, arg), "summed": sql(summed, arg)}
        for fn in runs.values():
            fn()
        times: dict[str, list[float]] = {k: [] for k in runs}
        for repeat in range(repeats * 3):
            for name in (list(runs) if repeat % 2 == 0 else list(runs)[::-1]):
                t0 = time.perf_counter()
                runs[name]()
                times[name].append((time.perf_counter() - t0) * 1000)
        a, b, c = (statistics.median(times[k]) for k in runs)
        print(f"{label} standings (API) {a:.2f} ms: {a / b:.2f}x reading its stored rows "
              f"({b:.2f} ms), {a / c:.2f}x the aggregate over the summary ({c:.2f} ms)")


if __name__ == "__main__":
    main()
