"""League standings and exports against their yardsticks, side by side in one run (issue #17).

    flock /tmp/bench.lock .venv/bin/python bench/league_build.py     # once: the 1M-hand club
    flock /tmp/bench.lock .venv/bin/python bench/bench_league.py [--repeats 7]

In the database of 1,000,000 hands that league_build.py makes, measured alternately (the
median of the repeats; each side warmed once first):
- a 20,000-hand season's standings, the API's JSON (in-process request, league rules of the
  net preset), against the same aggregate the standings make, in bare SQL over the same rows
  they read. Since issue #27 the standings are stored (``league_standing``: one row a player, 40
  for the season) and the yardstick reads those rows in bare SQL (at most 2x). Printed too:
  the aggregate over the per-night summary (``league_nightresult``, 4,000 rows for the season)
  the answer made before, and which a filtered answer still makes; the same aggregate with
  the members' names and the season's count of nights, which the answer shows and the bare
  sums leave out; the stored rows read and ranked in bare SQL (RANK over the net preset's
  tie-breaks: the read and the ranking, none of the request's other work); and the first
  yardstick, the sum of the 80,000 hand results, a bigger job than the standings ever did;
- the club's all-time standings over the 1M hands against the same yardsticks over the club
  (40 stored rows; 160,000 summary rows; 4,000,000 hand results);
- the season's every-hand-result CSV (the API's stream, read to the end) against PostgreSQL's
  ``COPY (the same query) TO STDOUT`` (at most 2x), and the stream's peak Python memory for a
  season and for a quarter of one (constant memory);
- the standings page's query count for a season, a quarter of it, and all time (constant);
- what the framework alone costs: the same request to a DRF view that reads nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A benchmark makes many requests a minute: the API's throttles (issue #13) would refuse them.
os.environ.setdefault("API_THROTTLE", "0")

BARE_SEASON = "SELECT member_id, sum(net) FROM clubs_handresult WHERE season_id = %s GROUP BY member_id"
BARE_CLUB = "SELECT member_id, sum(net) FROM clubs_handresult WHERE club_id = %s GROUP BY member_id"
# What league.queries.standings asks of the summary, written out: the same rows, the same sums.
SUMMARY = """SELECT member_id, guest_name, count(DISTINCT session_id), sum(hands), sum(net),
  sum(mahjongs), sum(given), sum(points_zero), sum(points_half), sum(place), count(*)
  FROM league_nightresult WHERE counted AND {column} = %s GROUP BY member_id, guest_name"""
SUMMARY_SEASON = SUMMARY.format(column="season_id")
SUMMARY_CLUB = SUMMARY.format(column="club_id")
# What league.queries.stored_standings reads since the standings are stored (issue #27): each
# player's row with their name and the scope's count of nights, the same columns.
STORED = """SELECT s.member_id, s.guest_name, m.display_name, s.nights, s.hands, s.net,
  s.mahjongs, s.given, s.points_zero, s.points_half, s.place_sum, s.tables, sc.nights
  FROM league_standing s JOIN league_standingscope sc ON sc.id = s.scope_id
  LEFT JOIN clubs_member m ON m.id = s.member_id WHERE {where}"""
STORED_SEASON = STORED.format(where="sc.season_id = %s")
STORED_CLUB = STORED.format(where="sc.club_id = %s AND sc.season_id IS NULL")
# The summary's sums (SUMMARY) are not all the answer shows: it names each member and states
# the season's count of nights (what the filtered answer reads besides the sums, the names
# with them and the nights in a query of its own). The same aggregate with both, one
# statement: the yardstick that does the answer's work over the summary.
SUMMARY_NAMED = """SELECT n.member_id, n.guest_name, m.display_name,
  count(DISTINCT n.session_id), sum(n.hands), sum(n.net), sum(n.mahjongs), sum(n.given),
  sum(n.points_zero), sum(n.points_half), sum(n.place), count(*),
  (SELECT count(DISTINCT session_id) FROM league_nightresult
   WHERE counted AND {column} = %(id)s)
  FROM league_nightresult n LEFT JOIN clubs_member m ON m.id = n.member_id
  WHERE n.counted AND n.{column} = %(id)s
  GROUP BY n.member_id, n.guest_name, m.display_name"""
SUMMARY_NAMED_SEASON = SUMMARY_NAMED.format(column="season_id")
SUMMARY_NAMED_CLUB = SUMMARY_NAMED.format(column="club_id")
# The stored rows read and ranked in bare SQL as the answer ranks them under the net preset
# (the bench's seasons have no league rules of their own, so the net preset, as all time):
# members by net, then table points, Mah Jongs, fewest given away, then the name, level ones
# sharing a place (RANK); guests after them, unranked; each row's table points, average and
# average place as the answer rounds them. The answer's other work (the season, its rules,
# who may see it, the JSON) is not in it: the stored read with the ranking, no more.
RANKED = """SELECT s.member_id, coalesce(m.display_name, s.guest_name) AS name, s.nights,
  s.hands, s.mahjongs, s.given, s.net, round(s.points_zero::numeric, 6) AS points,
  CASE WHEN s.nights > 0 THEN round(s.net::numeric / s.nights, 6) ELSE 0 END,
  CASE WHEN s.tables > 0 THEN round(s.place_sum::numeric / s.tables, 6) ELSE 0 END,
  CASE WHEN s.member_id IS NOT NULL THEN rank() OVER level END AS place,
  s.member_id IS NOT NULL AND count(*) OVER (PARTITION BY s.member_id IS NULL, s.net,
    round(s.points_zero::numeric, 6), s.mahjongs, s.given) > 1 AS shared, sc.nights
  FROM league_standing s JOIN league_standingscope sc ON sc.id = s.scope_id
  LEFT JOIN clubs_member m ON m.id = s.member_id WHERE {where}
  WINDOW level AS (PARTITION BY s.member_id IS NULL ORDER BY s.net DESC,
    round(s.points_zero::numeric, 6) DESC, s.mahjongs DESC, s.given)
  ORDER BY s.member_id IS NULL, s.net DESC, points DESC, s.mahjongs DESC, s.given, name"""
RANKED_SEASON = RANKED.format(where="sc.season_id = %s")
RANKED_CLUB = RANKED.format(where="sc.club_id = %s AND sc.season_id IS NULL")
COPY = """COPY (
  SELECT ss.date, t.number, h.number, coalesce(m.display_name, s.guest_name), r.member_id,
         r.seat_wind, r.score, r.net, r.running_total, r.won::int, r.gave::int, r."limit"
  FROM clubs_handresult r JOIN clubs_clubsession ss ON ss.id = r.session_id
  JOIN clubs_seat s ON s.id = r.seat_id JOIN clubs_table t ON t.id = s.table_id
  JOIN clubs_hand h ON h.id = r.hand_id LEFT JOIN clubs_member m ON m.id = s.member_id
  WHERE r.season_id = {season}
  ORDER BY ss.date, t.number, h.number, s.position
) TO STDOUT WITH (FORMAT csv, HEADER)"""


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000


def side_by_side(name, ours, yardstick, repeats, limit):
    ours(), yardstick()  # warm both (plans, caches)
    a, b = [], []
    for i in range(repeats):
        pair = ((a, ours), (b, yardstick)) if i % 2 == 0 else ((b, yardstick), (a, ours))
        for into, fn in pair:
            into.append(timed(fn))
    ma, mb = statistics.median(a), statistics.median(b)
    verdict = "ok" if ma <= limit * mb else "OVER"
    print(f"{name:<52} {ma:8.1f} ms vs {mb:8.1f} ms  = {ma / mb:4.2f}x (limit {limit}x) {verdict}")
    return ma / mb


def framework_alone() -> str:
    """A DRF view that reads nothing and answers ``{}``, routed beside the project's URLs (the
    same middleware, routing and renderer as the standings): its path."""
    import types

    from django.conf import settings
    from django.urls import clear_url_caches, include, path
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class Empty(APIView):
        permission_classes = [AllowAny]

        def get(self, request):
            return Response({})

    urls = types.ModuleType("bench_league_urls")
    urls.urlpatterns = [path("bench/empty/", Empty.as_view()),  # type: ignore[attr-defined]
                        path("", include(settings.ROOT_URLCONF))]
    sys.modules[urls.__name__] = urls
    settings.ROOT_URLCONF = urls.__name__
    clear_url_caches()
    return "/bench/empty/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="mahjong_league_bench")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from clubs.models import Club, HandResult, Season

    club = Club.objects.get(slug="bench")
    seasons = list(Season.objects.filter(club=club).order_by("start"))
    season = seasons[len(seasons) // 2]
    hands = HandResult.objects.filter(season=season).values("hand_id").distinct().count()
    total = HandResult.objects.filter(club=club).values("hand_id").distinct().count()
    print(f"club 'bench': {total:,} hands; season {season.name!r}: {hands:,} hands")
    user, _ = get_user_model().objects.get_or_create(
        username="bench-admin", defaults={"is_superuser": True, "is_staff": True})
    api = APIClient()
    api.force_authenticate(user)

    def bare(sql, arg):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, [arg])
                return dict(cursor.fetchall())
        return run

    def summary(sql, arg):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, [arg])
                return {(row[0], row[1]): row[4] for row in cursor.fetchall()}
        return run

    def stored(sql, arg):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, [arg])
                return {(row[0], row[1]): row[5] for row in cursor.fetchall()}
        return run

    def named(sql, arg):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, {"id": arg})
                return {(row[0], row[1]): row[5] for row in cursor.fetchall()}
        return run

    def ranked(sql, arg):
        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, [arg])
                return [(row[0], row[10], row[11]) for row in cursor.fetchall()]
        return run

    def get_json(path, query=None):
        def run():
            answer = api.get(path, query or {})
            assert answer.status_code == 200, answer.content[:300]
            return answer.json()
        return run

    season_path = f"/api/v1/seasons/{season.pk}/standings/"
    empty_path = framework_alone()
    club_path = f"/api/v1/clubs/{club.slug}/standings/"
    # The standings' nets are the bare SQL's sums, member by member.
    for path, sql, arg in ((season_path, BARE_SEASON, season.pk), (club_path, BARE_CLUB, club.pk)):
        nets = {r["member_id"]: r["net"] for r in get_json(path)()["rows"]}
        assert nets == bare(sql, arg)(), path
    for sql, arg in ((SUMMARY_SEASON, season.pk), (SUMMARY_CLUB, club.pk)):
        assert {m: net for (m, _), net in summary(sql, arg)().items()} == bare(
            BARE_SEASON if "season" in sql else BARE_CLUB, arg)()
    for sql, arg in ((STORED_SEASON, season.pk), (STORED_CLUB, club.pk)):
        assert stored(sql, arg)() == summary(
            SUMMARY_SEASON if "season_id =" in sql else SUMMARY_CLUB, arg)()

    for sql, arg in ((SUMMARY_NAMED_SEASON, season.pk), (SUMMARY_NAMED_CLUB, club.pk)):
        assert named(sql, arg)() == summary(
            SUMMARY_SEASON if "season_id =" in sql else SUMMARY_CLUB, arg)()
    # The bare ranking is the answer's: the same players in the same order, the same places.
    for path, sql, arg in ((season_path, RANKED_SEASON, season.pk),
                           (club_path, RANKED_CLUB, club.pk)):
        rows = get_json(path)()["rows"]
        assert [(r["member_id"], r["place"], r["shared"]) for r in rows] == ranked(sql, arg)()

    csv_path = f"/api/v1/seasons/{season.pk}/hand-results/"

    def stream(query=None):
        def run():
            answer = api.get(csv_path, {"format": "csv", **(query or {})})
            return sum(len(chunk) for chunk in answer.streaming_content)
        return run

    def copy():
        raw = connection.connection
        size = 0
        with raw.cursor() as cursor, cursor.copy(COPY.format(season=int(season.pk))) as out:
            for data in out:
                size += len(data)
        return size

    connection.ensure_connection()
    ours_size, copy_size = stream()(), copy()
    print(f"hand results CSV: {ours_size:,} bytes streamed; COPY {copy_size:,} bytes")
    print()
    # The yardstick is what the answer reads: the stored rows (issue #27). With a filter the
    # standings still sum the nights the filter keeps: measured against that aggregate.
    side_by_side("season standings vs reading its stored rows", get_json(season_path),
                 stored(STORED_SEASON, season.pk), args.repeats, 2)
    side_by_side("all-time standings vs reading its stored rows", get_json(club_path),
                 stored(STORED_CLUB, club.pk), args.repeats, 2)
    # The honest yardstick of a stored answer: the same rows read and ranked in bare SQL.
    side_by_side("season standings vs its stored rows read and ranked", get_json(season_path),
                 ranked(RANKED_SEASON, season.pk), args.repeats, 2)
    side_by_side("all-time vs its stored rows read and ranked", get_json(club_path),
                 ranked(RANKED_CLUB, club.pk), args.repeats, 2)
    # What the framework costs around any answer: the same in-process request to a DRF view
    # that reads nothing and answers {}. Against the stored read it shows how far below the
    # 2x floor a request through Django and DRF can go at all.
    side_by_side("(framework) an empty DRF answer vs reading stored rows", get_json(empty_path),
                 stored(STORED_SEASON, season.pk), args.repeats, 2)
    side_by_side("season standings vs an empty DRF answer", get_json(season_path),
                 get_json(empty_path), args.repeats, 2)
    side_by_side("(before) season vs its aggregate over the summary", get_json(season_path),
                 summary(SUMMARY_SEASON, season.pk), args.repeats, 2)
    side_by_side("(before) all-time vs its aggregate, summary", get_json(club_path),
                 summary(SUMMARY_CLUB, club.pk), args.repeats, 2)
    side_by_side("season vs the summary aggregate with names, nights",
                 get_json(season_path), named(SUMMARY_NAMED_SEASON, season.pk),
                 args.repeats, 2)
    every = {"start": "1900-01-01"}  # a filter that keeps every night: the summing path
    side_by_side("season, filtered, vs its aggregate over the summary",
                 get_json(season_path, every), summary(SUMMARY_SEASON, season.pk),
                 args.repeats, 2)
    # The filtered answer names each member and states the count of the nights kept: the
    # same aggregate with both is the yardstick that does its work (the bare sums above do
    # less).
    side_by_side("season, filtered, vs the summary aggregate with names, nights",
                 get_json(season_path, every), named(SUMMARY_NAMED_SEASON, season.pk),
                 args.repeats, 2)
    side_by_side("(old yardstick) season vs SUM over hand results", get_json(season_path),
                 bare(BARE_SEASON, season.pk), args.repeats, 3)
    side_by_side("(old yardstick) all-time vs SUM over hand results", get_json(club_path),
                 bare(BARE_CLUB, club.pk), args.repeats, 2)
    side_by_side("season hand results, CSV stream vs COPY", stream(), copy, args.repeats, 2)

    quarter = {"as_of": (season.start.toordinal() and
                         season.start.fromordinal(season.start.toordinal() + 49)).isoformat()}
    peaks = {}
    for label, query in (("a season", None), ("a quarter season", quarter)):
        tracemalloc.start()
        size = stream(query)()
        peaks[label] = (tracemalloc.get_traced_memory()[1], size)
        tracemalloc.stop()
    for label, (peak, size) in peaks.items():
        print(f"CSV of {label:<17}: {size:>10,} bytes, peak Python memory {peak / 1024:7.0f} KiB")

    page = Client()
    page.force_login(user)
    counts = {}
    for label, path, query in (
        ("a season", f"/clubs/bench/league/{season.pk}/", {}),
        ("a quarter season", f"/clubs/bench/league/{season.pk}/", quarter),
        ("all time", "/clubs/bench/league/all-time/", {}),
    ):
        page.get(path, query)
        with CaptureQueriesContext(connection) as ctx:
            assert page.get(path, query).status_code == 200
        counts[label] = len(ctx)
    print("standings page queries: " + ", ".join(f"{k} {v}" for k, v in counts.items()))

    # The player page of the season (issue #27: its best hand read every result of the season
    # and scanned every club's nights, so it slowed as the database grew): its time, and the
    # plan of its best-hand query, which should read the result_best_hand index.
    from clubs.models import Member
    from league.queries import player_hands

    member = Member.objects.filter(club=club).order_by("pk").first()
    player = f"/clubs/bench/league/{season.pk}/players/{member.pk}/"
    page.get(player)
    times = []
    for _ in range(args.repeats):
        times.append(timed(lambda: page.get(player)))
    best = (player_hands(member, season).filter(won=True).select_related("hand", "session")
            .order_by("-score", "session__date")[:1])
    sql, params = best.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = " / ".join(row[0].strip() for row in cursor.fetchall()[:4])
    print(f"player page: {statistics.median(times):.1f} ms (median of {args.repeats}); "
          f"best hand's plan: {plan}")

    # The admin's busiest lists over the million hands (issue #27: 57 queries, 2-2.9 s).
    for path in ("/admin/clubs/hand/", "/admin/clubs/handresult/",
                 f"/admin/clubs/handresult/?club={club.pk}&season={season.pk}"):
        assert page.get(path).status_code == 200, path
        with CaptureQueriesContext(connection) as ctx:
            page.get(path)
        times = [timed(lambda path=path: page.get(path)) for _ in range(args.repeats)]
        print(f"admin {path}: {statistics.median(times):.1f} ms, {len(ctx)} queries")


if __name__ == "__main__":
    main()
