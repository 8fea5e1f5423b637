"""Build the 1M-hand club for the league benchmarks (issue #17), with bulk SQL on PostgreSQL.

    flock /tmp/bench.lock .venv/bin/python bench/league_build.py [--db mahjong_league_bench]

Drops and re-creates the database, migrates it, then writes one club of 40 members in 50
seasons of 200 nights (four tables of 25 hands a night): 10,000 nights, 40,000 tables,
1,000,000 hands, 4,000,000 hand results (winner +3s, the others -s; one hand in 15 a wall
game; half the wins on a discard), their running totals, and the league's per-night summary
worked out in SQL as ``league.summary`` does (places by net, ties sharing the table points),
by ``bench/bulk_league.py``. Every season holds 20,000 hands. Foreign-key triggers are off
while loading (session_replication_role) and the tables analysed afterwards. About two
minutes here.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bulk_league import Shape, build  # noqa: E402
from bench.database import django_on, fresh_postgres  # noqa: E402

MEMBERS, SEASONS, NIGHTS, TABLES, HANDS = 40, 50, 200, 4, 25


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="mahjong_league_bench")
    args = parser.parse_args()
    django_on(fresh_postgres(args.db))
    from django.core.management import call_command
    from django.db import connection

    from clubs.models import Club
    from houserules.sync import ensure_builtin_house_rules

    call_command("migrate", verbosity=0)
    version = ensure_builtin_house_rules()["bmja"]
    club = Club.objects.create(name="Bench Club", slug="bench", published=False)
    shape = Shape(clubs=1, members=MEMBERS, seasons=SEASONS, nights=NIGHTS, tables=TABLES,
                  hands=HANDS, start=dt.date(2000, 1, 1))
    started = time.perf_counter()
    build(shape, version.pk, first_club=club.pk, report=lambda name, rows, seconds: print(
        f"{name:>14}: {rows:>9,} rows in {seconds:5.1f} s", flush=True))
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
