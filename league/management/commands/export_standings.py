"""manage.py export_standings --season ID --format xlsx --output FILE"""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from rest_framework.renderers import JSONRenderer

import exports
from clubs.models import Season
from league.export_sheets import calculation_sheet, hands_sheet, standings_sheet
from league.forms import FORMATS
from league.models import rules_of
from league.queries import Filters, standings
from league.views import standings_json


class Command(BaseCommand):
    help = ("Write a season's standings (or every hand result with --hands) to a file as CSV, "
            "XLSX or JSON, streamed.")

    def add_arguments(self, parser):
        parser.add_argument("--season", required=True, help="The season's id.")
        parser.add_argument("--format", required=True, help=f"One of {', '.join(FORMATS)}.")
        parser.add_argument("--output", required=True, help="The file to write.")
        parser.add_argument("--as-of", help="The standings as they stood on this date (YYYY-MM-DD).")
        parser.add_argument("--hands", action="store_true",
                            help="Every hand result of the season instead of the standings.")

    def handle(self, *args, season, format, output, as_of=None, hands=False, **options):
        if format not in FORMATS:
            raise CommandError(f"--format {format!r} is not known: use one of {', '.join(FORMATS)}.")
        if not str(season).isdecimal() or not (found := Season.objects.filter(pk=int(season)).first()):
            raise CommandError(f"There is no season {season}: give the id of one "
                               "(the API's /api/v1/seasons/ lists them).")
        try:
            day = dt.date.fromisoformat(as_of) if as_of else None
        except ValueError:
            raise CommandError(f"--as-of {as_of!r} is not a date: write it as YYYY-MM-DD.") from None
        filters = Filters(as_of=day)
        if hands:
            sheets = [hands_sheet(found, filters)]
        else:
            table = standings(rules_of(found), season=found, filters=filters)
            sheets = [standings_sheet(table)]
            if format != "csv":
                sheets.append(calculation_sheet(table))
        if format == "json" and not hands:
            # The API's document, as the page's JSON download writes it.
            chunks = iter([JSONRenderer().render(standings_json(table, filters))])
        else:
            chunks = exports.get_exporter(format).render(sheets)
        try:
            with open(output, "wb") as out:
                for chunk in chunks:
                    out.write(chunk)
        except OSError as err:
            raise CommandError(f"Cannot write {output}: {err.strerror}. Choose a writable path.") from None
        self.stderr.write(f"Wrote {output}.")
