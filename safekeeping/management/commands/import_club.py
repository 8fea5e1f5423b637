"""``manage.py import_club FILE``: load a club exported by ``export_club``, recomputing every
derived result."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from safekeeping.club_import import ImportRefused, import_club


class Command(BaseCommand):
    help = ("Load a club written by manage.py export_club into this database, in one "
            "transaction, recomputing every table's results from the hands as entered.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="A file written by manage.py export_club ('-': stdin).")

    def handle(self, *args, **options):
        name = options["file"]
        try:
            text = (self.stdin_text() if name == "-" else Path(name).read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}.") from None
        try:
            doc = json.loads(text)
        except ValueError as error:
            raise CommandError(f"{name} is not JSON ({error}); give a file written by "
                               "manage.py export_club.") from None
        try:
            report = import_club(doc)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        except (KeyError, TypeError, ValueError) as error:
            raise CommandError(f"{name} is not a complete club export (at {error!r}); export "
                               "it again with manage.py export_club.") from None
        self.stdout.write(
            f"Imported {report.club.name}: {report.members} members, {report.sessions} "
            f"sessions, {report.tables} tables, {report.hands} hands, {report.comparisons} "
            f"comparisons; {report.logins_created} "
            f"logins created" + (f", linked to existing logins {', '.join(report.logins_linked)}"
                                 if report.logins_linked else "") + ".")
        if report.differences:
            self.stdout.write(f"{len(report.differences)} results differ from the export "
                              "(recomputed under this release's engines):")
            for line in report.differences[:50]:
                self.stdout.write(f"  {line}")
        else:
            self.stdout.write("Every recomputed result matches the export.")

    def stdin_text(self) -> str:
        import sys

        return sys.stdin.read()
