"""``Table.state`` keeps each seat's member (so recording a hand reads one row): when seats
change hands (a guest made a member, two members merged, a re-seat), the affected tables'
copies are written again from the seats. No engine runs. A rename writes no table: the names
shown are read at the time (``clubs.table_state.named_now``); the names kept in the state are
only what they were when it was written."""

from __future__ import annotations

from django.db import transaction

from clubs.models import Seat, Table


def refresh_seat_names(table_ids) -> int:
    """Write each table's ``state["seats"]`` names and members from its ``Seat`` rows, under
    the tables' row locks (a hand being recorded meanwhile waits, then reads the new names).
    The state's revision moves on, so a writer that read the old state cannot overwrite it.
    Returns how many tables changed."""
    table_ids = sorted(set(table_ids))
    if not table_ids:
        return 0
    changed = []
    with transaction.atomic():
        tables = list(Table.objects.select_for_update().filter(pk__in=table_ids)
                      .exclude(state__isnull=True).only("id", "state"))
        seats = {pk: (name or guest, member)
                 for pk, name, guest, member in Seat.objects.filter(table_id__in=table_ids)
                 .values_list("pk", "member__display_name", "guest_name", "member_id")}
        for table in tables:
            state = table.state
            rows = state.get("seats") or []
            new_rows = [[row[0], *seats[row[0]][:1], row[2], row[3], seats[row[0]][1]]
                        if row and row[0] in seats else row for row in rows]
            if new_rows != rows:
                state["seats"] = new_rows
                state["rev"] = state.get("rev", 0) + 1
                changed.append(table)
        Table.objects.bulk_update(changed, ["state"], batch_size=200)
    return len(changed)
