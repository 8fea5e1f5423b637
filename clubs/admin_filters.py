"""Admin list filters that cost the same however big the database grows.

Django's filter on a foreign key lists every row it points to (every season of every club, each
naming its club with one more query): the sidebar grew with the database. Here the club filter
lists clubs in one query (at most ``CLUBS_LISTED``; others are reached by their id in the
address, as the club's own admin links give it), and the season filter lists the chosen club's
seasons only."""

from __future__ import annotations

from django.contrib import admin
from django.core.paginator import Paginator
from django.db import connection
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Season

CLUBS_LISTED = 100


def _id(value) -> int | None:
    return int(value) if value is not None and str(value).isascii() and str(value).isdigit() \
        else None


class ClubFilter(admin.SimpleListFilter):
    """By club; ``path`` is the lookup from the listed model to its club's id."""

    title = _("club")
    parameter_name = "club"
    path = "club_id"

    def lookups(self, request, model_admin):
        return list(Club.objects.order_by("name").values_list("id", "name")[:CLUBS_LISTED])

    def queryset(self, request, queryset):
        if (club := _id(self.value())) is not None:
            return queryset.filter(**{self.path: club})
        return queryset


class SeasonFilter(admin.SimpleListFilter):
    """By season, offered once a club is chosen: the seasons of that club only."""

    title = _("season")
    parameter_name = "season"
    path = "season_id"

    def lookups(self, request, model_admin):
        club = _id(request.GET.get(ClubFilter.parameter_name))
        if club is not None:
            seasons = Season.objects.filter(club_id=club)
        elif (season := _id(self.value())) is not None:
            seasons = Season.objects.filter(pk=season)  # chosen by its id: shown, and applied
        else:
            return []
        return list(seasons.order_by("-start").values_list("id", "name"))

    def queryset(self, request, queryset):
        if (season := _id(self.value())) is not None:
            return queryset.filter(**{self.path: season})
        return queryset


def club_filter(path: str) -> type[ClubFilter]:
    """A club filter for a model whose club is ``path`` away (``table__session__club_id``)."""
    return type(f"ClubFilter_{path}", (ClubFilter,), {"path": path})



class EstimatedCountPaginator(Paginator):
    """The admin's paginator for the tables that grow by the hand: unfiltered, on PostgreSQL,
    the row count is the planner's estimate (``pg_class.reltuples``, kept by autovacuum's
    ANALYZE), not a ``COUNT(*)`` of millions of rows on every page; filtered lists, and SQLite,
    are counted exactly. The admin shows "about" nothing: the pages at the end may be off by
    the rows recorded since the last ANALYZE."""

    @cached_property
    def count(self) -> int:
        query = getattr(self.object_list, "query", None)
        if query is not None and not query.where and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
                               [self.object_list.model._meta.db_table])
                row = cursor.fetchone()
            if row and row[0] >= 0:  # -1: never analysed yet
                return int(row[0])
        return super().count
