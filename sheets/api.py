"""The sheets in the API: ``GET /api/v1/sessions/{id}/sheet/`` and ``/tables/{id}/sheet/``, as
JSON (the figures every sheet shows), PDF, CSV or XLSX, chosen by ``?format=`` or the Accept
header. Whoever may read the session may read its sheets (a published club's, anyone)."""

from __future__ import annotations

from typing import NamedTuple

from django.http import Http404, StreamingHttpResponse
from django.utils.text import slugify
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from clubs import permissions as perms
from clubs.api import ClubScoped
from clubs.models import ClubSession, Table
from sheets.build import (
    FORMATS,
    SheetRequest,
    SheetRequestError,
    check_blank,
    check_layout,
    check_start,
)
from sheets.data import (
    LAYOUTS,
    Player,
    SessionSheet,
    SheetHand,
    TableSheet,
    default_layout,
    ending,
    pick_layout,
)
from sheets.renderers import DOWNLOAD_RENDERERS, _Download

PARAMETERS = [
    OpenApiParameter("format", str, enum=["json", *FORMATS],
                     description="json (the default), pdf (the printed sheets, A4), csv or xlsx "
                                 "(one row per hand per seat). The Accept header may ask "
                                 "instead."),
    OpenApiParameter("layout", str, enum=list(LAYOUTS),
                     description="per_player (004's sheet for each player) or tally (002's "
                                 "running tallies); the house rule's own when left out."),
    OpenApiParameter("blank", bool,
                     description="Sheets to fill in by hand, with the names, date and winds."),
    OpenApiParameter("start", int,
                     description="The tally each player's running total starts from on this "
                                 "sheet (002's tally sticks: 2000); the house rule's own when "
                                 "left out. It moves the running totals only."),
]


class Transfer(NamedTuple):
    payer: int | str  # a seat id, or "pot"
    payee: int | str
    amount: int


class TransferSerializer(serializers.Serializer):
    """Renders a ``Transfer``: what one party paid another over a hand, summed."""

    payer = serializers.CharField(help_text="A seat id, or 'pot' for the pot or kitty.")
    payee = serializers.CharField(help_text="A seat id, or 'pot' for the pot or kitty.")
    amount = serializers.IntegerField()


class SheetHandSerializer(serializers.Serializer):
    """Renders a ``sheets.data.SheetHand``; the context holds its ``table`` (a TableSheet)."""

    number = serializers.IntegerField()
    prevailing_wind = serializers.CharField()
    winds = serializers.DictField(child=serializers.CharField(),
                                  help_text="Seat id -> the wind played; a seat sitting out "
                                            "is absent.")
    counted = serializers.BooleanField(help_text="False for a voided or unscorable hand.")
    ending = serializers.SerializerMethodField(
        help_text="How the hand ended, or why it counts for nothing.")
    scores = serializers.DictField(child=serializers.IntegerField())
    transfers = serializers.SerializerMethodField()
    net = serializers.DictField(child=serializers.IntegerField())
    totals_before = serializers.DictField(child=serializers.IntegerField(), source="before")
    totals_after = serializers.DictField(child=serializers.IntegerField(), source="after")
    pot_before = serializers.IntegerField()
    pot_after = serializers.IntegerField()

    def get_ending(self, hand: SheetHand) -> str:
        return ending(hand, self.context["table"])

    @extend_schema_field(TransferSerializer(many=True))
    def get_transfers(self, hand: SheetHand) -> list:
        return TransferSerializer([Transfer(a, b, n) for (a, b), n in hand.transfers.items()],
                                  many=True).data


class SheetPlayerSerializer(serializers.Serializer):
    """Renders a ``sheets.data.Player``; the context holds its ``table``."""

    seat = serializers.IntegerField(source="seat_id")
    name = serializers.CharField()
    starting_wind = serializers.CharField(allow_blank=True)
    final_total = serializers.SerializerMethodField(
        help_text="The per-player sheet's Final totals.")

    def get_final_total(self, player: Player) -> int:
        return self.context["table"].final(player.seat_id)


class SheetTableSerializer(serializers.Serializer):
    """Renders a ``sheets.data.TableSheet``."""

    table = serializers.IntegerField(source="id")
    number = serializers.IntegerField()
    starting_tally = serializers.IntegerField(source="start")
    players = serializers.SerializerMethodField()
    hands = serializers.SerializerMethodField()

    @extend_schema_field(SheetPlayerSerializer(many=True))
    def get_players(self, table: TableSheet) -> list:
        return SheetPlayerSerializer(table.players, many=True, context={"table": table}).data

    @extend_schema_field(SheetHandSerializer(many=True))
    def get_hands(self, table: TableSheet) -> list:
        return SheetHandSerializer(table.hands, many=True, context={"table": table}).data


class StandingSerializer(serializers.Serializer):
    """Renders a ``sheets.data.Standing``."""

    place = serializers.CharField()
    name = serializers.CharField()
    tables = serializers.ListField(child=serializers.IntegerField())
    hands = serializers.IntegerField()
    total = serializers.IntegerField()


