"""``manage.py export_club SLUG``: one club's whole history as a versioned JSON document."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from safekeeping.club_export import export_club


class Command(BaseCommand):
    help = ("Write one club's members, seasons, house-rule versions, sessions, tables, hands as "
            "entered and audit trail as JSON (to FILE, or standard output). manage.py "
            "import_club loads it into another database, e.g. from SQLite to PostgreSQL.")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's slug, e.g. demo.")
        parser.add_argument("-o", "--output", help="The file to write (default: standard "
                                                   "output).")
        parser.add_argument("--force", action="store_true", help="Replace the file if it exists.")

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["slug"]).first() if "\x00" not in options[
            "slug"] else None
        if club is None:
            known = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True)[:20])
            raise CommandError(f"No club {options['slug']!r}; the clubs here are: "
                               f"{known or 'none'}.")
        text = json.dumps(export_club(club), indent=1, sort_keys=True, ensure_ascii=False)
        if not options["output"]:
            self.stdout.write(text)
            return
        target = Path(options["output"])
        if target.exists() and not options["force"]:
            raise CommandError(f"{target} exists already: give a new file name, or --force.")
        if not target.parent.is_dir():
            raise CommandError(f"No folder {target.parent}: make it first, or give another path.")
        target.write_text(text + "\n", encoding="utf-8")
        self.stderr.write(f"Exported {club.name} to {target}.")
