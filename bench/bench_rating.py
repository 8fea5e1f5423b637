"""The club rating on a 1M-hand club (issue #26), side by side with reading the same stored
results in SQL, in one run.

    flock /tmp/bench.lock .venv/bin/python bench/league_build.py --db mahjong_history_bench
    flock /tmp/bench.lock .venv/bin/python bench/bench_rating.py [--db ...] [--repeats 5]

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
- where the rebuild's time goes (reading, rating in Python, writing), once.
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
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.db}"
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


if __name__ == "__main__":
    main()
