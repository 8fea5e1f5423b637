"""``manage.py backup FILE``: a consistent copy of the SQLite database, taken while it runs."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from safekeeping.database_backup import BackupError, backup


class Command(BaseCommand):
    help = ("Write a consistent copy of the SQLite database to FILE while the service runs "
            "(SQLite's online backup). PostgreSQL: use pg_dump; the command says how.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="Where to write the copy, e.g. backups/2026-11-24.sqlite3")
        parser.add_argument("--force", action="store_true", help="Replace FILE if it exists.")
        parser.add_argument("--database", default="default")

    def handle(self, *args, **options):
        target = Path(options["file"])
        try:
            size = backup(target, options["database"], overwrite=options["force"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up the database to {target} ({size:,} bytes).")
