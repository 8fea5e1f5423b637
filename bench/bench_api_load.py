"""Load test: hands recorded through the club API by concurrent clients, against gunicorn.

Each request is a full recording: the winner's hand given as tiles (scored by the engine), the
others' agreed scores, settled, written (hand, entries, derived results, table state) in one
transaction, answered with every seat's score, the payments and the running totals. The hands
are distinct (``bench/distinct_hands.py``, ``--bodies`` a table, in order at each table: wall
games, the goulash after them, kongs, chows, flowers), so the engine scores a new hand each
time as at a club, not the one hand its memos already hold (issue #27; before, every request
sent 004 Sheet 19 hand 1 again).

    .venv/bin/python bench/bench_api_load.py --db postgres
    .venv/bin/python bench/bench_api_load.py --db sqlite
    .venv/bin/python bench/bench_api_load.py --db postgres --baseline   # bare DRF insert
    .venv/bin/python bench/bench_api_load.py --db postgres --compare 3  # both, alternately

The clients are wrk (Debian's package ``wrk``; ``record_hands.lua`` makes the bodies): one
keep-alive connection per client, each at its own table, for ``--seconds`` after a short
warm-up. Without wrk (or with ``--client python``) they are Python threads, whose own CPU
competes with the server's on a 2-core machine and lowers the figures.

``--baseline`` measures, the same way, a bare DRF validate-and-insert (token auth, a model
serializer, one INSERT: the ``bare_app`` below), so the recording figures can be read against
what the machine gives the framework alone at that moment. ``--compare N`` starts both servers
and alternates N timed runs of each (bare, recording, bare, ...), so that a shared machine's
drift touches both alike, and prints the median rates and the median ratio of recording to the
bare insert: the issue's target is 800/s where a bare insert does about 1,600/s, a ratio of 0.5.

Prepares a fresh database (migrate, a club, a session under the bmja house rule, one table per
client, a scorer with a token), starts gunicorn on it, runs the clients, stops gunicorn and
prints requests/s, p50, p90, p99, errors, and the server's CPU per request (gunicorn workers
and PostgreSQL backends, from /proc). Figures only; nothing is asserted.

The server runs with API_THROTTLE=0 unless the environment sets it: one scorer's token sends
far more than the per-user rate (1,200/min) allows. ``API_THROTTLE=1 THROTTLE_USER=1000000/min``
measures recording with the throttle's bookkeeping but no refusals.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = REPO / ".venv" / "bin" / "python"
GUNICORN = REPO / ".venv" / "bin" / "gunicorn"

SETUP = r"""
import json
from django.contrib.auth import get_user_model
from accounts.tokens import issue
from houserules.sync import ensure_builtin_house_rules
from clubs.models import Club, ClubSession, Member, Seat, Table
import datetime

versions = ensure_builtin_house_rules()
club = Club.objects.create(name="Bench Club", slug="bench")
user = get_user_model().objects.create_user("bench-scorer", password="bench-only-password")
Member.objects.create(club=club, user=user, display_name="Scorer", role="scorer")
session = ClubSession.objects.create(club=club, date=datetime.date.today(),
                                     house_rule_version=versions["bmja"])
tables = []
for n in range(1, TABLES + 1):
    table = Table.objects.create(session=session, number=n)
    # Four players of its own, as at a club (a player sits at one table a night): with the
    # same four at every table, each hand's stored standings rows were the same rows, and
    # the clients queued on their locks as no club's tables do.
    players = [Member.objects.create(club=club, display_name=f"Player {n}.{i}")
               for i in range(4)]
    for position, (member, wind) in enumerate(zip(players, "ESWN")):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    tables.append(table.pk)
print(json.dumps({"token": issue(user, "bench")[1], "tables": tables}))
"""

def bare_app():
    """gunicorn ``bench_api_load:bare_app()``: the project's settings with one bare endpoint,
    POST /bare/ (token auth, validate, insert an audit row, answer 201)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    from django.urls import path
    from rest_framework import generics, serializers

    from clubs.models import AuditEntry

    class BareSerializer(serializers.ModelSerializer):
        class Meta:
            model = AuditEntry
            fields = ["id", "action", "object_type", "object_id", "note"]

    class BareView(generics.CreateAPIView):
        serializer_class = BareSerializer

    global urlpatterns
    urlpatterns = [path("bare/", BareView.as_view())]
    settings.ROOT_URLCONF = __name__
    from django.core.wsgi import get_wsgi_application

    return get_wsgi_application()


def bare_body(table: int, i: int) -> bytes:
    return json.dumps({"action": "create", "object_type": "bench", "object_id": str(i),
                       "note": f"table {table}"}).encode()


# Each wrk run (a warm-up, a timed round) starts this many hands further into each table's
# list, so no round sends a hand an earlier round sent (the workers' memos would answer it).
SLICE = 1500


