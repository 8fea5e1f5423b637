"""The comparison queue under abuse (issue #21): a flood from one person while another member's
one-table comparison waits, and the time to recover a worker killed mid-task.

    flock /tmp/bench.lock .venv/bin/python bench/bench_compare_fairness.py [--code DIR]
        [--flood 600] [--workers 2] [--lease 30 --sweep 10]

``--code DIR`` runs the same scenario on another checkout of the project (e.g. the release
before, exported with ``git archive <commit> | tar -x -C DIR``): the "before" figures. Each
run makes a fresh PostgreSQL database (``mahjong_fairness_bench``), loads the demo club and a
season of 4 tables x 24 hands (the flood's comparison: 96 hands under 2 rules, sent with
``"background": true``), then:

1. flood: one signed-in member POSTs ``/api/v1/comparisons/`` ``--flood`` times in a row (in
   process, the API's throttles on): how many were taken (201) and refused (429), and how long;
2. fairness: another member starts a one-table comparison (the demo night) in the background
   and ``--workers`` ``manage.py db_worker`` processes start: how long until that one is done,
   and how much of the flood was done by then;
3. recovery: a comparison of 8 tables x 200 hands under 6 rules, one worker, killed (SIGKILL)
   as soon as it has stored one table; a new worker starts at once: how long from the kill until
   every table is stored, with nobody pressing anything (a minute at most is waited for).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
NAME = "mahjong_fairness_bench"
URL = f"postgres://postgres@127.0.0.1:5432/{NAME}"
RECOVERY_WAIT = 120.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--code", default=str(HERE), help="The project checkout to measure.")
    parser.add_argument("--flood", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--lease", type=int, default=30)
    parser.add_argument("--sweep", type=int, default=10)
    parser.add_argument("--user-limit", type=int, default=None,
                        help="COMPARE_USER_LIMIT for this run (default: the setting's 3); a "
                             "high one lets the whole flood in, to see the turns alone.")
    parser.add_argument("--skip-recovery", action="store_true")
    args = parser.parse_args()
    code = Path(args.code).resolve()
    if args.user_limit is not None:
        os.environ["COMPARE_USER_LIMIT"] = os.environ["COMPARE_CLUB_LIMIT"] = str(args.user_limit)
    os.environ.update(DATABASE_URL=URL, DEBUG="0", SECRET_KEY="bench-" + "x" * 60,
                      SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="testserver",
                      COMPARE_LEASE_SECONDS=str(args.lease),
                      COMPARE_SWEEP_SECONDS=str(args.sweep),
                      APP_LOG_LEVEL="WARNING", LOG_LEVEL="ERROR",
                      DJANGO_SETTINGS_MODULE="config.settings")
    sys.path.insert(0, str(code))
    os.chdir(code)
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", NAME], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", NAME], check=True)

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.test import APIClient

    from clubs.models import Club, Member, MemberRole, Table
    from compare.models import Comparison, ComparisonPart
    from tests.compare.factory import make_nights

    call_command("migrate", verbosity=0)
    call_command("load_demo", allow_production=True, verbosity=0)
    club = Club.objects.get(slug="demo")
    demo_table = Table.objects.filter(session__club=club).order_by("pk").first()
    season = make_nights(club, nights=1, tables=4, hands=24, season_name="Flood season")
    User = get_user_model()
    flooder = User.objects.create_user("flooder", password="x")
    Member.objects.create(club=club, user=flooder, display_name="Flooder", role=MemberRole.MEMBER)
    scorer = User.objects.get(username="demo-scorer")
    print(f"code: {code}  workers: {args.workers}  load: {os.getloadavg()[0]:.1f}", flush=True)

    # 1. the flood
    api = APIClient()
    api.force_authenticate(flooder)
    codes: dict[int, int] = {}
    t0 = time.perf_counter()
    for _ in range(args.flood):
        status = api.post("/api/v1/comparisons/", {"season": season.pk, "rules": ["bmja", "guide"],
                                                   "background": True}, format="json").status_code
        codes[status] = codes.get(status, 0) + 1
    flood_time = time.perf_counter() - t0
    flood_ids = list(Comparison.objects.filter(created_by=flooder).values_list("pk", flat=True))
    print(f"flood: {args.flood} POSTs in {flood_time:.1f} s, answers {codes}", flush=True)

    # 2. the small one, then the workers
    small_client = APIClient()
    small_client.force_authenticate(scorer)
    small = small_client.post("/api/v1/comparisons/", {"table": demo_table.pk,
                                                       "rules": ["bmja", "guide"],
                                                       "background": True}, format="json")
    assert small.status_code == 201, small.content
    small_id = small.json()["id"]
    connection.close()
    workers = [worker(code) for _ in range(args.workers)]
    t0 = time.perf_counter()
    from django_tasks_db.models import DBTaskResult

    first = None
    try:
        while not Comparison.objects.filter(pk=small_id, status="done").exists():
            if first is None and DBTaskResult.objects.exclude(status="READY").exists():
                first = time.perf_counter() - t0
            time.sleep(0.05)
            if time.perf_counter() - t0 > 900:
                print("small comparison: not done after 900 s", flush=True)
                break
        waited = time.perf_counter() - t0
        flood_done = Comparison.objects.filter(pk__in=flood_ids, status="done").count()
        # A finished comparison's parts are deleted with its report: 4 tables each.
        tables_done = 4 * flood_done + ComparisonPart.objects.filter(
            comparison_id__in=flood_ids, done_at__isnull=False).count()
        print(f"fairness: the one-table comparison done {waited:.2f} s after the workers "
              f"started (the first task was taken at {first or 0:.2f} s: the workers' start); "
              f"by then {flood_done} of {len(flood_ids)} flood comparisons ({tables_done} "
              f"tables) were done; load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        for w in workers:
            w.send_signal(signal.SIGKILL)
            w.wait()
    if args.skip_recovery:
        return

    # 3. recovery after a kill
    Comparison.objects.all().delete()
    DBTaskResult.objects.all().delete()
    big = make_nights(club, nights=1, tables=8, hands=200, season_name="Long nights")
    rules = ["bmja", "guide", "balsall-common", "west-wind-goulash", "bmja-jokers",
             "bmja-west-wind"]
    made = small_client.post("/api/v1/comparisons/", {"season": big.pk, "rules": rules,
                                                      "background": True}, format="json")
    assert made.status_code == 201, made.content
    comparison_id = made.json()["id"]
    connection.close()
    first = worker(code)
    parts = ComparisonPart.objects.filter(comparison_id=comparison_id)
    while not parts.filter(done_at__isnull=False).exists():
        time.sleep(0.02)
    first.send_signal(signal.SIGKILL)
    first.wait()
    killed_at = time.perf_counter()
    dead = list(DBTaskResult.objects.filter(status="RUNNING").values_list("pk", flat=True))
    stored_at_kill = parts.filter(done_at__isnull=False).count()
    second = worker(code)
    try:
        while parts.filter(done_at__isnull=True).exists():
            time.sleep(0.1)
            if time.perf_counter() - killed_at > RECOVERY_WAIT:
                break
        elapsed = time.perf_counter() - killed_at
        left = parts.filter(done_at__isnull=True).count()
        # The killed worker's task: marked failed by the sweep or by the worker that took its
        # tables over (the live worker's own task may still be finishing: not counted).
        while (DBTaskResult.objects.filter(pk__in=dead, status="RUNNING").exists()
               and time.perf_counter() - killed_at < RECOVERY_WAIT):
            time.sleep(0.1)
        running = DBTaskResult.objects.filter(pk__in=dead, status="RUNNING").count()
        if left:
            print(f"recovery: {stored_at_kill} of 8 tables stored at the kill; {left} still "
                  f"unstored {elapsed:.0f} s later (the killed task still RUNNING: {running})", flush=True)
        else:
            print(f"recovery: {stored_at_kill} of 8 tables stored at the kill; all 8 stored "
                  f"{elapsed:.1f} s after it, nobody pressing anything (lease {args.lease} s, "
                  f"sweep every {args.sweep} s; the killed task still RUNNING: {running}); rules "
                  f"{len(rules)}; load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        second.send_signal(signal.SIGKILL)
        second.wait()


def worker(code: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay",
         "--interval", "0.1", "--verbosity", "0"], cwd=code, env=os.environ.copy())


if __name__ == "__main__":
    main()
