"""manage.py sheet SESSION [--table N] [--format pdf|csv|xlsx] [--layout ...] [--blank] -o FILE"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from clubs.models import ClubSession, Table
from sheets.build import FORMATS, SheetRequest, SheetRequestError, check_start
from sheets.data import LAYOUTS


class Command(BaseCommand):
    help = ("Write a club night's score sheets (every table and the night's totals, or one "
            "table) as PDF, CSV or XLSX, filled in from the stored hands or blank.")

    def add_arguments(self, parser):
        parser.add_argument("session", type=int, help="The session's id.")
        parser.add_argument("--table", type=int, help="Only the table with this number.")
        parser.add_argument("--format", choices=FORMATS, default="pdf")
        parser.add_argument("--layout", choices=list(LAYOUTS),
                            help="The house rule's own sheet when left out.")
        parser.add_argument("--blank", action="store_true", help="Sheets to fill in by hand.")
        parser.add_argument("--start", help="The tally the running totals start from on this "
                                            "sheet (2000 for 002's tally sticks); the house "
                                            "rule's own when left out.")
        parser.add_argument("-o", "--output", default="-",
                            help="The file to write ('-', the default: standard output).")

    def handle(self, *args, **options):
        session = (ClubSession.objects.select_related("club", "house_rule_version__record")
                   .filter(pk=options["session"]).first())
        if session is None:
            raise CommandError(f"There is no session {options['session']}: give the id shown "
                               "in the session page's address.")
        table = None
        if options["table"] is not None:
            table = Table.objects.filter(session=session, number=options["table"]).first()
            if table is None:
                numbers = ", ".join(str(n) for n in session.tables.values_list("number",
                                                                               flat=True))
                raise CommandError(f"Session {session.pk} has no table {options['table']}: "
                                   f"its tables are {numbers or 'none yet'}.")
        try:
            start = check_start(options["start"])
        except SheetRequestError as err:
            raise CommandError(str(err)) from None
        asked = SheetRequest(session, table, options["layout"], options["blank"], start)
        _, _, chunks = asked.render(options["format"])
        if options["output"] == "-":
            for chunk in chunks:
                sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
            return
        try:
            with open(options["output"], "wb") as out:
                for chunk in chunks:
                    out.write(chunk)
        except OSError as err:
            raise CommandError(f"Cannot write {options['output']}: {err.strerror}.") from None
        self.stderr.write(f"Wrote {options['output']}.")