def hand_bodies(tables: list[int], count: int, workdir: Path) -> dict[int, list[bytes]]:
    """``count`` distinct hands for each table, as request bodies, also written one a line to
    ``bodies-<table>.txt`` in ``workdir`` for record_hands.lua. One list cut in turns, so no
    winning hand is sent twice anywhere in the run. A run starts at a multiple of ``SLICE``,
    where the table may be in a goulash the list does not know of: there a wall game, then a
    hand without a chow, which any hand may follow."""
    sys.path.insert(0, str(REPO))
    from bench.distinct_hands import distinct_entries

    entries = distinct_entries(count * len(tables), seed=6)
    safe = iter(distinct_entries(len(tables) * (count // SLICE + 1) * 2, seed=7, draws=0,
                                 chows=0))
    wall = {"draw": True, "winner": None, "seats": {w: {"score": 0} for w in "ESWN"}}
    bodies = {}
    for k, table in enumerate(tables):
        mine = entries[k * count:(k + 1) * count]
        for start in range(SLICE, count - 1, SLICE):
            mine[start], mine[start + 1] = wall, next(safe)
        bodies[table] = [json.dumps({"table": table, **e}, separators=(",", ":")).encode()
                         for e in mine]
        (workdir / f"bodies-{table}.txt").write_bytes(b"\n".join(bodies[table]) + b"\n")
    return bodies


BODIES: dict[int, list[bytes]] = {}


def body(table: int, i: int) -> bytes:
    hands = BODIES[table]
    return hands[i % len(hands)]


def database(kind: str, workdir: Path, name: str = "mahjong_bench") -> str:
    if kind == "sqlite":
        return f"sqlite:///{workdir / 'bench.sqlite3'}"
    import psycopg

    if not name.replace("_", "").isalnum():
        sys.exit(f"--db-name {name!r}: use letters, digits and underscores only.")
    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name}")
        db.execute(f"CREATE DATABASE {name}")
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def server_env(url: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-only-secret-key-not-for-production-0123456789abcdef",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "ERROR",
        "APP_LOG_LEVEL": "WARNING",  # not a line a hand on the bench's terminal
        # Many requests from one scorer's token: measure recording, not the throttle (its
        # 1,200/min per user would refuse most of them). API_THROTTLE=1 measures with it.
        "API_THROTTLE": os.environ.get("API_THROTTLE", "0"),
    }


def prepare(env: dict, tables: int) -> dict:
    run = {"env": env, "cwd": REPO, "check": True, "capture_output": True, "text": True}
    subprocess.run([PYTHON, "manage.py", "migrate", "-v", "0"], **run)
    code = SETUP.replace("TABLES", str(tables))
    out = subprocess.run([PYTHON, "manage.py", "shell", "-c", code], **run).stdout
    return json.loads(out.strip().splitlines()[-1])


def start_server(env: dict, args, baseline: bool, port: int) -> subprocess.Popen:
    app = ["--pythonpath", str(REPO / "bench"), "bench_api_load:bare_app()"] if (
        baseline) else ["config.wsgi"]
    cmd = [str(GUNICORN), *app, "-w", str(args.workers), "-b",
           f"127.0.0.1:{port}", "--worker-class", args.worker_class, "--log-level", "error"]
    if args.worker_class == "gthread":
        cmd += ["--threads", str(args.threads)]
    server = subprocess.Popen(cmd, env=env, cwd=REPO, start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()  # listening
            return server
        except OSError:
            time.sleep(0.1)
    stop_server(server)
    raise SystemExit("gunicorn did not start.")


def stop_server(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(20)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time used so far by a process (Linux /proc); 0 once it has ended."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def server_pids(server: subprocess.Popen, db: str, name: str) -> tuple[list[int], list[int]]:
    """The gunicorn workers, and the PostgreSQL backends they have opened so far (found by the
    ``application_name`` their connections give)."""
    workers = [int(p) for p in subprocess.run(
        ["ps", "--ppid", str(server.pid), "-o", "pid="], capture_output=True, text=True
    ).stdout.split()]
    backends: list[int] = []
    if db == "postgres":
        import psycopg

        with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres") as conn:
            backends = [row[0] for row in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (name,))]
    return workers, backends


def client(port, token, table, hands, deadline, latencies, errors, start, warmup, baseline):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    url, make = ("/bare/", bare_body) if baseline else ("/api/v1/hands/", body)
    for i in range(warmup):
        conn.request("POST", url, make(table, i), headers)
        conn.getresponse().read()
    start.wait()
    for i in range(warmup, warmup + hands):
        if time.perf_counter() > deadline[0]:
            break
        began = time.perf_counter()
        try:
            conn.request("POST", url, make(table, i), headers)
            response = conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as exc:
            errors.append(type(exc).__name__)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        latencies.append(time.perf_counter() - began)
        if status != 201:
            errors.append(status)


def run_python_clients(args, setup, warmed_up) -> dict:
    """8 (``--clients``) threads of keep-alive ``http.client``: the fallback where wrk is absent.
    Their own CPU (JSON, the GIL) competes with the server's on a 2-core machine."""
    latencies: list[float] = []
    errors: list = []
    start = threading.Barrier(args.clients + 1)
    deadline = [float("inf")]
    threads = [
        threading.Thread(target=client, args=(
            args.port, setup["token"], table, args.hands, deadline, latencies, errors,
            start, args.warmup, args.baseline))
        for table in setup["tables"]
    ]
    for t in threads:
        t.start()
    start.wait()
    warmed_up()
    began = time.perf_counter()
    deadline[0] = began + args.seconds
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    ms = sorted(x * 1000 for x in latencies)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p / 100 * len(ms)))] if ms else float("nan")

    return {"requests": len(ms), "seconds": elapsed, "p50": pct(50), "p90": pct(90),
            "p99": pct(99), "max": ms[-1] if ms else float("nan"),
            "mean": statistics.fmean(ms) if ms else float("nan"),
            "errors": len(errors), "error_kinds": sorted(set(map(str, errors)))}


