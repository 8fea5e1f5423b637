"""The default SQLite database is tuned for concurrent use: WAL, IMMEDIATE, a busy timeout."""

import pytest
from django.db import OperationalError, connections, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper

from config.env import sqlite_database


@pytest.fixture
def connect(django_db_blocker, tmp_path):
    """Open connections to a fresh file configured exactly as settings configure the default."""
    opened = []

    def open_one(alias, **option_changes):
        settings = sqlite_database(tmp_path / "club.sqlite3")
        settings["OPTIONS"].update(option_changes)
        # The keys Django itself fills in for a configured database.
        settings.update(ATOMIC_REQUESTS=False, AUTOCOMMIT=True, CONN_MAX_AGE=0,
                        CONN_HEALTH_CHECKS=False, TIME_ZONE=None, USER="", PASSWORD="",
                        HOST="", PORT="")
        wrapper = DatabaseWrapper(settings, alias=alias)
        connections[alias] = wrapper
        opened.append(alias)
        return wrapper

    with django_db_blocker.unblock():
        yield open_one
        for alias in opened:
            connections[alias].close()
            del connections[alias]


def _pragma(wrapper, name):
    with wrapper.cursor() as cursor:
        cursor.execute(f"PRAGMA {name}")
        return cursor.fetchone()[0]


def test_pragmas_are_applied_on_every_connection(connect):
    wrapper = connect("probe")
    assert _pragma(wrapper, "journal_mode") == "wal"
    assert _pragma(wrapper, "busy_timeout") == 20000
    assert _pragma(wrapper, "foreign_keys") == 1
    assert _pragma(wrapper, "synchronous") == 1  # NORMAL: safe with WAL, fewer fsyncs


def test_transactions_take_the_write_lock_at_begin(connect):
    """IMMEDIATE: a second writer waits at BEGIN instead of failing half-way through."""
    first = connect("first")
    # The second writer gives up at once, so the lock is observed rather than waited for.
    second = connect("second", timeout=0, init_command="PRAGMA busy_timeout=0;")
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (x INTEGER)")
    with transaction.atomic(using="first"):
        with first.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM t")  # reads only: DEFERRED would hold no lock
        with pytest.raises(OperationalError, match="locked"), second.cursor() as cursor:
            cursor.execute("INSERT INTO t VALUES (1)")