class SheetSerializer(serializers.Serializer):
    """Renders a ``sheets.data.SessionSheet``; the context holds the ``session`` id and whether
    the sheet is the ``whole`` session's (only then with the night's standings)."""

    session = serializers.SerializerMethodField()
    heading = serializers.CharField(help_text="Club, date, house rule and its version.")
    layout = serializers.ChoiceField(choices=list(LAYOUTS))
    tables = SheetTableSerializer(many=True)
    standings = serializers.SerializerMethodField(
        help_text="The night's final totals and places (the whole session only).")

    def get_session(self, sheet: SessionSheet) -> int:
        return self.context["session"]

    @extend_schema_field(StandingSerializer(many=True))
    def get_standings(self, sheet: SessionSheet) -> list:
        return StandingSerializer(sheet.standings if self.context["whole"] else (),
                                  many=True).data


class LayoutPickSerializer(serializers.Serializer):
    layout = serializers.ChoiceField(
        choices=list(LAYOUTS), allow_null=True,
        help_text="per_player or tally for this session; null for the house rule's own.")


class LayoutAnswerSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    layout = serializers.ChoiceField(choices=list(LAYOUTS),
                                     help_text="The sheet the session now prints.")
    house_rule_layout = serializers.ChoiceField(choices=list(LAYOUTS))
    picked = serializers.BooleanField(help_text="A scorer picked it (else the house rule's).")


RESPONSES = {
    (200, "application/json"): SheetSerializer,
    **{(200, r.media_type): OpenApiResponse(OpenApiTypes.BINARY, description=f"The sheets as {r.format.upper()}.")
       for r in DOWNLOAD_RENDERERS},
    400: OpenApiResponse(description="A format, layout or blank the sheets do not know "
                                     "(field path and a sentence)."),
}


class SheetActions(ClubScoped):
    """The ``sheet`` action shared by sessions and tables."""

    public_read = True
    renderer_classes = [JSONRenderer, *DOWNLOAD_RENDERERS]
    serializer_class = SheetSerializer

    def perform_content_negotiation(self, request, force=False):
        try:
            return super().perform_content_negotiation(request, force)
        except Http404 as exc:  # DRF's answer to an unknown ?format=, with no word of why
            if force or not request.query_params.get("format"):
                raise
            raise ValidationError({"format": [
                f"{request.query_params['format']!r} is not a format of the score sheets: use "
                f"one of json, {', '.join(FORMATS)}."]}) from exc

    def finalize_response(self, request, response, *args, **kwargs):
        # An error is answered in JSON (its field paths), whatever format was asked for.
        if isinstance(response, Response) and response.status_code >= 400 and isinstance(
                getattr(request, "accepted_renderer", None), _Download):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    def answer(self, request, session: ClubSession, table: Table | None):
        try:
            asked = SheetRequest(session, table, check_layout(request.query_params.get("layout")),
                                 check_blank(request.query_params.get("blank")),
                                 check_start(request.query_params.get("start")))
        except SheetRequestError as err:
            raise ValidationError(err.errors) from None
        fmt = request.accepted_renderer.format
        if fmt == "json":
            return Response(SheetSerializer(asked.sheet(), context={
                "session": session.pk, "whole": table is None}).data)
        content_type, extension, chunks = asked.render(fmt)
        response = StreamingHttpResponse(chunks, content_type=content_type)
        name = slugify(asked.filename_stem)
        response["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'
        return response


@extend_schema(tags=["sessions"])
class SessionSheetViewSet(SheetActions, viewsets.GenericViewSet):
    action_roles = {"sheet_layout": perms.SCORER}

    def get_queryset(self):
        return ClubSession.objects.filter(
            club__in=perms.visible_clubs(self.request.user)
        ).select_related("club", "house_rule_version__record")

    @extend_schema(parameters=PARAMETERS, responses=RESPONSES,
                   summary="The night's score sheets")
    @action(detail=True)
    def sheet(self, request, pk=None):
        """Every table's score sheets (the per-player sheets of 004 or the tally sheet of
        002), then the night's final totals and places."""
        return self.answer(request, self.get_object(), None)

    @extend_schema(request=LayoutPickSerializer, responses=LayoutAnswerSerializer,
                   summary="Pick the session's score sheet")
    @action(detail=True, methods=["post"], url_path="sheet-layout",
            renderer_classes=[JSONRenderer])
    def sheet_layout(self, request, pk=None):
        """Scorers pick the sheet a session prints, whatever its house rule names (null goes
        back to the house rule's own)."""
        session = self.get_object()
        serializer = LayoutPickSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        _, now = pick_layout(session, serializer.validated_data["layout"], request.user)
        house = default_layout(session)
        return Response({"session": session.pk, "layout": now or house,
                         "house_rule_layout": house, "picked": now is not None})


@extend_schema(tags=["sessions"])
class TableSheetViewSet(SheetActions, viewsets.GenericViewSet):
    club_path = "session.club"

    def get_queryset(self):
        return Table.objects.filter(
            session__club__in=perms.visible_clubs(self.request.user)
        ).select_related("session__club", "session__house_rule_version__record")

    @extend_schema(parameters=PARAMETERS, responses=RESPONSES,
                   summary="One table's score sheets")
    @action(detail=True)
    def sheet(self, request, pk=None):
        """One table's score sheets."""
        table = self.get_object()
        return self.answer(request, table.session, table)
