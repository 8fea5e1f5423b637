"""A benchmark's database made afresh and Django set up on it, as bench_club_growth.py,
bench_rating_reads.py, bench_table_page.py (and bench_sheets.py through it) and
bench_db_growth.py's workers all do: one place for the settings a bench runs under."""

from __future__ import annotations

import os
import subprocess
import tempfile

HOST = ["-h", "127.0.0.1", "-U", "postgres"]


def postgres_url(name: str) -> str:
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def fresh_postgres(name: str) -> str:
    """Drop the database (ending its connections: a bench's earlier run left behind) and make
    it again; its URL."""
    subprocess.run(["dropdb", *HOST, "--if-exists", "--force", name], check=True)
    subprocess.run(["createdb", *HOST, name], check=True)
    return postgres_url(name)


def django_on(url: str) -> None:
    """Django set up on ``url`` as the benches measure it: DEBUG off (no query log growing
    through a run), no API throttles (issue #13: a bench makes many requests a minute), and
    warnings only in the log (a record a hand recorded would bury the figures)."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("API_THROTTLE", "0")
    os.environ.setdefault("APP_LOG_LEVEL", "WARNING")
    import django

    django.setup()


def fresh_database(kind: str, pg_name: str, sqlite_prefix: str,
                   sqlite_file: str = "b.sqlite3") -> None:
    """An empty database migrated, Django set up on it: an SQLite file in a new temporary
    folder (``kind`` "sqlite"), or PostgreSQL ``pg_name`` dropped and made again."""
    if kind == "sqlite":
        url = f"sqlite:///{tempfile.mkdtemp(prefix=sqlite_prefix)}/{sqlite_file}"
    else:
        url = fresh_postgres(pg_name)
    django_on(url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
