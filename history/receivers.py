"""What history does when clubs says a table's results changed (``table_recomputed``, sent in
the write's transaction after league has rebuilt the table's summary rows), and when a night
is saved (closed, moved to another date).

Recording a hand at the end of a table (``appended`` with ``from_number`` > 1) is the hot path:
nothing here adds a statement to it. The rating reads such nights as they stand when it is
next shown (``history.rating_store.ensure_fresh`` recomputes from the club's nights in play
when their rows and hands differ from the last rebuild's, ``live_mark``: each such hand adds
to the hands); the first hand of a table, a correction, a void, a swap, closing the night and
the summary rebuilt from scratch (`refresh_league`)
mark it out of date here, since they may change results without adding a hand.

A delete that removes results (a club, a season, a night or a table: the Django admin, the API,
the pages, an import undone) marks the rating out of date before anything is deleted, in the
delete's transaction (``pre_delete``, which Django sends for every row it is about to delete,
before the first DELETE): the order ``rating_store.mark_stale`` explains, so that a read
recomputing the rating at that moment queues behind the delete instead of deadlocking with it
or rewriting lines of the nights just deleted."""

from __future__ import annotations

from django.db.models import Min, QuerySet
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from clubs.models import Club, ClubSession, Member, Season, Table
from clubs.signals import players_moved, table_recomputed
from history import night_rows
from history.models import ImportedTable, RatingLine
from history.rating_store import mark_stale
from league.models import NightResult
from league.signals import standings_shown
from league.summary import summary_rebuilt


@receiver(table_recomputed, sender=Table, dispatch_uid="history-table-recomputed")
def _table_recomputed(sender, table, from_number=1, appended=None, **kwargs):
    if appended is not None and from_number > 1:
        return
    # League rebuilt the table's rows from hand results alone: an imported table (played on
    # after its night was reopened) adds its imported totals back.
    night_rows.derive([table.pk])
    session = table.session
    mark_stale(session.club_id, session.date)


@receiver(post_save, sender=ClubSession, dispatch_uid="history-session-saved")
def _session_saved(sender, instance, created, **kwargs):
    if created:
        return
    earliest = (RatingLine.objects.filter(table__session=instance).order_by("date")
                .values_list("date", flat=True).first())
    mark_stale(instance.club_id, min(d for d in (instance.date, earliest) if d))


@receiver(summary_rebuilt, sender=NightResult, dispatch_uid="history-summary-rebuilt")
def _summary_rebuilt(sender, tables=None, **kwargs):
    imported = ImportedTable.objects.all()
    if tables is not None:
        imported = imported.filter(table_id__in=tables.values("pk"))
    night_rows.derive(imported.values_list("table_id", flat=True))
    # The rows were rebuilt from scratch and may differ from what the rating last read without
    # a hand's count changing (``live_mark``): every club with the rating on recomputes from
    # the first night rebuilt.
    nights = ClubSession.objects.filter(club__rating_settings__enabled=True)
    if tables is not None:
        nights = nights.filter(pk__in=tables.values("session_id"))
    for club_id, first in nights.values("club_id").annotate(first=Min("date")).values_list(
            "club_id", "first"):
        mark_stale(club_id, first)


@receiver(players_moved, sender=Member, dispatch_uid="history-players-moved")
def _players_moved(sender, club, session_ids, **kwargs):
    # A guest made a member, or two members merged (or either undone): the rating's lines from
    # the first of those nights on are recomputed on the next read.
    first = (ClubSession.objects.filter(pk__in=list(session_ids)).order_by("date")
             .values_list("date", flat=True).first())
    if first is not None:
        mark_stale(club.pk, first)


@receiver(standings_shown, sender=Club, dispatch_uid="history-standings-shown")
def _standings_shown(sender, club, season, request, **kwargs):
    # The rating table beside the standings, when the club has turned it on.
    from history.views import rating_beside

    return rating_beside(request, club, season)


# -- deletes that take results with them ------------------------------------------------------

_HOLDS_RESULTS = (Club, Season, ClubSession, Table)


def _within_another(sender, origin) -> bool:
    """The row goes with a bigger delete (a night's tables with the night, a club's nights with
    the club) whose own receiver marks the rating: one mark per delete, not one per row."""
    model = origin.model if isinstance(origin, QuerySet) else type(origin)
    return model is not sender and issubclass(model, _HOLDS_RESULTS)


def _earliest(rows) -> object:
    return rows.aggregate(first=Min("date"))["first"]


@receiver(pre_delete, sender=Club, dispatch_uid="history-club-deleting")
def _club_deleting(sender, instance, origin=None, **kwargs):
    first = _earliest(ClubSession.objects.filter(club=instance))
    if first is not None:
        mark_stale(instance.pk, first)


@receiver(pre_delete, sender=Season, dispatch_uid="history-season-deleting")
def _season_deleting(sender, instance, origin=None, **kwargs):
    if _within_another(sender, origin):
        return
    # Its nights hold it (PROTECT); its rating lines (a night moved to another season, the
    # rating not read since) go with it.
    first = min((d for d in (_earliest(NightResult.objects.filter(season=instance)),
                             _earliest(RatingLine.objects.filter(season=instance))) if d),
                default=None)
    if first is not None:
        mark_stale(instance.club_id, first)


@receiver(pre_delete, sender=ClubSession, dispatch_uid="history-session-deleting")
def _session_deleting(sender, instance, origin=None, **kwargs):
    if not _within_another(sender, origin):
        mark_stale(instance.club_id, instance.date)


@receiver(pre_delete, sender=Table, dispatch_uid="history-table-deleting")
def _table_deleting(sender, instance, origin=None, **kwargs):
    if _within_another(sender, origin):
        return
    night = ClubSession.objects.filter(pk=instance.session_id).values_list(
        "club_id", "date").first()
    if night is not None:
        mark_stale(*night)
