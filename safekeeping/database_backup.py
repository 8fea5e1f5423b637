"""A consistent copy of the SQLite database while the service runs, and putting one back.

SQLite's online backup API copies the database page by page under its own locks, so writers
carry on and the copy is the database as of one moment (a plain file copy of a database in WAL
mode can miss what is still in the -wal file). PostgreSQL has its own tool for this, pg_dump;
the commands say so rather than doing half a job.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from django.db import connections

# Backups written and restores done: an operator's record of when the data was copied or replaced.
log = logging.getLogger(__name__)

PG_DUMP_ADVICE = (
    "This database is PostgreSQL: back it up with its own tool, e.g. "
    "'pg_dump --format=custom --file=club.dump DBNAME' (and put one back with "
    "'pg_restore --clean --dbname=DBNAME club.dump'); manage.py backup and restore are for SQLite."
)
# Tables only this project's database has: a file without them is not one of its backups.
EXPECTED_TABLES = {"django_migrations", "clubs_club", "clubs_hand"}


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says what to do instead."""


def _sqlite(alias: str):
    connection = connections[alias]
    if connection.vendor == "postgresql":
        raise BackupError(PG_DUMP_ADVICE)
    if connection.vendor != "sqlite":
        raise BackupError(f"manage.py backup is for SQLite; this database is {connection.vendor}.")
    connection.ensure_connection()
    return connection


def backup(target: Path, alias: str = "default", overwrite: bool = False) -> int:
    """Copy the live database to ``target``; returns its size in bytes."""
    connection = _sqlite(alias)
    if target.exists() and not overwrite:
        raise BackupError(f"{target} exists already: give a new file name, or --force to "
                          "replace it.")
    if not target.parent.is_dir():
        raise BackupError(f"No folder {target.parent}: make it first, or give another path.")
    partial = target.with_name(target.name + ".partial")
    destination = sqlite3.connect(partial)
    try:
        connection.connection.backup(destination)
    finally:
        destination.close()
    partial.replace(target)  # a half-written backup is never left under the real name
    size = target.stat().st_size
    log.info("database backed up to %s (%d bytes)", target, size)
    return size


def is_live(alias: str = "default") -> bool:
    """Whether the database holds anything a club entered (a club or a login)."""
    with connections[alias].cursor() as cursor:
        tables = set(connections[alias].introspection.table_names(cursor))
        for table in ("clubs_club", "auth_user"):
            if table in tables:
                cursor.execute(f"SELECT 1 FROM {table} LIMIT 1")
                if cursor.fetchone():
                    return True
    return False


def check_backup_file(source: Path) -> None:
    """Refuse anything but a sound SQLite database of this project."""
    if not source.is_file():
        raise BackupError(f"No file {source}: give the path of a file manage.py backup wrote.")
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as db:
            (verdict,) = db.execute("PRAGMA quick_check").fetchone()
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        db.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{source} is not a SQLite database ({error}).") from None
    if verdict != "ok":
        raise BackupError(f"{source} is damaged (SQLite's check says: {verdict}).")
    if not EXPECTED_TABLES <= tables:
        raise BackupError(f"{source} is a SQLite database but not a backup of this service "
                          "(it has no clubs or hands tables).")


def restore(source: Path, alias: str = "default", overwrite: bool = False) -> None:
    """Put the backup ``source`` in place of the database, whole."""
    connection = _sqlite(alias)
    check_backup_file(source)
    if not overwrite and is_live(alias):
        raise BackupError("The database holds clubs or logins already: restoring replaces "
                          "everything in it. Stop the service and run again with --force, or "
                          "point DATABASE_URL at a new file.")
    origin = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        origin.backup(connection.connection)
    finally:
        origin.close()
    # A warning: everything the database held before is replaced.
    log.warning("database restored from %s%s", source,
                " over a database that held clubs or logins" if overwrite else "")
