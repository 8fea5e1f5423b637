"""The default SQLite database is tuned for concurrent use: WAL, IMMEDIATE, a busy timeout, and
(config/sqlite3) transactions that queue on a lock file from BEGIN to their end, whichever way
they end, telling a writer that cannot have it in time that the database is locked."""

import fcntl
import os
import threading

import pytest
from django.db import OperationalError, connections, transaction

from config.env import sqlite_database
from config.sqlite3.base import DatabaseWrapper


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


def _lock_file_taken(db: DatabaseWrapper) -> bool:
    """Whether some connection holds the writers' lock file (asked without waiting)."""
    fd = os.open(db.writers_lock_path(), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_transaction_holds_the_lock_file_from_begin_to_commit(connect):
    db = connect("first")
    assert not _lock_file_taken(db)
    with transaction.atomic(using="first"):
        assert _lock_file_taken(db)
    assert not _lock_file_taken(db)


def test_an_error_in_the_transaction_gives_the_lock_back(connect):
    db = connect("first")
    with pytest.raises(RuntimeError), transaction.atomic(using="first"):
        raise RuntimeError("the hand could not be written")
    assert not _lock_file_taken(db) and not db._holding


def test_closing_the_connection_gives_the_lock_back(connect):
    db = connect("first")
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    assert _lock_file_taken(db)
    db.close()
    assert not _lock_file_taken(db) and not db._holding


def test_a_second_writer_waits_for_the_first_to_commit(connect):
    first, second = connect("first"), connect("second")
    second.inc_thread_sharing()  # used by the thread below, and by nothing else meanwhile
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE hand (n INTEGER)")
    order = []
    started = threading.Event()

    def write_second():
        started.set()
        # What atomic does on entry: waits here until the first has committed.
        second.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        order.append("second began")
        with second.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM hand")
            order.append(cursor.fetchone()[0])
            cursor.execute("INSERT INTO hand VALUES (2)")
        second.commit()
        second.set_autocommit(True)

    with transaction.atomic(using="first"):
        with first.cursor() as cursor:
            cursor.execute("INSERT INTO hand VALUES (1)")
        thread = threading.Thread(target=write_second)
        thread.start()
        started.wait()
        thread.join(0.2)  # given time to get past the lock, it must not
        order.append("first commits")
    thread.join(10)
    assert order == ["first commits", "second began", 1]
    with first.cursor() as cursor:
        cursor.execute("SELECT n FROM hand ORDER BY n")
        assert cursor.fetchall() == [(1,), (2,)]


def test_a_writer_that_waits_too_long_is_told_the_database_is_locked(connect):
    connect("first")
    second = connect("second", timeout=0.05)
    with transaction.atomic(using="first"):
        with pytest.raises(OperationalError, match="database is locked"):
            with transaction.atomic(using="second"):
                pass
        assert not second._holding
    with transaction.atomic(using="second"):  # free again once the first has committed
        assert second._holding


def test_an_in_memory_database_has_no_lock_file():
    settings = sqlite_database(":memory:")
    settings.update(ATOMIC_REQUESTS=False, AUTOCOMMIT=True, CONN_MAX_AGE=0,
                    CONN_HEALTH_CHECKS=False, TIME_ZONE=None)
    assert DatabaseWrapper(settings, alias="memory").writers_lock_path() is None


def test_without_a_lock_file_transactions_wait_in_sqlite_alone(connect, monkeypatch):
    """A folder where the lock file cannot be made: writes still work, as with Django's own."""
    db = connect("first")
    monkeypatch.setattr(db, "writers_lock_path", lambda: "/nonexistent-folder/x-writers.lock")
    with transaction.atomic(using="first"), db.cursor() as cursor:
        cursor.execute("CREATE TABLE t (x INTEGER)")
        cursor.execute("INSERT INTO t VALUES (1)")
    assert db._no_lock_file and not db._holding


# The source of each private method of Django's SQLite backend that config/sqlite3 overrides,
# and of the public ones that call them, as of the Django this was written against. A Django
# upgrade that changes any of them fails here: read the new code, check that the lock file is
# still taken at BEGIN and given back however a transaction ends, then write the new hashes.
PINNED_DJANGO_METHODS = {
    "_start_transaction_under_autocommit": "7315cfc61c1dde12",
    "_commit": "8ebc361e1e8fcb8d",
    "_rollback": "d671ec3bb3c8ed44",
    "_set_autocommit": "951168e64a4baa0d",
    "_close": "d1a3f0e9a11cd084",
    "commit": "54b37694faec878a",
    "rollback": "40eb099b6c9ba834",
    "set_autocommit": "4e91610fe9d81813",
    "close": "3a46dac491ee95d5",
}


def test_the_overridden_django_methods_are_the_ones_it_was_written_against():
    import hashlib
    import inspect

    from django.db.backends.sqlite3 import base as django_sqlite

    found = {
        name: hashlib.sha256(
            inspect.getsource(getattr(django_sqlite.DatabaseWrapper, name)).encode()
        ).hexdigest()[:16]
        for name in PINNED_DJANGO_METHODS
    }
    assert found == PINNED_DJANGO_METHODS, (
        "Django's SQLite backend changed under config/sqlite3/base.py: check its overrides")