RUNS = [0]  # wrk runs so far: each starts SLICE hands further on


def run_wrk(args, setup, seconds: float, baseline: bool, port: int) -> dict:
    """wrk (C, event loop): one thread and one keep-alive connection per client, each at its
    own table (``record_hands.lua``); it costs the machine far less CPU than Python clients."""
    script = REPO / "bench" / "record_hands.lua"
    cmd = ["wrk", "-t", str(args.clients), "-c", str(args.clients), "-d", f"{max(1, round(seconds))}s",
           "--timeout", "30s", "-s", str(script), f"http://127.0.0.1:{port}", "--",
           setup["token"], ",".join(map(str, setup["tables"])),
           "bare" if baseline else "hands", str(setup["bodies_dir"]),
           str(0 if baseline else SLICE * RUNS[0])]
    if not baseline:
        RUNS[0] += 1
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    if done.stderr.strip():
        print(f"wrk: {done.stderr.strip()[:500]}")  # a script error, or the server's refusals
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["errors"] = result.pop("non_2xx") + result.pop("socket_errors")
    result["error_kinds"] = []
    return result


class Server:
    """One gunicorn serving the recording API or the bare insert, and the CPU its processes
    (workers and, on PostgreSQL, their database backends) use."""

    def __init__(self, env: dict, args, baseline: bool, port: int):
        self.args, self.baseline, self.port = args, baseline, port
        self.name = "bench-bare" if baseline else "bench-hands"
        if args.db == "postgres":  # the backends' name, so each server's can be told apart
            env = {**env, "DATABASE_URL": f"{env['DATABASE_URL']}?application_name={self.name}"}
        self.process = start_server(env, args, baseline, port)

    def cpu(self) -> tuple[dict[int, float], dict[int, float]]:
        """CPU seconds used so far by each worker and each backend."""
        return tuple({pid: cpu_seconds(pid) for pid in pids}
                     for pids in server_pids(self.process, self.args.db, self.name))

    def cpu_per_request(self, before, done: int, result: dict) -> None:
        """Into ``result``: CPU ms per request in the workers and the backends since ``before``
        (a backend a worker opened during the run counts from its start)."""
        for key, was, now in zip(("app_ms", "db_ms"), before, self.cpu(), strict=True):
            used = sum(seconds - was.get(pid, 0.0) for pid, seconds in now.items())
            result[key] = used * 1000 / done if done else float("nan")

    def measure(self, setup: dict) -> dict:
        """A timed wrk run: its figures, and the server's CPU per request (ms) during it."""
        before = self.cpu()
        result = run_wrk(self.args, setup, self.args.seconds, self.baseline, self.port)
        self.cpu_per_request(before, result["requests"], result)
        return result

    def warm_up(self, setup: dict) -> None:
        # A worker's first requests import and prepare what later ones reuse: on a busy 2-core
        # machine 5 s or more. A warm-up shorter than that left every timed request waiting
        # (wrk counted 0).
        run_wrk(self.args, setup, max(10.0, self.args.warmup / 2), self.baseline, self.port)

    def stop(self) -> None:
        stop_server(self.process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--client", choices=["wrk", "python"],
                        default="wrk" if shutil.which("wrk") else "python",
                        help="the load generator (default: wrk where it is installed)")
    parser.add_argument("--hands", type=int, default=1000, help="per client (python client)")
    parser.add_argument("--bodies", type=int, default=6000,
                        help="distinct hands a table (sent in order; a longer run wraps round)")
    parser.add_argument("--seconds", type=float, default=20, help="timed run")
    parser.add_argument("--warmup", type=int, default=20,
                        help="hands per client before timing (wrk: seconds / 2 of warm-up, "
                             "at least 10)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765,
                        help="the recording server's port (--compare: the bare one's is "
                             "--baseline-port)")
    parser.add_argument("--baseline-port", type=int, default=None,
                        help="the bare DRF server's port with --compare (default: --port + 1)")
    parser.add_argument("--db-name", default="mahjong_bench",
                        help="the PostgreSQL database to drop and create for the run")
    parser.add_argument("--baseline", action="store_true",
                        help="a bare DRF validate-and-insert instead of recording hands")
    parser.add_argument("--compare", type=int, metavar="ROUNDS", default=0,
                        help="alternate ROUNDS timed runs of the bare insert and of recording "
                             "(two servers, wrk) and print their ratio")
    args = parser.parse_args()
    if args.compare and args.client != "wrk":
        parser.error("--compare needs wrk (apt-get install wrk).")

    workdir = Path(tempfile.mkdtemp(prefix="bench-api-"))
    env = server_env(database(args.db, workdir, args.db_name))
    setup = prepare(env, args.clients)
    BODIES.update(hand_bodies(setup["tables"], args.bodies, workdir))
    setup["bodies_dir"] = workdir
    server_kind = args.worker_class + (f" x{args.threads} threads" if args.worker_class ==
                                       "gthread" else "")
    print(f"database {args.db}; gunicorn {args.workers} workers ({server_kind}); "
          f"{args.clients} clients ({args.client}), keep-alive")
    try:
        if args.compare:
            compare(args, env, setup)
        else:
            report(single_run(args, env, setup), args.baseline)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    sys.exit(0)


