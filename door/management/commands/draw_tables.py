"""Draw a night's tables from who checked in, accept them, print the table cards.

    manage.py draw_tables SESSION                  # draw (or draw again) and show the quality
    manage.py draw_tables SESSION --seed 7         # the same seed gives the same tables
    manage.py draw_tables SESSION --accept         # ... and seat them
    manage.py draw_tables SESSION --cards cards.pdf [--paper a6]   # the seated tables' cards
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import ClubSession
from door import cards
from door.checkin import DoorError
from door.drawing import DrawConflict, accept, make_draw
from door.models import TableDraw
from door.tonight import door_state


class Command(BaseCommand):
    help = "Draw a club night's tables from who checked in; --accept seats them; --cards " \
           "writes the table cards PDF."

    def add_arguments(self, parser):
        parser.add_argument("session", type=int, help="The session (club night) id.")
        parser.add_argument("--seed", type=int, help="Fix the draw: the same seed, the same "
                                                     "tables.")
        parser.add_argument("--accept", action="store_true",
                            help="Seat the drawn tables (with their starting winds).")
        parser.add_argument("--keep", action="store_true",
                            help="Do not draw again: show (or accept) the stored draw.")
        parser.add_argument("--cards", type=Path, help="Write the table cards PDF here.")
        parser.add_argument("--paper", choices=cards.PAPERS, default="a4")

    def handle(self, *args, **options):
        session = ClubSession.objects.filter(pk=options["session"]).select_related(
            "club", "house_rule_version__record").first()
        if session is None:
            raise CommandError(f"There is no session {options['session']}: give a session id "
                               "(the number in the session page's address).")
        try:
            if options["keep"]:
                draw = TableDraw.objects.filter(session=session).first()
                if draw is None:
                    raise CommandError("There is no draw to keep yet: run without --keep.")
            elif not (options["cards"] and not options["accept"]):
                draw = make_draw(session, options["seed"])
            else:
                draw = None
            if draw is not None:
                self._show(session)
            if options["accept"]:
                _, made = accept(session, draw.revision)
                self.stdout.write("Tables seated." if made else "Already seated.")
            if options["cards"]:
                night = cards.night_cards(session)
                options["cards"].write_bytes(cards.render(night, options["paper"]))
                self.stdout.write(f"Table cards: {options['cards']}")
        except (DoorError, DrawConflict, cards.NoTables) as err:
            raise CommandError(getattr(err, "message", str(err))) from None

    def _show(self, session) -> None:
        state = door_state(session)
        draw, quality = state["draw"], state["quality"]
        self.stdout.write(f"{session.club.name}, {session.date}: {len(state['here'])} here, "
                          f"draw revision {draw.revision} (seed {draw.seed})")
        for table in state["draw_tables"]:
            seats = ", ".join(f"{s['wind']}: {s['name']}" for s in table["seats"])
            self.stdout.write(f"  Table {table['number']}: {seats}")
        self.stdout.write(
            f"Pairs meeting again: {len(quality.repeats)} (random draws: "
            f"{quality.random_repeats_mean} on average, worst {quality.random_repeats_worst}); "
            f"first meetings {quality.first_meetings}; most times a pair has met after "
            f"tonight {quality.most_met_after} (random {quality.random_most_met_mean}).")
        for a, b, times in state["repeats"]:
            self.stdout.write(f"  {a} and {b}: met {times} time{'s' if times != 1 else ''} "
                              "this season")
        for problem in quality.broken:
            self.stdout.write(f"  Breaks a rule: {problem}")
