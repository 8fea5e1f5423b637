"""The league API: a season's standings and hand results (JSON, CSV or XLSX), its league rules
and published snapshots, and a club's all-time standings. Seasons are looked up among the clubs
the user may see (members, or anyone for a published club); only club admins change rules or
publish."""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

import exports
from clubs import permissions as perms
from clubs.models import Season
from league.export_sheets import hands_sheet
from league.forms import FORMATS
from league.models import SeasonLeague, Snapshot, rules_of
from league.queries import seen_standings, standings
from league.ranking import PRESETS
from league.seasons import audit_rules
from league.serializers import (
    LeagueRulesSerializer,
    RepublishSerializer,
    SnapshotSerializer,
    StandingsQuerySerializer,
    StandingsSerializer,
    WithdrawnSerializer,
    WithdrawSerializer,
)
from league.views import standings_download, standings_json
from league.withdrawing import (
    PublishRefused,
    publish_snapshot,
    restore_snapshot,
    withdraw_snapshot,
    withdrawn,
)


class _Download(BaseRenderer):
    """Lets ``?format=csv|xlsx`` through DRF's content negotiation; the view answers those
    with a streamed file itself, so this never renders."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else str(data).encode()


class CsvRenderer(_Download):
    media_type, format = "text/csv", "csv"


class XlsxRenderer(_Download):
    media_type, format = exports.EXPORTERS["xlsx"].content_type, "xlsx"


DOWNLOADS = {
    (200, "application/json"): StandingsSerializer,
    (200, "text/csv"): OpenApiTypes.BINARY,
    (200, XlsxRenderer.media_type): OpenApiTypes.BINARY,
    400: OpenApiResponse(description="A filter or format that cannot be used, with its field."),
    404: OpenApiResponse(description="No such season among the clubs you may see."),
}
HAND_DOWNLOADS = {
    **DOWNLOADS,
    (200, "application/json"): OpenApiResponse(
        OpenApiTypes.OBJECT,
        description='{"Hand results": [{"date", "table", "hand", "player", "member_id", '
                    '"wind", "score", "net", "running_total", "mah_jong", "gave", "limit"}]}'),
}
QUERY = [StandingsQuerySerializer]


def visible_season(request, season_id) -> Season:
    # With its club and league rules (rules_of reads them from the join, not a query of their
    # own), among the clubs the user may see: one query.
    return get_object_or_404(
        Season.objects.select_related("club", "league").filter(perms.seen_by(request.user)),
        pk=season_id)


def require_admin(request, club) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    if not perms.can_admin(request.user, club):
        raise PermissionDenied(f"Only a club admin of {club.name} can do this.")


class _StandingsBase(APIView):
    permission_classes = [AllowAny]  # the season or club lookup decides who sees what
    renderer_classes = [JSONRenderer, CsvRenderer, XlsxRenderer]

    def perform_content_negotiation(self, request, force=False):
        fmt = request.query_params.get("format")
        if fmt is not None and fmt not in FORMATS and not force:
            raise ValidationError({"format": [
                f"{fmt!r} is not a format here; use one of {', '.join(FORMATS)}."]})
        return super().perform_content_negotiation(request, force)

    def query(self, request) -> StandingsQuerySerializer:
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return query


@extend_schema(tags=["league"], parameters=QUERY, responses=DOWNLOADS,
               summary="A season's standings as JSON, CSV or XLSX (?format=)")
class SeasonStandingsView(_StandingsBase):
    def get(self, request, season_id: int):
        # The standings with the season, its club, its league rules and who may see them in
        # one query: unfiltered the stored rows, filtered the nights kept, summed. When that
        # finds nothing (a bad filter, no such season, nothing counted yet), the season is
        # looked up first (a 404 before a bad filter's 400), then its standings read.
        query = StandingsQuerySerializer(data=request.query_params)
        found = query.is_valid() and seen_standings(
            perms.seen_by(request.user, "season__club"), query.filters(), season_id=season_id)
        if found:
            (name, slug), table = found
        else:
            season = visible_season(request, season_id)
            query.is_valid(raise_exception=True)
            name, slug = season.name, season.club.slug
            table = standings(rules_of(season), season=season, filters=query.filters())
        filters, fmt = query.filters(), query.validated_data["format"]
        if fmt != "json":
            return standings_download(table, fmt, f"{slug}-{name}-standings", filters)
        return Response(standings_json(table, filters))


@extend_schema(tags=["league"], parameters=QUERY, responses=HAND_DOWNLOADS,
               summary="Every counted hand result of a season as JSON, CSV or XLSX (streamed)")
class SeasonHandResultsView(_StandingsBase):
    renderer_classes = [JSONRenderer, CsvRenderer, XlsxRenderer]

    def get(self, request, season_id: int):
        season = visible_season(request, season_id)
        query = self.query(request)
        return exports.download([hands_sheet(season, query.filters())],
                                query.validated_data["format"],
                                f"{season.club.slug}-{season.name}-hands")


@extend_schema(tags=["league"], parameters=QUERY, responses=DOWNLOADS,
               summary="A club's all-time standings (net points) as JSON, CSV or XLSX")
class ClubStandingsView(_StandingsBase):
    def get(self, request, slug: str):
        # As a season's: the club and its standings in one query.
        query = StandingsQuerySerializer(data=request.query_params)
        found = query.is_valid() and seen_standings(
            perms.seen_by(request.user), query.filters(), club_slug=slug)
        if found:
            (_, slug), table = found  # the club's slug as stored
        else:
            club = get_object_or_404(perms.visible_clubs(request.user), slug=slug)
            query.is_valid(raise_exception=True)
            slug = club.slug
            table = standings(PRESETS["net"][1], club=club, filters=query.filters())
        filters, fmt = query.filters(), query.validated_data["format"]
        if fmt != "json":
            return standings_download(table, fmt, f"{slug}-all-time", filters)
        return Response(standings_json(table, filters))


@extend_schema(tags=["league"])
class LeagueRulesView(APIView):
    """A season's league rules. Anyone who sees the season reads them; club admins change them
    (a preset, then any field), and the standings are recomputed with them at once."""

    permission_classes = [AllowAny]

    @extend_schema(responses=LeagueRulesSerializer)
    def get(self, request, season_id: int):
        return Response(LeagueRulesSerializer(rules_of(visible_season(request, season_id))).data)

    @extend_schema(request=LeagueRulesSerializer, responses=LeagueRulesSerializer)
    def put(self, request, season_id: int):
        season = visible_season(request, season_id)
        require_admin(request, season.club)
        given = LeagueRulesSerializer(data=request.data, context={"current": rules_of(season)})
        given.is_valid(raise_exception=True)
        rules = given.validated_data["rules"]
        with transaction.atomic():
            league, made = SeasonLeague.objects.get_or_create(season=season)
            before = None if made else league.rules().to_dict()
            league.set_rules(rules)
            league.preset = given.validated_data.get("preset", "")
            league.updated_by = request.user
            league.save()
            audit_rules(season, request.user, before, rules.to_dict(), league.preset)
        return Response(LeagueRulesSerializer(rules).data)


@extend_schema(tags=["league"])
class SnapshotsView(APIView):
    """Published standings of a season, newest first; club admins publish (POST)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=SnapshotSerializer(many=True))
    def get(self, request, season_id: int):
        season = visible_season(request, season_id)
        return Response(SnapshotSerializer(season.league_snapshots.all(), many=True).data)

    @extend_schema(request=SnapshotSerializer, responses={201: SnapshotSerializer})
    def post(self, request, season_id: int):
        season = visible_season(request, season_id)
        require_admin(request, season.club)
        given = SnapshotSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            snapshot = publish_snapshot(season, request.user, given.validated_data.get("as_of"),
                                        given.validated_data.get("note", ""))
        except PublishRefused as err:
            raise ValidationError(err.errors) from err
        return Response(SnapshotSerializer(snapshot).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["league"], responses=SnapshotSerializer)
