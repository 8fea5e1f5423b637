"""manage.py import_kajongg: bring in the manually scored games of a KDE Kajongg database
(kajongg3.db), with a dry run showing each game's fate and each name's match first; or undo an
import as a whole (manage.py import_results --undo ID)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club, Member
from history.import_write import ImportRefused, apply_plan
from history.kajongg.database import KajonggError, read_games
from history.kajongg.run import plan_file
from history.management.commands.import_results import parse_choices


class Command(BaseCommand):
    help = ("Import the manually scored games of a Kajongg database (kajongg3.db). Shows each "
            "game's fate; writes nothing with --dry-run. Undo with import_results --undo ID.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="The Kajongg database (kajongg3.db).")
        parser.add_argument("--club", required=True, help="The club's slug.")
        parser.add_argument("--house-rule", help="One house rule slug for every game (default: "
                            "each game's Kajongg ruleset's nearest built-in rule, BMJA).")
        parser.add_argument("--name", action="append", default=[], metavar="KAJONGG=CHOICE",
                            help="A player's choice: 'Jon=John Smith', 'Ann=new' or 'Bob=guest'.")
        parser.add_argument("--accept-suggestions", action="store_true")
        parser.add_argument("--unmatched", choices=["new", "guest"])
        parser.add_argument("--skip-refused", action="store_true")
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args, **opts):
        try:
            # The file first: a wrong path or a file that is not Kajongg's is said as such.
            games = read_games(opts["file"])
        except KajonggError as exc:
            raise CommandError(str(exc)) from exc
        if not games:
            raise CommandError(f"{Path(opts['file']).name} holds no manually scored game "
                               "(Kajongg's games against the computer are not imported): "
                               "nothing to import.")
        club = Club.objects.filter(slug=opts["club"]).first()
        if club is None:
            raise CommandError(f"There is no club {opts['club']!r}.")
        choices = parse_choices(club, opts["name"])
        try:
            batch, plan, counts, versions = plan_file(
                club, opts["file"], house_rule=opts["house_rule"], choices=choices,
                accept_suggestions=opts["accept_suggestions"], unmatched=opts["unmatched"] or "")
        except (KajonggError, ImportRefused) as exc:
            raise CommandError(str(exc)) from exc
        members = dict(Member.objects.filter(club=club).values_list("pk", "display_name"))
        self.stdout.write("Players:")
        for n in plan.names:
            if n.choice.startswith("member:"):
                what = f"member {members[int(n.choice[7:])]}"
            elif n.choice:
                what = "new member" if n.choice == "new" else "guest"
            elif n.match.suggestion:
                what = f"CHOOSE (suggested: {members[n.match.suggestion]})"
            else:
                what = "CHOOSE: new member or guest"
            self.stdout.write(f"  {n.name}: {what}")
        self.stdout.write("Games:")
        for game, fate, words in plan.fates:
            self.stdout.write(f"  game {game}: {'REFUSED: ' if fate == 'refused' else ''}{words}")
        for note in batch.report["notes"]:
            self.stdout.write(note)
        if opts["dry_run"]:
            self.stdout.write("Dry run: nothing was written.")
            return
        batch.save()
        try:
            made = apply_plan(batch, plan, versions=versions, skip_refused=opts["skip_refused"])
        except ImportRefused as exc:
            batch.delete()
            raise CommandError(f"Nothing was written. {exc}") from exc
        self.stdout.write(f"Imported as import {batch.pk}: {made['sessions']} nights, "
                          f"{made['tables']} games, {made.get('hands', 0)} hands "
                          f"({counts.get('discarder_unknown', 0)} with the discarder unknown). "
                          f"Undo with: manage.py import_results --undo {batch.pk}")