def single_run(args, env: dict, setup: dict) -> dict:
    server = Server(env, args, args.baseline, args.port)
    try:
        if args.client == "wrk":
            server.warm_up(setup)
            return server.measure(setup)
        before: list = []
        result = run_python_clients(args, setup, lambda: before.extend(server.cpu()))
        server.cpu_per_request(before, result["requests"], result)
        return result
    finally:
        server.stop()


def compare(args, env: dict, setup: dict) -> None:
    """Both servers up at once, idle in turn: bare, recording, bare, recording... so the
    machine's drift over the minutes touches both alike."""
    bare = Server(env, args, True, args.baseline_port or args.port + 1)
    recording = Server(env, args, False, args.port)
    try:
        for server in (bare, recording):
            server.warm_up(setup)
        runs: dict[bool, list[dict]] = {True: [], False: []}
        for _ in range(args.compare):
            for server in (bare, recording):
                result = server.measure(setup)
                runs[server.baseline].append(result)
                report(result, server.baseline)
    finally:
        bare.stop()
        recording.stop()
    rates = {kind: [r["requests"] / r["seconds"] for r in results]
             for kind, results in runs.items()}
    ratios = [h / b for h, b in zip(rates[False], rates[True], strict=True)]
    median = statistics.median
    print(f"median of {args.compare} rounds: {median(rates[False]):.0f} hands recorded/s, "
          f"{median(rates[True]):.0f} bare DRF inserts/s; ratio {median(ratios):.2f} "
          f"({', '.join(f'{r:.2f}' for r in ratios)}); p99 {median(r['p99'] for r in runs[False]):.1f}"
          f" against {median(r['p99'] for r in runs[True]):.1f} ms")
    print(f"issue #6's target read against its own yardstick (800 of a bare insert's 1,600/s): "
          f"a ratio of 0.50, here {0.5 * median(rates[True]):.0f} hands/s")


def report(result: dict, baseline: bool) -> None:
    done = result["requests"]
    what = "bare DRF inserts" if baseline else "hands recorded"
    print(f"requests {done} in {result['seconds']:.2f} s: {done / result['seconds']:.0f} "
          f"{what}/s")
    print(f"latency ms: p50 {result['p50']:.1f}  p90 {result['p90']:.1f}  "
          f"p99 {result['p99']:.1f}  max {result['max']:.1f}  mean {result['mean']:.1f}")
    print(f"errors {result['errors']}" + (f": {result['error_kinds']}"
                                          if result["error_kinds"] else ""))
    if done:
        # CPU per request does not depend on what else the machine is doing, unlike the rate;
        # with 2 idle cores the server could manage about 2000 / (both figures) per second.
        app, pg = result["app_ms"], result["db_ms"]
        print(f"server CPU per request: {app:.2f} ms in gunicorn, {pg:.2f} ms in "
              f"PostgreSQL; {2000 / (app + pg):.0f}/s if 2 idle cores did nothing else")


if __name__ == "__main__":
    main()
