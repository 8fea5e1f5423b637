"""The club rating on a 1M-hand club (issue #26), side by side with reading the same stored
results in SQL, in one run.

    flock /tmp/bench.lock .venv/bin/python bench/league_build.py --db mahjong_history_bench
    flock /tmp/bench.lock .venv/bin/python bench/bench_rating.py [--db ...] [--repeats 5]
    flock /tmp/bench.lock .venv/bin/python bench/bench_rating.py --sqlite /tmp/rating.sqlite3

``--sqlite PATH`` runs the same on SQLite: the file is made once from the PostgreSQL build
(migrated, then the club, its members, seasons, tables and the league summary copied over).

In the database league_build.py makes (40 members, 10,000 nights, 40,000 tables, 1,000,000
hands; 160,000 rows of the league's per-night summary), measured alternately, the median of
the repeats, each side warmed once:
- the ratings rebuilt from scratch (``history.rating_store.recompute(club, None)``: read every
  table-night, rate them, delete and write 160,000 lines) against reading the same stored
  results in SQL (``SELECT table_id, date, member_id, guest_name, net FROM
  league_nightresult WHERE club_id = %s AND counted``, every row fetched);
- one night's update (the last night marked out of date and ``ensure_fresh`` run: read that
  night and each member's standing before it, rate, rewrite its 16 lines) against reading
  that night's stored results in SQL;
- where the rebuild's time goes (reading, rating in Python, writing), once;
- the lines' writer: the raw writer (``raw_writer`` below: COPY on PostgreSQL, one prepared
  INSERT run over the rows on SQLite; the service's until 26 Nov 2026) against Django's
  ``bulk_create`` (``orm_writer`` below, as ``rating_store._insert`` now writes them),
  first the writer alone at a few batch sizes, then the whole rebuild with each writer side by
  side, alternating, with the best batch size (``--batch``);
- the same two writers at a club's scale: a correction 1,000 nights back (16,000 lines read,
  rated and rewritten: a real club's whole history, twenty years of weekly four-table nights)
  and 200 nights back (3,200 lines: a season), ``recompute(club, that night)`` side by side.
  ``--club-scale-only`` runs this part alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BARE = ("SELECT table_id, date, member_id, guest_name, net FROM league_nightresult "
        "WHERE club_id = %s AND counted")
BARE_NIGHT = BARE + " AND date >= %s"


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def side_by_side(name, ours, yardstick, repeats):
    ours(), yardstick()
    a, b = [], []
    for i in range(repeats):
        pair = ((a, ours), (b, yardstick)) if i % 2 == 0 else ((b, yardstick), (a, ours))
        for into, fn in pair:
            into.append(timed(fn))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name:<46} {ma:9.1f} ms vs {mb:8.1f} ms  = {ma / mb:5.1f}x")
    return ma, mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="mahjong_history_bench")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sqlite", help="run on this SQLite file (made from --db if missing)")
    parser.add_argument("--batch", type=int, help="bulk_create's batch size in the rebuilds "
                        "(default 2,000 on PostgreSQL, 500 on SQLite)")
    parser.add_argument("--skip-alone", action="store_true",
                        help="leave out the writers alone at each batch size (the longest part)")
    parser.add_argument("--club-scale-only", action="store_true",
                        help="only the two writers at a club's scale (1,000 and 200 nights)")
    args = parser.parse_args()
    postgres = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    if args.sqlite and not Path(args.sqlite).exists():
        build_sqlite(postgres, Path(args.sqlite))
    os.environ["DATABASE_URL"] = (f"sqlite:///{Path(args.sqlite).resolve()}" if args.sqlite
                                  else postgres)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from clubs.models import Club
    from history import rating_store
    from history.models import RatingLine, RatingSettings
    from history.rating import rate

    call_command("migrate", verbosity=0)  # the history app's tables, if the build predates them
    club = Club.objects.order_by("pk").first()
    settings, _ = RatingSettings.objects.get_or_create(club=club, defaults={"enabled": True})
    settings.enabled, settings.stale_from = True, None
    settings.save()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; "
          f"{connection.vendor}; club {club.pk}")

    def bare(sql, params):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                cursor.fetchall()
        return run

    if args.club_scale_only:
        club_scale(club, settings, args.batch, args.repeats)
        return
    side_by_side("ratings rebuilt from scratch vs SQL read",
                 lambda: rating_store.recompute(club, None, settings),
                 bare(BARE, [club.pk]), args.repeats)
    lines = RatingLine.objects.filter(club=club).count()
    last = RatingLine.objects.filter(club=club).order_by("-date").values_list("date", flat=True)[0]

    def one_night():
        rating_store.mark_stale(club.pk, last)
        rating_store.ensure_fresh(club)

    side_by_side("one night's update vs SQL read of that night", one_night,
                 bare(BARE_NIGHT, [club.pk, last]), args.repeats)
    # Where the rebuild's time goes.
    t0 = time.perf_counter()
    nights = rating_store.nights_from(club.pk, None)
    t1 = time.perf_counter()
    ratings = rate(nights, rating_store.params_of(settings))
    t2 = time.perf_counter()
    rating_store.recompute(club, None, settings)
    t3 = time.perf_counter()
    print(f"rebuild: {len(nights)} table-nights, {lines} lines; read {1000 * (t1 - t0):.0f} ms, "
          f"rate {1000 * (t2 - t1):.0f} ms, whole rebuild {1000 * (t3 - t2):.0f} ms "
          f"(so writing about {1000 * ((t3 - t2) - (t2 - t0)):.0f} ms)")
    assert len(ratings.lines) == lines
    writers(club, settings, ratings.lines, args.repeats, args.batch, args.skip_alone)
    club_scale(club, settings, args.batch, args.repeats)


COLUMNS = ("club_id", "member_id", "table_id", "date", "season_id", "seq", "players", "beaten",
           "actual", "others_mean", "old", "par", "weight", "new", "provisional")


def raw_writer(club_id: int, lines, batch: int = 5000) -> None:
    """The yardstick: the lines written by COPY on PostgreSQL, or one prepared INSERT run
    over the rows on SQLite (the service's writer until 26 Nov 2026)."""
    from django.db import connection

    from history.models import RatingLine

    table = RatingLine._meta.db_table
    rows = [(club_id, ln.member, ln.table, ln.date, ln.season, ln.seq, ln.players, ln.beaten,
             ln.actual, ln.others_mean, ln.old, ln.par, ln.weight, ln.new, ln.provisional)
            for ln in lines]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({', '.join(COLUMNS)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        sql = (f"INSERT INTO {table} ({', '.join(COLUMNS)}) "  # noqa: S608  fixed names
               f"VALUES ({', '.join(['%s'] * len(COLUMNS))})")
        for start in range(0, len(rows), batch):
            cursor.executemany(sql, rows[start:start + batch])


def orm_writer(club_id: int, lines, batch: int = 2000) -> None:
    """The candidate: the lines written by Django's ``bulk_create``."""
    from history.models import RatingLine

    RatingLine.objects.bulk_create(
        [RatingLine(club_id=club_id, member_id=ln.member, table_id=ln.table, date=ln.date,
                    season_id=ln.season, seq=ln.seq, players=ln.players, beaten=ln.beaten,
                    actual=ln.actual, others_mean=ln.others_mean, old=ln.old, par=ln.par,
                    weight=ln.weight, new=ln.new, provisional=ln.provisional)
         for ln in lines], batch_size=batch)


def with_writer(club, settings, writer, start):
    """``recompute(club, start)`` with ``writer`` in place of ``rating_store._insert``."""
    from history import rating_store

    service = rating_store._insert

    def run():
        rating_store._insert = writer
        try:
            rating_store.recompute(club, start, settings)
        finally:
            rating_store._insert = service
    return run


def club_scale(club, settings, batch, repeats, backs=(1000, 200)) -> None:
    """The writers where a club meets them: a correction 1,000 nights back (16,000 lines, a
    real club's whole history) and 200 back (3,200 lines, a season)."""
    from django.db import connection

    from history.models import RatingLine

    batch = batch or (2000 if connection.vendor == "postgresql" else 500)
    dates = list(RatingLine.objects.filter(club=club).order_by("-date")
                 .values_list("date", flat=True).distinct()[:1000])

    def orm(club_id, rows):
        orm_writer(club_id, rows, batch=batch)

    for back in backs:
        start = dates[back - 1]
        written = RatingLine.objects.filter(club=club, date__gte=start).count()
        side_by_side(f"{back} nights ({written} lines): bulk_create({batch}) vs raw",
                     with_writer(club, settings, orm, start),
                     with_writer(club, settings, raw_writer, start), repeats)


def writers(club, settings, lines, repeats, batch=None, skip_alone=False) -> None:
    """COPY / the prepared INSERT against bulk_create: the writer alone, then the rebuild."""
    from django.db import connection, transaction

    from history import rating_store
    from history.models import RatingLine

    raw = raw_writer
    service = rating_store._insert

    def write_alone(writer):
        def run():
            with transaction.atomic():
                RatingLine.objects.filter(club=club).delete()
                writer(club.pk, lines)
        return run

    sizes = (66, 500, 2000) if connection.vendor == "sqlite" else (500, 2000, 5000, 20000)
    alone = {}
    if batch and batch not in sizes:
        sizes = (*sizes, batch)
    for size in sizes:
        if skip_alone and size != (batch or size):
            continue
        def orm(club_id, rows, size=size):
            orm_writer(club_id, rows, batch=size)
        alone[size] = orm
        side_by_side(f"write {len(lines)} lines: bulk_create({size}) vs raw", write_alone(orm),
                     write_alone(raw), max(1, repeats // 2))

    def rebuild_with(writer):
        def run():
            rating_store._insert = writer
            try:
                rating_store.recompute(club, None, settings)
            finally:
                rating_store._insert = service
        return run

    best = batch or (2000 if connection.vendor == "postgresql" else 500)
    side_by_side(f"rebuild: bulk_create({best}) vs raw writer", rebuild_with(alone[best]),
                 rebuild_with(raw), repeats)


def build_sqlite(postgres: str, path: Path) -> None:
    """A SQLite file with the PostgreSQL build's club, as far as the rating reads and writes
    it: migrated by Django, then the rows copied table by table (foreign keys are not checked
    while loading; sessions, hands and hand results are not needed and not copied)."""
    import datetime as dt
    import json
    import sqlite3
    import subprocess

    import psycopg

    t0 = time.perf_counter()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path.resolve()}"}
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "-v", "0"], env=env,
                   check=True)

    def value(v):
        if isinstance(v, dict | list):
            return json.dumps(v)
        if isinstance(v, dt.datetime):
            return v.isoformat(sep=" ")
        if isinstance(v, dt.date):
            return v.isoformat()
        return v

    lite = sqlite3.connect(path)
    with psycopg.connect(postgres) as pg:
        for table in ("clubs_club", "clubs_member", "clubs_season", "clubs_table",
                      "league_nightresult"):
            cur = pg.cursor()
            cur.execute(f"SELECT * FROM {table}")  # noqa: S608  fixed names above
            columns = [c.name for c in cur.description]
            quoted = ", ".join(f'"{c}"' for c in columns)  # "end" is a keyword
            sql = (f"INSERT INTO {table} ({quoted}) "  # noqa: S608
                   f"VALUES ({', '.join('?' * len(columns))})")
            while rows := cur.fetchmany(20000):
                lite.executemany(sql, [tuple(value(v) for v in row) for row in rows])
            lite.commit()
    lite.execute("ANALYZE")
    lite.close()
    print(f"made {path} from {postgres} in {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
