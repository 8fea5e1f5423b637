"""manage.py load_demo: the demo club, for trying the service out (safe to run again)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from clubs import demo


class Command(BaseCommand):
    help = (
        "Load the demo club (members, a season, a club night with recorded hands, and the "
        "built-in house rules). Running it again changes nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load even with DEBUG off. The demo logins have published passwords.",
        )

    def handle(self, *args, allow_production: bool = False, **options):
        if not settings.DEBUG and not allow_production:
            raise CommandError(
                "DEBUG is off, so this looks like a live service: the demo logins have "
                "published passwords. Pass --allow-production if you really want them here."
            )
        try:
            club = demo.load_demo_club()
        except ImportError as exc:
            raise CommandError(
                f"The scoring engine's built-in house rules could not be imported ({exc}); "
                "the demo needs scoring.engine.builtin_house_rules."
            ) from exc
        except LookupError as exc:
            raise CommandError(str(exc)) from exc
        session = club.sessions.order_by("-date").first()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club {club.name!r} ready: {club.members.count()} members, "
                f"{sum(t.hands.count() for t in session.tables.all())} hands on {session.date}. "
                f"Logins (demo only): {', '.join(demo.LOGINS)} / password {demo.LOGINS['demo-admin']!r}."
            )
        )
