"""Keeps ``NightResult`` (one row per seat) in step with the stored hand results: clubs sends
``table_recomputed`` inside the transaction of every record, correction, void and swap, and the
rows here are rebuilt in that same transaction (a rollback takes both)."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.db.models.signals import post_save
from django.dispatch import receiver

from clubs.models import ClubSession, HandResult, Seat, Table
from clubs.signals import table_recomputed
from league.models import NightResult
from league.ranking import places, table_points


def night_rows(table: Table, models=None) -> list[NightResult]:
    """The table's summary rows from its seats and their stored results (two queries). A table
    with no counted hand has none; a seat that sat out every hand of a table that played (a
    five-player night) has its night with no hands."""
    result_model, seat_model, night_model = models or (HandResult, Seat, NightResult)
    session = table.session
    totals = {
        row["seat_id"]: row
        for row in result_model.objects.filter(hand__table=table).values("seat_id").annotate(
            hands=Count("id"), net=Sum("net"), mahjongs=Count("id", filter=Q(won=True)),
            given=Count("id", filter=Q(gave=True)),
            limits=Count("id", filter=~Q(limit="")),
            best=Max("score", filter=Q(won=True)),
        )
    }
    if not totals:
        return []
    seats = list(seat_model.objects.filter(table=table).only("id", "member_id", "guest_name"))
    nets = {seat.id: (totals[seat.id]["net"] if seat.id in totals else 0) for seat in seats}
    placed = places(nets)
    rows = []
    for seat in seats:
        got = totals.get(seat.id, {})
        place, tied = placed[seat.id]
        rows.append(night_model(
            seat_id=seat.id, table_id=table.pk, club_id=session.club_id,
            season_id=session.season_id, session_id=session.pk, member_id=seat.member_id,
            guest_name=seat.guest_name, date=session.date,
            house_rule_id=session.house_rule_version.record_id, table_number=table.number,
            hands=got.get("hands", 0), net=nets[seat.id], mahjongs=got.get("mahjongs", 0),
            given=got.get("given", 0), limits=got.get("limits", 0),
            best_score=got.get("best") or 0, place=place, tied=tied,
            points_zero=table_points(place, tied, "4-2-1-0"),
            points_half=table_points(place, tied, "4-2-1-0.5"),
        ))
    return rows


def refresh_table(table: Table, models=None) -> None:
    """Rebuild the table's rows (atomic; inside the caller's transaction when there is one)."""
    night_model = models[2] if models else NightResult
    with transaction.atomic():
        night_model.objects.filter(table_id=table.pk).delete()
        night_model.objects.bulk_create(night_rows(table, models))


@receiver(table_recomputed, sender=Table, dispatch_uid="league-refresh-table")
def _table_recomputed(sender, table, **kwargs):
    refresh_table(table)


@receiver(post_save, sender=ClubSession, dispatch_uid="league-session-moved")
def _session_saved(sender, instance, created, **kwargs):
    # A night moved to another season or date, or its house rule changed: the rows say where.
    if created:
        return
    NightResult.objects.filter(session_id=instance.pk).exclude(
        season_id=instance.season_id, date=instance.date,
        house_rule_id=instance.house_rule_version.record_id,
    ).update(season_id=instance.season_id, date=instance.date,
             house_rule_id=instance.house_rule_version.record_id)


def refresh_all(tables=None, apps=None) -> int:
    """Rebuild every table's rows (or those given): the ``refresh_league`` command, and the
    migration that fills the summary for nights recorded before this app (with its
    historical ``apps``)."""
    models = None
    if apps is not None:
        models = tuple(apps.get_model(*name.split(".")) for name in (
            "clubs.HandResult", "clubs.Seat", "league.NightResult"))
        tables = apps.get_model("clubs", "Table").objects.all()
    count = 0
    qs = tables if tables is not None else Table.objects.all()
    for table in qs.select_related("session__house_rule_version").iterator(chunk_size=200):
        refresh_table(table, models)
        count += 1
    return count
