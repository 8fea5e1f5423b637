"""``manage.py compare_rules --season ID --rules bmja,guide [--format csv|xlsx|json]``: recorded
play replayed under several house rules, printed as a summary or written in an export format.
Nothing recorded changes."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError
from rest_framework import serializers

from compare import runs
from compare.exports import comparison_sheets
from compare.models import Comparison
from compare.replay_compare import table_name
from compare.rule_choice import chosen_rules
from compare.scope import ScopeError, resolve_scope
from exports import UnknownFormat, get_exporter


class Operator:
    """Whoever runs manage.py on the server sees every club and house rule."""

    is_authenticated = True
    is_superuser = True
    pk = None


def _sentence(error: serializers.ValidationError) -> str:
    parts = []

    def walk(path, value):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{path}.{k}" if path else k, v)
        elif isinstance(value, list):
            for v in value:
                walk(path, v)
        else:
            parts.append(f"{path}: {value}" if path else str(value))

    walk("", error.detail)
    return " ".join(parts)


class Command(BaseCommand):
    help = ("Replay a season, night, table or dates under several house rules: totals, places "
            "and changes of place, the hands that change most, and hands not valid under a rule.")

    def add_arguments(self, parser):
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--season", type=int, help="A season's id.")
        what.add_argument("--session", type=int, help="A club night's id.")
        what.add_argument("--table", type=int, help="A table's id.")
        what.add_argument("--club", help="A club's slug, with --from and --to.")
        what.add_argument("--resume", help="Queue again the unfinished tables of comparison ID.")
        parser.add_argument("--from", dest="start", help="First date, e.g. 2026-01-01.")
        parser.add_argument("--to", dest="end", help="Last date.")
        parser.add_argument("--rules", default="", help="House rules' slugs, e.g. bmja,guide.")
        parser.add_argument("--format", dest="fmt", help="csv, xlsx or json (default: a summary).")
        parser.add_argument("--output", help="Write to this file instead of standard output.")
        parser.add_argument("--background", action="store_true",
                            help="Queue the tables for the workers (manage.py db_worker) and "
                                 "print the comparison's id instead of waiting.")

    def handle(self, *args, season=None, session=None, table=None, club=None, resume=None,
               start=None, end=None, rules="", fmt=None, output=None, background=False, **options):
        if resume:
            comparison = Comparison.objects.filter(pk=resume).first() if _is_uuid(resume) else None
            if comparison is None:
                raise CommandError(f"No comparison {resume!r}: give the id the page or API shows.")
            queued = runs.enqueue(comparison)
            self.stdout.write(f"{queued} worker task(s) queued for the unfinished tables of "
                              f"comparison {comparison.pk} (none for what is already queued or "
                              "being replayed).")
            return
        spec = ({"season": season} if season is not None else {"session": session}
                if session is not None else {"table": table} if table is not None
                else {"club": club, "from": start, "to": end} if club else {})
        try:
            chosen = chosen_rules(rules, Operator())
            scope = resolve_scope(spec, Operator())
            exporter = get_exporter(fmt) if fmt else None
        except serializers.ValidationError as error:
            raise CommandError(_sentence(error)) from None
        except ScopeError as error:
            raise CommandError(f"{error} Say what to compare with --season, --session, --table "
                               "or --club with --from and --to.") from None
        except UnknownFormat as error:
            raise CommandError(str(error)) from None
        comparison = runs.start(scope, chosen, None, background=background)
        if comparison.report is None:
            self.stdout.write(f"Comparison {comparison.pk} queued: {comparison.tables_total} "
                              "tables for the workers (manage.py db_worker).")
            return
        if exporter is None:
            self._summary(comparison)
            return
        out = open(output, "wb") if output else sys.stdout.buffer  # noqa: SIM115
        try:
            for chunk in exporter.render(comparison_sheets(comparison)):
                out.write(chunk)
        finally:
            if output:
                out.close()
            else:
                out.flush()

    def _summary(self, comparison) -> None:
        report = comparison.report
        slugs = report["rules"]
        counts = report["counts"]
        self.stdout.write(f"{comparison.title}: {counts['tables']} tables, {counts['hands']} "
                          f"hands ({counts['rescored']} rescored from tiles, {counts['kept']} "
                          f"kept the score typed in), comparison {comparison.pk}")
        head = f"{'player':<24}" + "".join(f"{s[:14]:>16}{'place':>7}" for s in slugs)
        self.stdout.write(head)
        for p in report["players"]:
            # A rule that fits none of the player's tables gives no total and no place.
            cells = "".join(f"{_cell(t):>16}{_cell(pl):>7}"
                            for t, pl in zip(p["totals"], p["places"], strict=True))
            self.stdout.write(f"{p['name'][:24]:<24}{cells}")
        for slug in slugs:
            self.stdout.write(f"Not valid under {slug}: {report['invalid_count'][slug]} hand(s)")
        for r in report["refused"]:
            self.stdout.write(f"{table_name(r.get('table_number'), r['date'])}: {r['reason']}")


def _cell(value) -> str:
    return "-" if value is None else str(value)


def _is_uuid(value: str) -> bool:
    import uuid

    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
