"""manage.py rating: a club's rating table as of a date, and a dated snapshot of it kept (for a
season's end, say, from cron). Members who hide their rating are left out of what is printed;
a snapshot keeps every line, as the page's does, and shows it as they choose."""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from history import rating_store


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError as err:
        raise CommandError(f"--as-of {text!r}: give the date as YYYY-MM-DD.") from err


class Command(BaseCommand):
    help = ("Print a club's rating table (as of a date), or keep a dated snapshot of it with "
            "--snapshot. The club must have turned the rating on.")

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="The club's slug.")
        parser.add_argument("--as-of", help="YYYY-MM-DD (default: now; for --snapshot, today).")
        parser.add_argument("--snapshot", action="store_true",
                            help="Keep a snapshot of the table as of the date.")

    def handle(self, *args, club, as_of, snapshot, **options):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club {club!r}: give the slug from its address.")
        as_of = _date(as_of) if as_of else None
        settings = rating_store.ensure_fresh(found)
        if not settings or not settings.enabled:
            raise CommandError(f"{found.name} has not turned the rating on (its rating settings "
                               "page).")
        if snapshot:
            try:
                kept = rating_store.take_snapshot(found, as_of)
            except rating_store.SnapshotRefused as refused:
                raise CommandError(str(refused)) from refused
            self.stdout.write(f"Snapshot {kept.pk} of the rating of {found.name} as of "
                              f"{kept.as_of:%-d %b %Y} kept: {len(kept.data['rows'])} members.")
            return
        rows = rating_store.table_as_of(found, as_of)
        when = f"as of {as_of:%-d %b %Y}" if as_of else "now"
        self.stdout.write(f"{found.name}: rating {when}")
        for row in rows:
            place = str(row.get("place", ""))
            note = " (provisional)" if row["provisional"] else ""
            self.stdout.write(f"{place:>4} {row['name']:<30} {row['grade']:6.1f} "
                              f"{row['nights']:5d} nights{note}")
