"""Rebuilding a table's derived results from what was entered."""

from __future__ import annotations

from django.db import transaction

from clubs.models import Hand, HandResult, Table
from clubs.signals import table_recomputed
from clubs.table_state import build_table_state
from play import HandRow, TableState

# -- recomputing ----------------------------------------------------------------------------


def recompute_table(table: Table, from_number: int | None = None) -> TableState:
    """Rebuild the table's derived results from what was entered: ``Table.state``, each
    hand's ``Hand.computed`` and the ``HandResult`` rows, then tell the feature apps
    (``clubs.signals.table_recomputed``), all in one transaction.

    The whole night is replayed (each hand's seating and pot come from the hands before it).
    Given ``from_number`` (a correction of that hand), only hands from there on whose figures
    moved are written; without it every hand's results are written again. Idempotent. Hands the engines now refuse (a house rule fixed after the night) keep no
    results and carry their ``error``."""
    with transaction.atomic():
        old = Table.objects.select_for_update().values_list("state", flat=True).get(pk=table.pk)
        rev = (old or {}).get("rev", 0) + 1
        state = build_table_state(table)
        session = table.session
        members = {s.id: s.member_id for s in state.seats}
        if from_number is None:
            changed = list(state.hands)
        else:
            stored = dict(Hand.objects.filter(table=table, number__gte=from_number)
                          .values_list("id", "computed"))
            changed = [row for row in state.hands
                       if row.number >= from_number and stored.get(row.id) != row.to_json()]
        Hand.objects.bulk_update(
            [Hand(pk=row.id, computed=row.to_json()) for row in changed], ["computed"],
            batch_size=200)
        HandResult.objects.filter(hand_id__in=[row.id for row in changed]).delete()
        HandResult.objects.bulk_create([
            HandResult(hand_id=row.id, club_id=session.club_id, season_id=session.season_id,
                       session_id=session.pk, **fields)
            for row in changed if row.counted
            for fields in _row_result_fields(row, members)
        ])
        Table.objects.filter(pk=table.pk).update(state=state.snapshot(rev))
        table.state = state.snapshot(rev)
        table_recomputed.send(sender=Table, table=table, from_number=from_number or 1,
                              appended=None)
    return state


def _row_result_fields(row: HandRow, members: dict) -> list[dict]:
    """``_result_fields`` of a replayed row."""
    winds = row.seating.winds
    return [
        {
            "seat_id": seat_id,
            "member_id": members.get(seat_id),
            "seat_wind": winds[seat_id],
            "score": score,
            "net": row.net.get(seat_id, 0),
            "running_total": row.totals[seat_id],
            "won": seat_id == row.winner,
            "gave": seat_id == row.discarder,
            "limit": (getattr(row.results.get(seat_id), "limit", None) or "")[:60],
        }
        for seat_id, score in row.scores.items()
    ]

