"""manage.py import_results: bring past seasons in from a spreadsheet (CSV or XLSX), with a dry
run that shows every row's fate first; or undo an import as a whole."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club, Member
from history import import_run
from history.import_plan import FIELDS, MappingError
from history.import_write import ImportRefused, apply_plan, undo
from history.models import ImportBatch
from history.sheet_reader import SheetError


def parse_choices(club, given: list[str]) -> dict:
    """--name 'Sheet name=Member name|new|guest' given on the command line, as choices."""
    choices = {}
    for item in given:
        sheet, sep, choice = item.partition("=")
        if not sep or not sheet.strip() or not choice.strip():
            raise CommandError(f"--name {item!r}: write 'Name in sheet=Member name', "
                               "'=new' or '=guest'.")
        choice = choice.strip()
        if choice.lower() in ("new", "guest"):
            choices[sheet.strip()] = choice.lower()
            continue
        member = Member.objects.filter(club=club, display_name__iexact=choice).first()
        if member is None:
            raise CommandError(f"--name {item!r}: {club.name} has no member {choice!r}.")
        choices[sheet.strip()] = f"member:{member.pk}"
    return choices


class Command(BaseCommand):
    help = ("Import past results from a spreadsheet (one row per player per night, or per hand). "
            "Shows every row's fate; writes nothing with --dry-run. --undo ID removes an import.")

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="The CSV or XLSX file.")
        parser.add_argument("--club", help="The club's slug.")
        for name, words in FIELDS.items():
            parser.add_argument(f"--{name}", metavar="COLUMN", help=f"Column: {words}.")
        parser.add_argument("--month-first", action="store_true",
                            help="Read 4/3/2024 as 3 April (default: day first, 4 March).")
        parser.add_argument("--name", action="append", default=[], metavar="SHEET=CHOICE",
                            help="A name's choice: 'Jon Smith=John Smith' (a member), "
                                 "'Ann=new' (a new member) or 'Bob=guest'. Repeat for each.")
        parser.add_argument("--accept-suggestions", action="store_true",
                            help="Take each suggested match for names without a choice.")
        parser.add_argument("--unmatched", choices=["new", "guest"],
                            help="What a name with no match and no choice becomes.")
        parser.add_argument("--house-rule", help="The house rule slug the nights are filed under "
                            "(default: the club's).")
        parser.add_argument("--skip-refused", action="store_true",
                            help="Import the rest when some nights are refused.")
        parser.add_argument("--dry-run", action="store_true", help="Show the fates; write nothing.")
        parser.add_argument("--undo", type=int, metavar="ID", help="Undo import ID as a whole.")

    def handle(self, *args, **opts):
        if opts["undo"]:
            batch = ImportBatch.objects.filter(pk=opts["undo"]).first()
            if batch is None:
                raise CommandError(f"There is no import {opts['undo']}.")
            try:
                counts = undo(batch)
            except ImportRefused as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write(f"Undid import {batch.pk}: removed {counts['sessions']} nights, "
                              f"{counts['members']} members and {counts['seasons']} seasons it made.")
            return
        if not opts["file"] or not opts["club"]:
            raise CommandError("Give the file and --club SLUG (or --undo ID).")
        club = Club.objects.filter(slug=opts["club"]).first()
        if club is None:
            raise CommandError(f"There is no club {opts['club']!r}.")
        path = Path(opts["file"])
        if not path.is_file():
            raise CommandError(f"There is no file {path}.")
        try:
            batch = import_run.start(club, path.read_bytes(), path.name)
        except SheetError as exc:
            raise CommandError(f"{path.name}: {exc}") from exc
        columns = {**batch.mapping["columns"],
                   **{k: opts[k] for k in FIELDS if opts.get(k)}}
        batch.mapping.update(columns=columns, day_first=not opts["month_first"],
                             house_rule=opts["house_rule"] or "")
        batch.choices = parse_choices(club, opts["name"])
        batch.save()
        try:
            plan = import_run.plan_of(batch, accept_suggestions=opts["accept_suggestions"],
                                      unmatched=opts["unmatched"] or "")
        except MappingError as exc:
            batch.delete()
            raise CommandError(f"The columns are not mapped: {exc}. The sheet's columns: "
                               f"{', '.join(import_run.headers_of(batch))}.") from exc
        self._show(plan, dict(Member.objects.filter(club=club).values_list("pk", "display_name")))
        if opts["dry_run"]:
            batch.delete()
            self.stdout.write("Dry run: nothing was written.")
            return
        try:
            made = apply_plan(batch, plan, skip_refused=opts["skip_refused"])
        except ImportRefused as exc:
            batch.delete()
            raise CommandError(f"Nothing was written. {exc}") from exc
        self.stdout.write(f"Imported as import {batch.pk}: {made['sessions']} nights, "
                          f"{made['tables']} tables, {made['player_nights']} player-nights. "
                          f"Undo with: manage.py import_results --undo {batch.pk}")

    def _show(self, plan, members):
        self.stdout.write("Names:")
        for n in plan.names:
            if n.choice.startswith("member:"):
                what = f"member {members[int(n.choice[7:])]}"
            elif n.choice:
                what = "new member" if n.choice == "new" else "guest"
            elif n.match.suggestion:
                what = (f"CHOOSE (suggested: {members[n.match.suggestion]}, "
                        f"{n.match.score:.0%} alike; --name '{n.name}=NAME|new|guest')")
            else:
                what = "CHOOSE: new member or guest"
            self.stdout.write(f"  {n.name} ({n.rows} rows): {what}")
        self.stdout.write("Rows:")
        for line, fate, words in plan.fates:
            self.stdout.write(f"  line {line}: {'REFUSED: ' if fate == 'refused' else ''}{words}")
        counts = plan.counts()
        self.stdout.write(
            f"{counts['nights']} new nights, {counts['tables']} tables, {counts['rows_ok']} rows "
            f"in, {counts['rows_refused']} refused ({len(plan.refusals)} refusals).")
        if plan.no_season_words():
            self.stdout.write(plan.no_season_words())
        for lines, reason in plan.refusals:
            self.stdout.write(f"  refused, {lines}: {reason}")
