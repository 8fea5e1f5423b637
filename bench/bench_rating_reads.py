"""What a read of the club rating costs while a night is open, at 10 and at 1,000 nights of
history, side by side in one database.

    flock /tmp/bench.lock .venv/bin/python bench/bench_rating_reads.py [--db sqlite|postgres]
          [--repeats 15] [--nothing-new] [--readers 4]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL
``qa3_rating_reads``, or ``--pg-db``) and two clubs: each records tonight's night of two tables through the
recording service (``tests/growth/history.py``), left open, gets 9 or 999 earlier nights copied
before it, and turns the rating on (a whole rebuild, once). Then, the clubs in turn (the order
alternating each repeat): a hand is recorded at table 1 (a hand appended: it marks nothing),
and the rating is read as a member reads it, the page (``/clubs/<slug>/history/rating/``) and
the API (``/api/v1/clubs/<slug>/rating/``). Prints the median of each read at 10 and 1,000
nights, the ratio, the queries of each, and the same for ``rating_store.ensure_fresh`` alone
(the part of a read that may recompute) and, as the yardstick, a whole rebuild of the club's
lines (``rating_store.recompute(club, None)``: what a read would cost if it rebuilt all).

``--nothing-new``: no hand recorded before a read (the clubs' nights still open): a read that
finds tonight's results as they were at the last rebuild, beside each read made to rebuild
(the stored mark cleared first, untimed), which is what every read during an open night did
before ``ensure_fresh`` compared the mark (it then also pays the mark's two reads).
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
    from django.utils import timezone

    from clubs.models import Club, ClubSession, Member, Season, Table
    from history import rating_store
    from tests.growth.history import copy_nights, record_night

    club = Club.objects.create(name=f"Club {slug}", slug=slug)
    admin = get_user_model().objects.create_user(f"{slug}-admin")
    Member.objects.create(club=club, user=admin, display_name="Admin", role="admin")
    members = [Member.objects.create(club=club, display_name=f"Player {i}") for i in range(8)]
    today = timezone.localdate()
    season = Season.objects.create(club=club, name=f"{today.year}",
                                   start=dt.date(today.year, 1, 1),
                                   end=dt.date(today.year, 12, 31))
    session = ClubSession.objects.create(club=club, season=season, date=today,
                                         house_rule_version=version)  # open
    record_night(session, members, admin)
    copy_nights(session, nights - 1)
    rating_store.turn_on(club)
    table = Table.objects.get(session=session, number=1)
    return club, table, admin


def record_one(table, admin) -> None:
    from clubs.recording import record_hand

    seats = {w: {"score": 4 * (j + 1)} for j, w in enumerate("ESWN")}
    seats["E"] = {"score": 120}
    record_hand(table, {"winner": "E", "win_from": "wall", "seats": seats}, admin)


def readers_at_once(count: int, clubs) -> dict:
    """``count`` threads (each its own connection) calling ``ensure_fresh`` on one club at the
    same instant, as members reading the league on their phones: the time until the last is
    answered. Beside it the same with every reader made to rebuild (``_current`` answering
    False: each locks the settings row and rewrites tonight's lines in turn), as every read
    during an open night did before."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from history import rating_store

    pool = ThreadPoolExecutor(max_workers=count)  # the same threads, so the same connections

    def at_once(n, rebuild_each: bool):
        start = threading.Barrier(count)

        def one():
            start.wait()
            return rating_store.ensure_fresh(clubs[n][0])

        current = rating_store._current
        if rebuild_each:
            rating_store._current = lambda *args: False
        try:
            answers = [job.result() for job in [pool.submit(one) for _ in range(count)]]
        finally:
            rating_store._current = current
        assert all(a is not None for a in answers), answers

    return {
        f"{count} ensure_fresh at once (threads)": lambda n: at_once(n, False),
        f"{count} ensure_fresh at once, each rebuilding": lambda n: at_once(n, True),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--pg-db", default="qa3_rating_reads",
                        help="the PostgreSQL database made afresh (dropped first)")
    parser.add_argument("--readers", type=int, default=0,
                        help="also time this many ensure_fresh at once on one club (threads), "
                        "beside the same with each made to rebuild")
    parser.add_argument("--long", type=int, default=1000, help="the long club's nights")
    parser.add_argument("--nothing-new", action="store_true",
                        help="read with no hand recorded since the last read, beside the same "
                        "read made to rebuild (what every read during an open night did before)")
    args = parser.parse_args()
    fresh_database(args.db, args.pg_db, "bench-rating-reads-")
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from history import rating_store
    from houserules.sync import ensure_builtin_house_rules

    version = ensure_builtin_house_rules()["bmja"]
    began = time.perf_counter()
    sizes = (10, args.long)
    clubs = {n: make_club(f"r{n}", n, version) for n in sizes}
    print(f"two clubs, {', '.join(f'{n:,}' for n in sizes)} nights (tonight's open), made in "
          f"{time.perf_counter() - began:.0f} s ({args.db})")
    clients = {}
    for n, (_club, _table, admin) in clubs.items():
        clients[n] = Client()
        clients[n].force_login(admin)

    reads = {
        "page /clubs/<slug>/history/rating/":
            lambda n: clients[n].get(f"/clubs/{clubs[n][0].slug}/history/rating/", secure=True),
        "API /api/v1/clubs/<slug>/rating/":
            lambda n: clients[n].get(f"/api/v1/clubs/{clubs[n][0].slug}/rating/", secure=True),
        "rating_store.ensure_fresh(club) alone":
            lambda n: rating_store.ensure_fresh(clubs[n][0]),
        # The yardstick: what a read would cost if it rebuilt the whole history.
        "a whole rebuild (recompute(club, None))":
            lambda n: rating_store.recompute(clubs[n][0], None),
    }
    if args.nothing_new:
        from history.models import RatingSettings

        def rebuilt(read):
            # The rating made to rebuild on this read, as every read during an open night did
            # before the stored mark (live_seen) let a read with nothing new skip it.
            def prepare(n):
                RatingSettings.objects.filter(club=clubs[n][0]).update(live_seen="")
            return prepare, read

        yardstick = reads.pop("a whole rebuild (recompute(club, None))")
        for name in list(reads):
            reads[f"{name}, made to rebuild"] = rebuilt(reads[name])
        reads["a whole rebuild (recompute(club, None))"] = yardstick
    if args.readers:
        reads.update(readers_at_once(args.readers, clubs))
    reads = {name: read if isinstance(read, tuple) else (None, read)
             for name, read in reads.items()}
    for n in sizes:  # warm up
        for _prepare, read in reads.values():
            read(n)
    times: dict[tuple[str, int], list[float]] = {}
    queries: dict[tuple[str, int], int] = {}
    for repeat in range(args.repeats):
        for name, (prepare, read) in reads.items():
            for n in sizes if repeat % 2 == 0 else sizes[::-1]:
                if not args.nothing_new:
                    record_one(clubs[n][1], clubs[n][2])  # a hand appended tonight
                elif prepare is None:
                    read(n)  # whatever the row before left to do: nothing new for the timed read
                else:
                    prepare(n)
                t0 = time.perf_counter()
                if repeat == 0:
                    with CaptureQueriesContext(connection) as seen:
                        answer = read(n)
                    queries[(name, n)] = len(seen)
                else:
                    answer = read(n)
                times.setdefault((name, n), []).append((time.perf_counter() - t0) * 1000)
                code = getattr(answer, "status_code", 200)
                assert code == 200, (name, n, code)
    short, long = sizes
    title = "read, nothing new (open night)" if args.nothing_new else \
        "read, after a hand recorded (open night)"
    print(f"{title:<56}{short:>9,}{long:>9,}{'ratio':>7}"
          f"{'queries':>9}")
    for name in reads:
        a = statistics.median(times[(name, short)])
        b = statistics.median(times[(name, long)])
        q = f"{queries[(name, short)]}/{queries[(name, long)]}"
        print(f"{name:<56}{a:9.1f}{b:9.1f}{b / a:7.2f}{q:>9}")
    print(f"medians of {args.repeats} (ms); load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
