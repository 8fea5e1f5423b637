"""The league summary (``league.NightResult``) of imported tables, derived from what the import
brought in (``ImportedTotal``), so standings count imported nights as they count recorded ones.

A table that later also got hands recorded (its night reopened) adds both: league's own
rebuild sums the hand results, then this adds the imported totals on top and ranks again."""

from __future__ import annotations

from history.models import ImportedTable, ImportedTotal
from league import standings_store
from league.models import NightResult
from league.ranking import places, table_points
from league.summary import HISTORY


def derive(table_ids) -> int:
    """Rewrite the NightResult rows of these imported tables; returns how many tables."""
    table_ids = list(ImportedTable.objects.filter(table_id__in=list(table_ids))
                     .values_list("table_id", flat=True))
    if not table_ids:
        return 0
    totals = {t.seat_id: t for t in ImportedTotal.objects.filter(table_id__in=table_ids)}
    existing = {n.seat_id: n for n in NightResult.objects.filter(table_id__in=table_ids)}
    from clubs.models import Seat

    seats = (Seat.objects.filter(table_id__in=table_ids)
             .select_related("table__session__house_rule_version"))
    by_table: dict[int, list] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    write = []
    for table_id, table_seats in by_table.items():
        rows = {}
        for seat in table_seats:
            session = seat.table.session
            row = existing.get(seat.pk)
            recorded = row is not None and row.counted and row.hands and _has_hands(row)
            total = totals.get(seat.pk)
            imported_hands, imported_net = (total.hands, total.net) if total else (0, 0)
            rows[seat.pk] = NightResult(
                seat_id=seat.pk, table_id=table_id, club_id=session.club_id,
                season_id=session.season_id, session_id=session.pk, member_id=seat.member_id,
                guest_name=seat.guest_name, date=session.date,
                house_rule_id=session.house_rule_version.record_id,
                table_number=seat.table.number, counted=True,
                # The recorded hands' part of the row (without what an earlier derive added).
                hands=(row.hands - row.imported_hands if recorded else 0) + imported_hands,
                net=(row.net - row.imported_net if recorded else 0) + imported_net,
                mahjongs=row.mahjongs if recorded else 0, given=row.given if recorded else 0,
                limits=row.limits if recorded else 0,
                best_score=max(row.best_score if recorded else 0, total.best_score if total else 0),
                **{name: getattr(row, name) if recorded else 0 for name in HISTORY},
                paid=row.paid if recorded else {},
                imported=True, imported_hands=imported_hands, imported_net=imported_net,
                place=1, tied=1, points_zero=0, points_half=0)
        ranks = places({pk: r.net for pk, r in rows.items()})
        for pk, row in rows.items():
            row.place, row.tied = ranks[pk]
            row.points_zero = table_points(row.place, row.tied, "4-2-1-0")
            row.points_half = table_points(row.place, row.tied, "4-2-1-0.5")
            write.append(row)
    rows = NightResult.objects.filter(table_id__in=table_ids)
    with standings_store.tracking(rows):  # the stored standings take the difference
        rows.delete()
        NightResult.objects.bulk_create(write, batch_size=500)
    return len(by_table)


def _has_hands(row) -> bool:
    # A row league made from recorded hands (an imported table reopened and played on); rows
    # this module wrote carry the imported figures only and are rebuilt from them.
    from clubs.models import HandResult

    return HandResult.objects.filter(seat_id=row.seat_id).exists()