class SnapshotView(APIView):
    permission_classes = [AllowAny]

    def get(self, request, season_id: int, snapshot_id: int):
        season = visible_season(request, season_id)
        return Response(SnapshotSerializer(
            get_object_or_404(Snapshot, pk=snapshot_id, season=season)).data)

    @extend_schema(request=WithdrawSerializer, responses={200: WithdrawnSerializer})
    def delete(self, request, season_id: int, snapshot_id: int):
        """Withdraw published standings (club admins): gone from the pages and the API, kept
        whole in the club's audit trail, from where ``snapshots/withdrawn/`` publishes them
        again."""
        season = visible_season(request, season_id)
        require_admin(request, season.club)
        snapshot = get_object_or_404(Snapshot, pk=snapshot_id, season=season)
        given = WithdrawSerializer(data=request.data if isinstance(request.data, dict) else {})
        given.is_valid(raise_exception=True)
        entry = withdraw_snapshot(snapshot, request.user, given.validated_data.get("reason", ""))
        return Response(WithdrawnSerializer(entry).data)


@extend_schema(tags=["league"])
class WithdrawnSnapshotsView(APIView):
    """A season's withdrawn standings (club admins), and publishing one again as it was."""

    permission_classes = [AllowAny]

    @extend_schema(responses=WithdrawnSerializer(many=True))
    def get(self, request, season_id: int):
        season = visible_season(request, season_id)
        require_admin(request, season.club)
        return Response(WithdrawnSerializer(withdrawn(season), many=True).data)

    @extend_schema(request=RepublishSerializer, responses={201: SnapshotSerializer})
    def post(self, request, season_id: int):
        season = visible_season(request, season_id)
        require_admin(request, season.club)
        given = RepublishSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        entry = next((e for e in withdrawn(season) if e.pk == given.validated_data["entry"]),
                     None)
        if entry is None:
            raise ValidationError({"entry": ["No withdrawn standings of this season have this "
                                             "id (see GET on this address)."]})
        try:
            snapshot = restore_snapshot(entry, request.user)
        except PublishRefused as err:
            raise ValidationError(err.errors) from err
        return Response(SnapshotSerializer(snapshot).data, status=status.HTTP_201_CREATED)


