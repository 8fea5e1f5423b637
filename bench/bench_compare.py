"""Rule comparisons (issue #16): a generated season replayed under 5 house rules.

    flock /tmp/bench.lock .venv/bin/python bench/bench_compare.py [--nights 200] [--db sqlite]

Makes a fresh database (an SQLite file in a temporary folder, or PostgreSQL
``mahjong_compare_bench``), loads the demo club and records a season of nights x 4 tables x 24
hands under bmja through the recording service, every hand distinct
(``bench/distinct_hands.py``: each winner's hand as tiles, wall games and the goulash after
them; issue #27: the season used to repeat the demo night's twelve hands, so the engine's memos
answered almost every replay). Then, side by side in one run:

1. replay rate: the comparison's own path for every table (load the rows, replay under each
   rule with ``play.replay``, build the table's part of the report) against the engines alone
   (``play.compute_hand`` on the same hands, already in memory, under the same rules), alternately
   (who goes first too), each from the engine's memos emptied; target: the replay costs at most
   2x;
2. background workers: the whole comparison queued and run by 1 and by 2 ``manage.py db_worker``
   processes, alternately, with each worker's peak memory (target: 2 workers <= 0.6 of one's
   time; under 150 MB per worker);
3. ``POST /api/v1/compare`` for one hand under 4 rules against ``POST /api/v1/score`` under one
   (Sheet 19 hand 1), in process, alternately (target: <= 5x).
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
# One log record a hand recorded is the operator's; here it would bury the figures.
os.environ.setdefault("APP_LOG_LEVEL", "WARNING")

RULES = ["bmja", "guide", "balsall-common", "west-wind-goulash", "bmja-west-wind"]


def database(kind: str, workdir: str) -> str:
    if kind == "postgres":
        name = "mahjong_compare_bench"
        subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", name], check=True)
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
        return f"postgres://postgres@127.0.0.1:5432/{name}"
    return f"sqlite:///{workdir}/bench.sqlite3"


def setup(args):
    import django

    django.setup()
    from django.core.management import call_command

    from clubs.models import Club

    call_command("migrate", verbosity=0)
    call_command("load_demo", allow_production=True, verbosity=0)
    t = time.perf_counter()
    season = record_nights(Club.objects.get(slug="demo"), args.nights, 4, 24)
    print(f"season: {args.nights} nights x 4 tables x 24 distinct hands, recorded in "
          f"{time.perf_counter() - t:.1f} s")
    return season


def record_nights(club, nights: int, tables: int, hands: int):
    """A season of distinct hands recorded as a scorer records them (so stored and replayed
    alike), members moving between tables from night to night."""
    import datetime as dt

    from bench.distinct_hands import distinct_entries
    from clubs.models import ClubSession, Member, Season, Seat, Table
    from clubs.recording import record_hand
    from houserules.sync import ensure_builtin_house_rules

    bmja = ensure_builtin_house_rules()["bmja"]
    members = list(Member.objects.filter(club=club).order_by("pk"))
    season = Season.objects.create(club=club, name="Generated season", start=dt.date(2030, 1, 1))
    entries = iter(distinct_entries(nights * tables * hands, seed=16))
    for night in range(nights):
        session = ClubSession.objects.create(club=club, season=season, house_rule_version=bmja,
                                             date=dt.date(2030, 1, 1) + dt.timedelta(days=night))
        for t in range(tables):
            table = Table.objects.create(session=session, number=t + 1)
            for p in range(4):
                Seat.objects.create(table=table, position=p, starting_wind="ESWN"[p],
                                    member=members[(night + t * 4 + p) % len(members)])
            for _ in range(hands):
                record_hand(table, next(entries), None)
    return season


def cold() -> None:
    """Empty the scoring engine's memos, so a repeat scores the hands again instead of reading
    the answers the repeat before left (whatever caches this version of the engine keeps)."""
    import scoring.engine as engine

    memo = getattr(engine, "memo", None)
    if memo is not None and hasattr(memo, "clear_all"):
        memo.clear_all()
    for name in ("clear_caches", "cache_clear"):
        if callable(getattr(engine, name, None)):
            getattr(engine, name)()


def replay_rate(season, repeats: int) -> None:
    from clubs.models import Table
    from compare.replay_compare import compare_table
    from compare.runs import TABLES_PER_TASK, frozen_rules, session_rules
    from compare.scope import load_table, load_tables
    from play import HandInputError, compute_hand, replay
    from scoring.engine import get_house_rule

    rules = session_rules(frozen_rules([get_house_rule(s) for s in RULES]))
    table_ids = list(Table.objects.filter(session__season=season).order_by("pk")
                     .values_list("pk", flat=True))
    # The engines alone: the same hands with their seating, read once into memory.
    hands = []
    for table_id in table_ids:
        table = load_table(table_id)
        state = replay(table.seats, table.hands, rules[0], refused="wall_game")
        for recorded, row in zip(table.hands, state.hands, strict=True):
            if not recorded.voided:
                hands.append((row.seating, recorded.outcome(row.seating)))
    count = len(hands)

    def engines():
        from dataclasses import replace

        for rule in rules:
            for seating, outcome in hands:
                try:
                    compute_hand(rule, seating, outcome, 0)
                except HandInputError:
                    wall = replace(outcome, winner=None, discarder=None, draw=True, win_from=None)
                    try:
                        compute_hand(rule, seating, wall, 0)
                    except HandInputError:
                        pass

    def comparison():
        # As a background task does: a few tables loaded together, then replayed one by one.
        for start in range(0, len(table_ids), TABLES_PER_TASK):
            for table in load_tables(table_ids[start:start + TABLES_PER_TASK]):
                compare_table(table, rules)

    timings = {"engines": [], "replay": []}
    sides = [("engines", engines), ("replay", comparison)]
    for repeat in range(repeats):
        for name, fn in sides if repeat % 2 == 0 else sides[::-1]:  # alternate who goes first
            cold()  # each side from empty memos: every hand scored, as at a club
            t = time.perf_counter()
            fn()
            timings[name].append(time.perf_counter() - t)
    e, r = statistics.median(timings["engines"]), statistics.median(timings["replay"])
    work = count * len(rules)
    print(f"\n1. {count} hands x {len(rules)} rules = {work} hand-replays, median of {repeats}, "
          "alternately:")
    print(f"   engines alone (compute_hand, hands in memory): {e:6.2f} s  {work / e:8.0f} hands/s")
    print(f"   comparison path (load + replay + part):         {r:6.2f} s  {work / r:8.0f} hands/s")
    print(f"   replay costs {r / e:.2f}x the engines alone (target <= 2)")


def run_workers(season, n: int, env: dict) -> tuple[float, list[int]]:
    from compare import runs
    from compare.management.commands.compare_rules import Operator
    from compare.rule_choice import chosen_rules
    from compare.scope import resolve_scope

    scope = resolve_scope({"season": season.pk}, Operator())
    comparison = runs.start(scope, chosen_rules(RULES, Operator()), None, background=True)
    t = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "manage.py", "db_worker", "--batch",
                               "--no-startup-delay", "--interval", "0.05", "--no-reload"],
                              cwd=REPO, env=env, stderr=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL) for _ in range(n)]
    peaks = [0] * n
    while any(p.poll() is None for p in procs):
        for i, p in enumerate(procs):
            peaks[i] = max(peaks[i], _hwm(p.pid))
        time.sleep(0.2)
    elapsed = time.perf_counter() - t
    comparison.refresh_from_db()
    assert comparison.report is not None, "the workers left the comparison unfinished"
    from collections import Counter

    from django_tasks_db.models import DBTaskResult

    shares = Counter(w for ids in DBTaskResult.objects.filter(
        args_kwargs__args__0=str(comparison.pk)).values_list("worker_ids", flat=True) for w in ids)
    return elapsed, peaks, sorted(shares.values())


def _hwm(pid: int) -> int:
    """Peak resident memory so far (kB), from /proc."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def workers(season, repeats: int, env: dict) -> None:
    import resource

    times = {1: [], 2: []}
    cpu = {1: [], 2: []}
    peak = 0
    for _ in range(repeats):
        for n in (1, 2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            elapsed, peaks, shares = run_workers(season, n, env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            times[n].append(elapsed)
            cpu[n].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            peak = max(peak, *peaks)
            print(f"   {n} worker(s): {elapsed:6.1f} s, {cpu[n][-1]:6.1f} s of CPU, tasks done "
                  f"by each: {shares}")
    one, two = statistics.median(times[1]), statistics.median(times[2])
    print(f"\n2. the season under {len(RULES)} rules on background workers, median of {repeats}, "
          "alternately:")
    print(f"   1 worker: {one:6.1f} s   2 workers: {two:6.1f} s   ratio {two / one:.2f} "
          "(target <= 0.6)")
    print(f"   CPU used: 1 worker {statistics.median(cpu[1]):.1f} s, 2 workers "
          f"{statistics.median(cpu[2]):.1f} s (two workers halve the time only where two "
          "cores are free: os.getloadavg() = " + ", ".join(f"{x:.1f}" for x in os.getloadavg())
          + ")")
    print(f"   peak memory of a worker: {peak / 1024:.0f} MB (target < 150 MB)")


def api(repeats: int) -> None:
    from django.test import Client

    from scoring.api import EXAMPLE_HAND

    client = Client()
    four = {**EXAMPLE_HAND, "rules": RULES[:4]}
    one = dict(EXAMPLE_HAND)
    times = {"score": [], "compare": []}
    for _ in range(repeats):
        for name, url, body in (("score", "/api/v1/score", one), ("compare", "/api/v1/compare", four)):
            t = time.perf_counter()
            answer = client.post(url, body, content_type="application/json", secure=True)
            times[name].append(time.perf_counter() - t)
            assert answer.status_code == 200, answer.content
    s, c = statistics.median(times["score"]), statistics.median(times["compare"])
    print(f"\n3. one hand (004 Sheet 19 hand 1), median of {repeats}, alternately:")
    print(f"   POST /api/v1/score, 1 rule:    {s * 1000:6.2f} ms")
    print(f"   POST /api/v1/compare, 4 rules: {c * 1000:6.2f} ms   ratio {c / s:.2f} (target <= 5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=200)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worker-repeats", type=int, default=2)
    parser.add_argument("--skip-workers", action="store_true")
    parser.add_argument("--workers-only", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        env = {**os.environ, "DATABASE_URL": database(args.db, workdir), "DEBUG": "0",
               "SECRET_KEY": "bench-" + "x" * 60, "ALLOWED_HOSTS": "testserver,localhost",
               "DJANGO_SETTINGS_MODULE": "config.settings"}
        os.environ.update(env)
        season = setup(args)
        if not args.workers_only:
            replay_rate(season, args.repeats)
            api(200)
        if not args.skip_workers:
            workers(season, args.worker_repeats, env)


if __name__ == "__main__":
    main()
