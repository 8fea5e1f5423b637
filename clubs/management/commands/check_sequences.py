"""manage.py check_sequences: every stored night checked against its house rule's rotation (who
deals, the seat winds, the wind of the round), for nights corrected before corrections re-seated
the hands after them (issue #21)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import AuditAction, AuditEntry, Club, Hand, Table
from clubs.table_state import recorded_hands, rules_of, seats_of
from play import KEPT, sequence_breaks

BATCH = 200  # tables read at a time: two queries each batch, memory bounded


class Command(BaseCommand):
    help = (
        "Check every table's stored sequence of hands against its house rule's rotation and "
        "list each hand the rotation forbids. Exit status 1 when there is one. With --mark, "
        "mark those hands as played on as recorded (the table went on as the sheet shows; "
        "audited) instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", help="Only this club (its slug).")
        parser.add_argument("--mark", action="store_true",
                            help="Mark each hand found as seated as the table played it.")

    def handle(self, *args, club=None, mark=False, **options):
        tables = Table.objects.select_related("session__club").order_by("pk")
        if club is not None:
            if not Club.objects.filter(slug=club).exists():
                raise CommandError(f"No club {club!r}: give a club's slug (its address name).")
            tables = tables.filter(session__club__slug=club)
        found = checked = 0
        ids = list(tables.values_list("pk", flat=True))
        for start in range(0, len(ids), BATCH):
            batch = {t.pk: t for t in tables.filter(pk__in=ids[start:start + BATCH])}
            hands = recorded_hands(list(batch))
            for table_id, table in batch.items():
                checked += 1
                breaks = sequence_breaks(seats_of(table), hands[table_id],
                                         rules_of(table.session, table).rule)
                if not breaks:
                    continue
                found += len(breaks)
                where = f"{table.session.club.name}, {table.session.date}, table {table.number}"
                for found_break in breaks:
                    self.stdout.write(f"{where}: {found_break}")
                if mark:
                    self._mark(table, [b.number for b in breaks])
        if found and not mark:
            self.stderr.write(f"{found} hand(s) in {checked} table(s) seated as the rotation "
                              "forbids: correct them, or run again with --mark if the tables "
                              "played on as recorded.")
            raise SystemExit(1)
        said = f"marked {found} hand(s) as played on as recorded" if found else "no hand found"
        self.stdout.write(self.style.SUCCESS(f"{checked} table(s) checked: {said}."))

    @staticmethod
    def _mark(table: Table, numbers: list[int]) -> None:
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=table.pk)
            hands = list(Hand.objects.filter(table=table, number__in=numbers))
            for hand in hands:
                hand.facts = {**(hand.facts or {}), KEPT: True}
            Hand.objects.bulk_update(hands, ["facts"])
            AuditEntry.objects.create(
                club_id=table.session.club_id, action=AuditAction.UPDATE, object_type="table",
                object_id=str(table.pk), before={"seating_kept": []},
                after={"seating_kept": numbers},
                note="manage.py check_sequences --mark: seated as the table played on.")
