"""The door in the API, under ``/api/v1/sessions/{id}/door/``: the night's check-ins, the host's
rules, the draw and its quality, swapping, accepting, and the table cards PDF.

Scorers and club admins run the door: everyone else who can see the club gets a 403 saying so,
anyone who cannot see it a 404, anonymous callers a 401/403 asking them to log in.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from clubs import permissions as perms
from clubs.api import ClubScoped, Conflict
from clubs.models import ClubSession, Member
from door import cards
from door.checkin import DoorError, check_in_guest, check_in_member, takings, update
from door.drawing import DrawConflict, accept, make_draw, swap_players
from door.models import CheckIn, DrawRule, RuleKind, TableDraw
from door.tonight import door_state
from door.views import RUNS_THE_DOOR


class CheckInSerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)

    class Meta:
        model = CheckIn
        fields = ["id", "name", "member", "guest_name", "newcomer", "arrived", "left",
                  "money_due", "paid"]
        read_only_fields = fields


class CheckInCreateSerializer(serializers.Serializer):
    member = serializers.IntegerField(required=False, help_text="A member of the club.")
    guest_name = serializers.CharField(required=False, max_length=200,
                                       help_text="Or a guest's name.")
    newcomer = serializers.BooleanField(required=False, default=False)

    def validate(self, data):
        if ("member" in data) == bool(data.get("guest_name", "").strip()):
            raise ValidationError({"member": ["Give a member's id or a guest's name (one)."]})
        return data


class CheckInUpdateSerializer(serializers.Serializer):
    left = serializers.BooleanField(required=False, help_text="Gone home (leaves the draw).")
    paid = serializers.BooleanField(required=False)
    newcomer = serializers.BooleanField(required=False)


class RuleSerializer(serializers.ModelSerializer):
    text = serializers.CharField(source="__str__", read_only=True)

    class Meta:
        model = DrawRule
        fields = ["id", "kind", "first", "second", "table_number", "text"]
        read_only_fields = ["id", "text"]

    def validate(self, data):
        session = self.context["session"]
        for name in ("first", "second"):
            row = data.get(name)
            if row is not None and (row.session_id != session.pk or row.left is not None):
                raise ValidationError({name: ["Name someone checked in tonight."]})
        if data["kind"] == RuleKind.FIXED:
            if data.get("second") is not None or not data.get("table_number"):
                raise ValidationError({"table_number": [
                    "A fixed table names one person (first) and a table_number from 1."]})
        else:
            if data.get("second") is None or data.get("table_number") is not None:
                raise ValidationError({"second": [
                    "Apart and together name two people (first, second) and no table."]})
            if data["second"] == data["first"]:
                raise ValidationError({"second": ["Name two different people."]})
        return data


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(help_text="A drawn player's check-in id.")
    second = serializers.IntegerField(help_text="Another drawn player's check-in id.")
    revision = serializers.IntegerField(help_text="The draw's revision you looked at.")


class AcceptSerializer(serializers.Serializer):
    revision = serializers.IntegerField(help_text="The draw's revision you looked at.")


class DrawRequestSerializer(serializers.Serializer):
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1,
                                    help_text="Fix the draw (the same seed, the same tables).")


def door_data(session: ClubSession) -> dict:
    state = door_state(session)
    draw = state["draw"]
    money = takings(session)
    data = {
        "session": session.pk,
        "check_ins": CheckInSerializer(state["here"] + state["gone"], many=True).data,
        "rules": RuleSerializer(state["rules"], many=True).data,
        "takings": {"paid": f"{money.paid:.2f}", "owed": f"{money.owed:.2f}",
                    "currency": money.currency},
        "draw": None,
        "tables": [t.pk for t in state["tables"]],
    }
    if draw is not None:
        data["draw"] = {
            "revision": draw.revision,
            "seed": draw.seed,
            "accepted": draw.is_accepted,
            "stale": state["stale"],
            "tables": [{"number": t["number"],
                        "seats": [{"check_in": s["pk"], "name": s["name"], "wind": s["letter"]}
                                  for s in t["seats"]]} for t in state["draw_tables"]],
            "quality": {**draw.quality, "repeats": [
                {"first": a, "second": b, "times_this_season": n}
                for a, b, n in state["repeats"]]},
        }
    return data


DOOR = OpenApiResponse(OpenApiTypes.OBJECT, description="The night at the door: check-ins, "
                       "rules, takings, the draw with its quality, the tables it seated.")


@extend_schema(tags=["door"])
class DoorViewSet(ClubScoped, viewsets.GenericViewSet):
    lookup_value_regex = "[0-9]+"
    serializer_class = CheckInSerializer

    def get_queryset(self):
        return ClubSession.objects.filter(
            club__in=perms.visible_clubs(self.request.user)
        ).select_related("club", "house_rule_version__record")

    def session(self) -> ClubSession:
        session = self.get_object()
        if not perms.can_record(self.request.user, session.club):
            raise PermissionDenied(RUNS_THE_DOOR)
        return session

    def handle_exception(self, exc):
        if isinstance(exc, DoorError):
            exc = ValidationError(exc.errors)
        elif isinstance(exc, DrawConflict):
            exc = Conflict({"revision": [str(exc)], "current": exc.revision})
        return super().handle_exception(exc)

    def check_object_permissions(self, request, obj):
        # Reading the door needs the scorer's role too (``session`` says so in words).
        return None

    @extend_schema(responses=DOOR, summary="The night at the door")
    @action(detail=True, url_path="door")
    def door(self, request, pk=None):
        return Response(door_data(self.session()))

    @extend_schema(request=CheckInCreateSerializer, responses={201: CheckInSerializer},
                   summary="Check someone in")
    @action(detail=True, methods=["post"], url_path="door/check-ins")
    def check_ins(self, request, pk=None):
        session = self.session()
        asked = CheckInCreateSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        data = asked.validated_data
        if "member" in data:
            member = Member.objects.filter(club=session.club, pk=data["member"]).first()
            if member is None:
                raise ValidationError({"member": ["No such member of this club."]})
            row = check_in_member(session, member)
            if data.get("newcomer"):
                update(row, newcomer=True)
        else:
            row = check_in_guest(session, data["guest_name"], data.get("newcomer", False))
        return Response(CheckInSerializer(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CheckInUpdateSerializer, responses=CheckInSerializer,
                   summary="Gone home, back again, paid, newcomer")
    @action(detail=True, methods=["patch"],
            url_path=r"door/check-ins/(?P<check_in_id>[0-9]+)")
    def check_in(self, request, pk=None, check_in_id=None):
        session = self.session()
        row = CheckIn.objects.filter(session=session, pk=check_in_id).select_related(
            "member", "session").first()
        if row is None:
            raise ValidationError({"check_in": ["No such check-in tonight."]})
        asked = CheckInUpdateSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        return Response(CheckInSerializer(update(row, **asked.validated_data)).data)

    @extend_schema(request=RuleSerializer, responses={201: RuleSerializer},
                   summary="Add a rule for the draw")
    @action(detail=True, methods=["post"], url_path="door/rules")
    def rules(self, request, pk=None):
        session = self.session()
        asked = RuleSerializer(data=request.data, context={"session": session})
        asked.is_valid(raise_exception=True)
        rule = asked.save(session=session)
        return Response(RuleSerializer(rule).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None}, summary="Remove a rule for the draw")
    @action(detail=True, methods=["delete"], url_path=r"door/rules/(?P<rule_id>[0-9]+)")
    def rule(self, request, pk=None, rule_id=None):
        session = self.session()
        DrawRule.objects.filter(session=session, pk=rule_id).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=DrawRequestSerializer, responses=DOOR,
                   summary="Draw (or draw again) tonight's tables")
    @action(detail=True, methods=["post"], url_path="door/draw")
    def draw(self, request, pk=None):
        session = self.session()
        asked = DrawRequestSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        make_draw(session, asked.validated_data.get("seed"))
        return Response(door_data(session))

    @extend_schema(request=SwapSerializer, responses=DOOR, summary="Swap two drawn players")
    @action(detail=True, methods=["post"], url_path="door/draw/swap")
    def swap(self, request, pk=None):
        session = self.session()
        asked = SwapSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        current = TableDraw.objects.filter(session=session).first()
        if current is None:
            raise ValidationError({"revision": ["There is no draw yet: draw first."]})
        data = asked.validated_data
        swap_players(session, current, data["first"], data["second"], data["revision"])
        return Response(door_data(session))

    @extend_schema(request=AcceptSerializer, responses={201: DOOR, 200: DOOR},
                   summary="Accept the draw: seat its tables")
    @action(detail=True, methods=["post"], url_path="door/draw/accept")
    def accept(self, request, pk=None):
        """Seats every drawn table with its starting winds in one transaction. The same
        revision again answers 200 with the tables already made (nothing doubled); an older
        revision is a 409."""
        session = self.session()
        asked = AcceptSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        _, made = accept(session, asked.validated_data["revision"])
        return Response(door_data(session),
                        status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)

    @extend_schema(parameters=[OpenApiParameter("paper", str, enum=list(cards.PAPERS),
                                                description="a4 (four cards a sheet and the "
                                                            "wall sheet) or a6 (a card a page)")],
                   responses={(200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY)},
                   summary="Table cards (PDF)")
    @action(detail=True, url_path="door/cards")
    def cards(self, request, pk=None):
        session = self.session()
        paper = request.query_params.get("paper", "a4")
        if paper not in cards.PAPERS:
            raise ValidationError({"paper": [f"Use {' or '.join(cards.PAPERS)}."]})
        try:
            night = cards.night_cards(session)
        except cards.NoTables as err:
            raise ValidationError({"tables": [str(err)]}) from None
        response = HttpResponse(cards.render(night, paper), content_type=cards.CONTENT_TYPE)
        response["Content-Disposition"] = (
            f'attachment; filename="tables-{session.date:%Y-%m-%d}-{paper}.pdf"')
        return response
