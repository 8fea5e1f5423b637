"""Write rate and latency of the default SQLite settings against SQLite left untuned.

Several processes play scorers saving hands at once: each transaction reads the table's last
hand number and inserts the next hand, as recording does. The tuned run uses exactly the
settings' options (config.env.sqlite_database: WAL, BEGIN IMMEDIATE, busy timeout); the
untuned run uses SQLite's and Python's defaults (rollback journal, deferred BEGIN, 5 s timeout).

    .venv/bin/python bench/sqlite_tuning.py [--writers 8] [--writes 200]

Prints figures; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from config.env import sqlite_database  # noqa: E402

SCHEMA = """
CREATE TABLE hand (id INTEGER PRIMARY KEY, tbl INTEGER, number INTEGER, data TEXT,
                   UNIQUE (tbl, number));
"""


def _tuned() -> tuple[str, float, list[str]]:
    options = sqlite_database("unused")["OPTIONS"]
    pragmas = [p for p in options["init_command"].split(";") if p.strip()]
    return f"BEGIN {options['transaction_mode']}", float(options["timeout"]), pragmas


SETUPS = {"untuned": ("BEGIN", 5.0, []), "tuned": _tuned()}


def _writer(path: str, setup: str, writer: int, writes: int, queue) -> None:
    begin, timeout, pragmas = SETUPS[setup]
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    for pragma in pragmas:
        conn.execute(pragma)
    latencies, failures = [], 0
    for _ in range(writes):
        start = time.perf_counter()
        try:
            conn.execute(begin)
            (last,) = conn.execute(
                "SELECT coalesce(max(number), 0) FROM hand WHERE tbl = ?", (writer % 4,)
            ).fetchone()
            conn.execute(
                "INSERT INTO hand (tbl, number, data) VALUES (?, ?, ?)",
                (writer % 4, last + 1, '{"score": 36}' * 20),
            )
            conn.execute("COMMIT")
            latencies.append(time.perf_counter() - start)
        except sqlite3.Error:
            # Deferred transactions that both read then write: one gets "locked" or a duplicate.
            failures += 1
            if conn.in_transaction:
                conn.execute("ROLLBACK")
    conn.close()
    queue.put((latencies, failures))


def run(setup: str, writers: int, writes: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.sqlite3")
        conn = sqlite3.connect(path)
        conn.executescript(SCHEMA)
        conn.close()
        queue = mp.Queue()
        procs = [
            mp.Process(target=_writer, args=(path, setup, w, writes, queue)) for w in range(writers)
        ]
        start = time.perf_counter()
        for proc in procs:
            proc.start()
        results = [queue.get() for _ in procs]
        for proc in procs:
            proc.join()
        elapsed = time.perf_counter() - start
    latencies = sorted(lat for lats, _ in results for lat in lats)
    failures = sum(f for _, f in results)
    ok = len(latencies)
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan")
    print(
        f"{setup:8s} {writers} writers x {writes}: {ok / elapsed:7.0f} writes/s, "
        f"p50 {p50:6.2f} ms, p99 {p99:7.1f} ms, failed {failures}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--writes", type=int, default=200)
    args = parser.parse_args()
    for setup in SETUPS:
        run(setup, args.writers, args.writes)


if __name__ == "__main__":
    main()
