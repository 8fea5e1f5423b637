"""``manage.py restore FILE``: put a backup written by ``manage.py backup`` back."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from safekeeping.database_backup import BackupError, restore


class Command(BaseCommand):
    help = ("Replace the SQLite database with the backup FILE. Refuses a database that already "
            "holds clubs or logins unless given --force (stop the service first).")

    def add_arguments(self, parser):
        parser.add_argument("file", help="A file written by manage.py backup.")
        parser.add_argument("--force", action="store_true",
                            help="Replace a database that holds data already.")
        parser.add_argument("--database", default="default")

    def handle(self, *args, **options):
        source = Path(options["file"])
        try:
            restore(source, options["database"], overwrite=options["force"])
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored the database from {source}.")
