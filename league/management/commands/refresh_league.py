"""manage.py refresh_league: rebuild the per-night summary from the stored hand results."""

from django.core.management.base import BaseCommand

from league.summary import refresh_all


class Command(BaseCommand):
    help = ("Rebuild the league's per-night summary of every table from the stored hand results "
            "(after a bulk load that bypassed recording).")

    def handle(self, *args, **options):
        self.stdout.write(f"Refreshed {refresh_all()} tables.")
