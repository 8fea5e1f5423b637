"""Django's SQLite backend, whose transactions queue on a lock file, not in the busy handler.

SQLite lets one writer at a time hold its write lock; the settings start every transaction
with ``BEGIN IMMEDIATE`` so that writers wait at the start instead of failing half-way. But a
writer that finds the lock taken waits in SQLite's busy handler, which sleeps and retries with
growing sleeps (up to 100 ms at a time) and wakes in no order: under several scorers at once
a hand could wait half a second while the lock stood free (the load bench: p99 of 224-541 ms).

Here each transaction first takes an exclusive ``flock`` on a file beside the database
(``<database>-writers.lock``, one descriptor per connection) and gives it back when the
transaction commits, rolls back or the connection closes. A writer that finds it taken asks
again every millisecond, so writers follow one another within a millisecond, and gives up
after the database's ``timeout`` with SQLite's own "database is locked" (a lock held that long
is a stuck or deadlocked writer, which a wait without end would hide). SQLite's busy handler
stays for anything that writes outside a transaction, and for everything where the lock file
cannot be made (a read-only folder), for an in-memory database (the tests) and where ``fcntl``
does not exist (Windows).
"""

from __future__ import annotations

import os
import sqlite3
import time

from django.db.backends.sqlite3 import base

try:
    import fcntl
except ImportError:  # not on Windows: transactions wait in SQLite's busy handler alone
    fcntl = None


class DatabaseWrapper(base.DatabaseWrapper):
    _writers_lock: int | None = None  # the lock file's descriptor, once opened
    _holding = False
    _no_lock_file = False

    def _start_transaction_under_autocommit(self):
        self._take_writers_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writers_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release_writers_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_writers_lock()

    def _set_autocommit(self, autocommit):
        super()._set_autocommit(autocommit)
        if autocommit:  # the transaction is over however it ended
            self._release_writers_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._release_writers_lock()
            if self._writers_lock is not None:
                os.close(self._writers_lock)
                self._writers_lock = None

    def writers_lock_path(self) -> str | None:
        """The lock file's path, or None where transactions do not queue on one."""
        if fcntl is None or self.is_in_memory_db():
            return None
        return f"{self.settings_dict['NAME']}-writers.lock"

    def _take_writers_lock(self) -> None:
        if self._holding or self._no_lock_file:
            return
        if self._writers_lock is None:
            path = self.writers_lock_path()
            if path is None:
                return
            try:
                self._writers_lock = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                self._no_lock_file = True  # SQLite's busy handler alone, as without this backend
                return
        deadline = time.monotonic() + float(self.settings_dict["OPTIONS"].get("timeout", 5))
        while True:
            try:
                fcntl.flock(self._writers_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    with self.wrap_database_errors:
                        raise sqlite3.OperationalError("database is locked") from None
                time.sleep(0.001)
        self._holding = True

    def _release_writers_lock(self) -> None:
        if self._holding:
            self._holding = False
            fcntl.flock(self._writers_lock, fcntl.LOCK_UN)
