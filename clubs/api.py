"""The club REST API: clubs, members, seasons, sessions, tables, hands and the audit trail.

Every queryset is scoped to the clubs the user may see (``clubs.permissions``), so another
club's objects answer 404; a role too low for a change answers 403. Recording and correcting
hands go through ``clubs.recording`` exactly as the pages do.
"""

from __future__ import annotations

import json
from contextlib import contextmanager

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Prefetch, ProtectedError
from django.http import Http404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotAuthenticated, PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response

from clubs import mending
from clubs import permissions as perms
from clubs.members.changes import undo_change, would_leave_no_admin
from clubs.members.merge import (
    MoveRefused,
    guest_names,
    guest_to_member,
    merge_members,
    undo_move,
    undoable,
)
from clubs.members.serializers import (
    FromGuestSerializer,
    GuestSerializer,
    MergeSerializer,
    MoveHandsSerializer,
    MoveSerializer,
    ReseatSerializer,
    UndoneSerializer,
    UndoSerializer,
    VoidTableSerializer,
)
from clubs.models import (
    AuditAction,
    AuditEntry,
    Club,
    ClubSession,
    Hand,
    Member,
    Season,
    Table,
)
from clubs.recording import (
    HandConflict,
    HandInputError,
    correct_hand,
    preview_hand,
    record_hand,
    swap_seats,
    void_hand,
)
from clubs.seasons import close_season, undo_season_change
from clubs.serializers import (
    AuditEntrySerializer,
    ClubSerializer,
    CorrectHandSerializer,
    HandConflictSerializer,
    HandListSerializer,
    HandOutSerializer,
    MemberSerializer,
    RecordHandSerializer,
    SeasonSerializer,
    SessionSerializer,
    SessionTotalsSerializer,
    SwapSeatsSerializer,
    TableSerializer,
    TableStateSerializer,
    VoidSerializer,
    hand_context,
)
from clubs.table_state import stored_table_state
from play import RESEAT, HandRow, SeatInfo, SeatingError, TableState


def row_id(value) -> int | None:
    """A database id from a query parameter or a body field, or None if it cannot be one."""
    # ASCII digits only: int() also reads "²"-free digits of other scripts ("٦" is 6), which
    # no client means as an id.
    if isinstance(value, str) and value.isascii() and value.isdecimal():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63:
        return value
    return None


def id_filter(params, name: str, what: str) -> int | None:
    """``?<name>=<id>``: the id, or None when the query does not name one (absent or empty).
    A value that cannot be an id (text, zero or less, past the id columns' range) is a 400
    naming the parameter, as the league's filters answer: read as no match it gave an empty
    list that looked like an answer."""
    value = params.get(name)
    if not value:
        return None
    if (found := row_id(value)) is None:
        raise DRFValidationError({name: [f"Give the id of a {what}: a whole number from 1."]})
    return found


def is_text(value: str) -> bool:
    """Text a database can be asked about: PostgreSQL refuses a NUL character outright."""
    return "\x00" not in value


def _jsonable(data):
    return None if data is None else json.loads(json.dumps(data, cls=DjangoJSONEncoder))


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class HandTaken(Conflict):
    """A 409 with both sides of it, the answer kept as data (ids stay numbers)."""

    def __init__(self, err: HandConflict):
        super().__init__(str(err))
        self.detail = {"detail": str(err), "saved": err.saved and recorded_hand_answer(err.saved),
                       "yours": err.entry}


@contextmanager
def recording_answers():
    """The recording service's refusals as API answers: bad input 400 with its field paths,
    a hand number another scorer took first 409."""
    try:
        yield
    except SeatingError:
        raise  # not the request's fault: ClubScoped.handle_exception answers 409
    except HandInputError as err:
        raise DRFValidationError(err.errors) from err
    except HandConflict as err:
        raise HandTaken(err) from err


class ClubScoped:
    """Mixed into each viewset: which club an object belongs to, and the role checks."""

    permission_classes = [perms.ClubObjectPermission]
    # Ids in paths are ASCII digits ("/hands/٦/" is no hand; int() would read it as 6).
    lookup_value_regex = "[0-9]+"
    # Anonymous visitors may read published clubs' objects of this kind.
    public_read = False
    write_role = perms.SCORER
    action_roles: dict[str, str] = {}

    # Where an object's club is, as attributes to follow ("" for a club itself).
    club_path = "club"

    def of_club_asked(self, queryset):
        """Only the club named by ``?club=<slug>``, if the query names one."""
        if club := self.request.query_params.get("club"):
            queryset = queryset.filter(club__slug=club) if is_text(club) else queryset.none()
        return queryset

    def club_of(self, obj) -> Club:
        for name in filter(None, self.club_path.split(".")):
            obj = getattr(obj, name)
        return obj

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        # A list of what only members read needs a login (it names nothing). An address of one
        # object goes on to get_object, so a private club's object is a 404 for anonymous
        # callers too, as for a signed-in outsider and for an object that does not exist.
        if (not self.public_read and not request.user.is_authenticated
                and (self.lookup_url_kwarg or self.lookup_field) not in self.kwargs):
            raise NotAuthenticated()

    def permission_denied(self, request, message=None, code=None):
        # An anonymous change to one object of a club the caller may not see is a 404, as its
        # reading is: "log in" would say the object is there. Only the status of a refusal
        # changes here; what may be seen is the viewset's queryset.
        lookup = self.lookup_url_kwarg or self.lookup_field
        if not request.user.is_authenticated and lookup in self.kwargs and not (
                self.get_queryset().filter(**{self.lookup_field: self.kwargs[lookup]}).exists()):
            raise Http404
        super().permission_denied(request, message=message, code=code)

    def handle_exception(self, exc):
        # A table whose seats cannot start a game (seated outside the pages) is not the request's
        # fault: say what is wrong with the table instead of failing.
        if isinstance(exc, SeatingError):
            exc = Conflict({"seats": [*exc.errors["seats"],
                                      "Seat the players again at a new table (POST /api/v1/tables/) to go on."]})
        return super().handle_exception(exc)

    # Every change made through the API leaves an audit entry (hands: clubs.recording does).
    def perform_create(self, serializer):
        instance = serializer.save()
        self.audit(AuditAction.CREATE, instance, None, serializer.data)

    def perform_update(self, serializer):
        before = self.get_serializer(serializer.instance).data
        instance = serializer.save()
        self.audit(AuditAction.UPDATE, instance, before, serializer.data)

    def perform_destroy(self, instance):
        before = self.get_serializer(instance).data
        club, pk, name = self.club_of(instance), instance.pk, instance._meta.model_name
        instance.delete()
        AuditEntry.objects.create(
            club=club, user=self.request.user, action=AuditAction.DELETE, object_type=name,
            object_id=str(pk), before=_jsonable(before),
        )

    def audit(self, action: str, instance, before, after) -> None:
        AuditEntry.objects.create(
            club=self.club_of(instance),
            user=self.request.user,
            action=action,
            object_type=instance._meta.model_name,
            object_id=str(instance.pk),
            before=_jsonable(before),
            after=_jsonable(after),
        )

    def require(self, club: Club, role: str | None = None) -> None:
        """403 unless the user has ``role`` (the view's write role by default) at ``club``."""
        role = role or perms.required_role(self)
        if not perms.has_role(self.request.user, club, role):
            names = {perms.ADMIN: "club admins", perms.SCORER: "scorers and club admins"}
            raise PermissionDenied(f"Only {names[role]} of {club.name} can do this.")


class ParentChecked(ClubScoped):
    """For viewsets that create objects (and only those: a read-only viewset given ``create``
    would be routed a POST it cannot answer)."""

    # The body field naming the parent a new object belongs to, and how to find its club
    # among those the user can see: checked before the body, so a member learns "not allowed"
    # rather than what else is wrong with the request.
    parent_field: str | None = None

    def parent_club(self, value) -> Club | None:
        return None

    def check_parent(self, data) -> None:
        if self.parent_field and isinstance(data, dict):
            value = data.get(self.parent_field)
            club = self.parent_club(value) if isinstance(value, str | int) else None
            if club is not None:
                self.require(club)

    def create(self, request, *args, **kwargs):
        self.check_parent(request.data)
        return super().create(request, *args, **kwargs)


class OfOneClub(ParentChecked):
    """Objects that belong straight to a club (members, seasons, sessions): the body names
    the club by slug, and creating one needs the write role there."""

    parent_field = "club"

    def parent_club(self, value):
        if not is_text(str(value)):
            return None  # the serializer's slug field says what is wrong with it
        return perms.visible_clubs(self.request.user).filter(slug=str(value)).first()

    def perform_create(self, serializer):
        self.require(serializer.validated_data["club"])
        super().perform_create(serializer)

    def perform_update(self, serializer):
        # Its hands, seats and sessions stay with the club they were recorded at.
        club = serializer.validated_data.get("club")
        if club is not None and club != serializer.instance.club:
            kind = serializer.instance._meta.model_name.removeprefix("club")
            raise DRFValidationError({"club": [f"A {kind} cannot move to another club."]})
        super().perform_update(serializer)


class RefusedSerializer(serializers.Serializer):
    non_field_errors = serializers.ListField(child=serializers.CharField(),
                                             help_text="Why it was refused, in sentences.")


CLUB_KEPT = ("This club has history that is kept: nights in a season, or members who sat at a "
             "table. It cannot be deleted whole; a club admin can stop publishing it instead.")


@extend_schema(tags=["clubs"])
@extend_schema_view(destroy=extend_schema(
    summary="Delete a club and its history (the service's people only)",
    responses={
        204: OpenApiResponse(description="Deleted; the service's audit entry of it names no "
                                         "club."),
        403: OpenApiResponse(description="Only the people who run this service delete a club: "
                                         "a club admin can stop publishing it."),
        404: OpenApiResponse(description="No such club among those you may see."),
        409: OpenApiResponse(RefusedSerializer, description=(
            "The club's history keeps it (nights in a season, or members who sat at a table): "
            "nothing was deleted, and the sentence says what a club admin can do instead, e.g. "
            f'{{"non_field_errors": ["{CLUB_KEPT}"]}}.')),
    }))
class ClubViewSet(ClubScoped, viewsets.ModelViewSet):
    """Clubs you belong to, and clubs that publish their sessions. Any signed-in person may
    start a club (POST) and becomes its first admin; its admins change it."""

    serializer_class = ClubSerializer
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"
    club_path = ""
    public_read = True
    write_role = perms.ADMIN
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return perms.visible_clubs(self.request.user).order_by("name")

    def perform_create(self, serializer):
        serializer.save()  # clubs.starting.start_club: the club, its admin, the audit entries

    def perform_destroy(self, instance):
        if not self.request.user.is_superuser:
            raise PermissionDenied("A club and its history are deleted by the people who run "
                                   "this service: write to them. Until then a club admin can "
                                   "stop publishing it.")
        before = _jsonable(self.get_serializer(instance).data)
        pk = instance.pk
        try:
            with transaction.atomic():
                instance.delete()
                # The club's own trail goes with it (its entries name it): the service's entry
                # of the delete names no club.
                AuditEntry.objects.create(
                    club=None, user=self.request.user, action=AuditAction.DELETE,
                    object_type="club", object_id=str(pk), before=before,
                    note=f"The club {before.get('name', pk)} deleted.")
        except ProtectedError:
            raise Conflict({"non_field_errors": [CLUB_KEPT]}) from None


CLUB_FILTER = OpenApiParameter("club", str, description="Only this club (its slug).")


@extend_schema(tags=["clubs"], parameters=[CLUB_FILTER])
class MemberViewSet(OfOneClub, viewsets.ModelViewSet):
    """A club's members (with or without a login). Club admins change them."""

    serializer_class = MemberSerializer
    write_role = perms.ADMIN
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        qs = Member.objects.filter(club__in=perms.member_clubs(self.request.user))
        return self.of_club_asked(qs).select_related("club", "user").order_by(
            "club__name", "display_name"
        )

    def perform_destroy(self, instance):
        if instance.seats.exists():
            raise DRFValidationError(
                {"non_field_errors": [f"{instance.display_name} has played hands: set them "
                                      "inactive instead of deleting them."]}
            )
        super().perform_destroy(instance)

    def perform_update(self, serializer):
        # The pages' checks: the club keeps an admin who can log in; a new name reaches the
        # tables' stored states.
        member, data = serializer.instance, serializer.validated_data
        role, active = data.get("role", member.role), data.get("active", member.active)
        if would_leave_no_admin(member, role, active):
            raise DRFValidationError({"role" if role != "admin" else "active": [
                f"{member.display_name} is the club's only admin who can log in: make another "
                "member admin first."]})
        # A rename is the member's row only: every night reads names as they are now.
        super().perform_update(serializer)

    def _club_asked(self, slug) -> Club:
        club = perms.member_clubs(self.request.user).filter(slug=str(slug or "")).first() if (
            is_text(str(slug or ""))) else None
        if club is None:
            raise DRFValidationError({"club": ["Name one of your clubs by its slug."]})
        return club

    @extend_schema(parameters=[OpenApiParameter("club", str, required=True,
                                                description="The club (its slug).")],
                   responses=GuestSerializer(many=True))
    @action(detail=False, pagination_class=None)
    def guests(self, request):
        """Each guest name that played at the club: what can be turned into a member."""
        club = self._club_asked(request.query_params.get("club"))
        return Response(GuestSerializer(guest_names(club), many=True).data)

    @extend_schema(request=FromGuestSerializer, responses={200: MoveSerializer})
    @action(detail=False, methods=["post"], url_path="from-guest")
    def from_guest(self, request):
        """Turn a guest into a member: the guest's past hands, nights and standings become
        the member's (an existing member, or a new one) in one audited move."""
        club = self._club_asked(request.data.get("club") if isinstance(request.data, dict)
                                else None)
        self.require(club, perms.ADMIN)
        body = FromGuestSerializer(data=request.data, context={"request": request, "club": club})
        body.is_valid(raise_exception=True)
        data = body.validated_data
        with member_moves():
            move = guest_to_member(club, data["guest_name"], data.get("member"),
                                   seat_ids=data.get("seats"), new_name=data.get("new_name", ""),
                                   user=request.user)
        return Response(MoveSerializer(move).data)

    @extend_schema(request=MergeSerializer, responses={200: MoveSerializer})
    @action(detail=True, methods=["post"])
    def merge(self, request, pk=None):
        """This member was entered twice: ``duplicate``'s hands, nights, check-ins and login
        become this member's, and ``duplicate`` is deleted (undo puts it back)."""
        keep = self.get_object()
        body = MergeSerializer(data=request.data, context={"request": request, "club": keep.club})
        body.is_valid(raise_exception=True)
        with member_moves():
            move = merge_members(keep, body.validated_data["duplicate"], user=request.user)
        return Response(MoveSerializer(move).data)

    @extend_schema(request=UndoSerializer, responses={200: UndoneSerializer})
    @action(detail=False, methods=["post"])
    def undo(self, request):
        """Put back a change of a member: name, role or active, a guest made a member, or a
        merge, where the data allows (400 with the reason otherwise)."""
        body = UndoSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = AuditEntry.objects.filter(
            pk=body.validated_data["entry"], object_type="member",
            club__in=perms.member_clubs(request.user)).select_related("club").first()
        if entry is None:
            raise DRFValidationError({"entry": ["No change of a member of your clubs has this "
                                                "id."]})
        self.require(entry.club, perms.ADMIN)
        with member_moves():
            done = (undo_move(entry, user=request.user) if undoable(entry)
                    else undo_change(entry, user=request.user))
        if done is None:
            raise DRFValidationError({"entry": ["Nothing to put back: the member is as they "
                                                "were before this change."]})
        return Response(UndoneSerializer(done).data)


@contextmanager
def member_moves():
    """A move refused by the members' rules: 400 with its sentence by field."""
    try:
        yield
    except MoveRefused as err:
        raise DRFValidationError(err.errors) from err


@extend_schema(tags=["clubs"], parameters=[CLUB_FILTER])
class SeasonViewSet(OfOneClub, viewsets.ModelViewSet):
    """Seasons and leagues. Club admins change them."""

    serializer_class = SeasonSerializer
    write_role = perms.ADMIN
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        qs = Season.objects.filter(club__in=perms.member_clubs(self.request.user))
        return self.of_club_asked(qs).select_related("club")

    def perform_destroy(self, instance):
        if instance.sessions.exists():
            raise DRFValidationError(
                {"non_field_errors": ["This season has sessions; move them first."]}
            )
        super().perform_destroy(instance)

    @extend_schema(request=None, responses={200: SeasonSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """End the season today, where the club plays (club admins); ``undo`` with the audit
        entry reopens it."""
        season = self.get_object()
        with member_moves():
            close_season(season, user=request.user)
        season.refresh_from_db()
        return Response(SeasonSerializer(season, context={"request": request}).data)

    @extend_schema(request=UndoSerializer, responses={200: SeasonSerializer})
    @action(detail=True, methods=["post"])
    def undo(self, request, pk=None):
        """Put the season's name and dates back as they were before a change or its closing
        (``entry``: the audit entry of that change)."""
        season = self.get_object()
        body = UndoSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = AuditEntry.objects.filter(pk=body.validated_data["entry"], club=season.club,
                                          object_type="season",
                                          object_id=str(season.pk)).first()
        if entry is None:
            raise DRFValidationError({"entry": ["No change of this season has this id."]})
        with member_moves():
            undo_season_change(entry, user=request.user)
        season.refresh_from_db()
        return Response(SeasonSerializer(season, context={"request": request}).data)


@extend_schema(tags=["sessions"], parameters=[CLUB_FILTER])
class SessionViewSet(OfOneClub, viewsets.ModelViewSet):
    """Club nights. Scorers open and edit them; only club admins delete one."""

    serializer_class = SessionSerializer
    public_read = True
    action_roles = {"destroy": perms.ADMIN}
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        qs = ClubSession.objects.filter(club__in=perms.visible_clubs(self.request.user))
        qs = self.of_club_asked(qs).select_related("club", "house_rule_version__record")
        if self.action == "list":
            # A page of nights names its tables by id and its house rule by slug and number:
            # the tables' stored state and the rule's whole text (JSON, decoded once per row)
            # were most of the list's time (issue #27).
            return qs.defer("house_rule_version__data", "house_rule_version__record__overrides"
                            ).prefetch_related(Prefetch("tables", queryset=Table.objects.only(
                                "id", "session_id", "number")))
        return qs.prefetch_related("tables")

    def perform_destroy(self, instance):
        # Only a night with no hand recorded: one started by mistake (audited, undoable).
        with member_moves():
            mending.delete_session(instance, user=self.request.user)

    @extend_schema(responses=SessionTotalsSerializer)
    @action(detail=True)
    def totals(self, request, pk=None):
        """Each player's hands and net total over every table of the session."""
        session = self.get_object()
        return Response(SessionTotalsSerializer(session).data)


@extend_schema(tags=["sessions"],
               parameters=[OpenApiParameter("session", int, description="Only this session.")])
class TableViewSet(ParentChecked, mixins.CreateModelMixin, mixins.DestroyModelMixin,
                   viewsets.ReadOnlyModelViewSet):
    """Tables of a session with their seats. Scorers add tables (with the players seated);
    club admins delete one."""

    serializer_class = TableSerializer
    club_path = "session.club"
    public_read = True
    action_roles = {"destroy": perms.ADMIN, "swap_seats": perms.SCORER,
                    "reseat": perms.SCORER, "void_hands": perms.ADMIN,
                    "move_hands": perms.ADMIN}

    def get_queryset(self):
        qs = Table.objects.filter(session__club__in=perms.visible_clubs(self.request.user))
        if (session := id_filter(self.request.query_params, "session", "night")) is not None:
            qs = qs.filter(session_id=session)
        return qs.select_related("session__club").prefetch_related("seats__member")

    parent_field = "session"

    def parent_club(self, value):
        if (session_id := row_id(value)) is None:
            return None
        session = ClubSession.objects.filter(
            pk=session_id, club__in=perms.visible_clubs(self.request.user)
        ).select_related("club").first()
        return session.club if session else None

    def perform_create(self, serializer):
        self.require(serializer.validated_data["session"].club)
        super().perform_create(serializer)

    def perform_destroy(self, instance):
        # Only a table with no counted hand: one started by mistake (audited, undoable).
        with member_moves():
            mending.delete_table(instance, user=self.request.user)

    @extend_schema(request=ReseatSerializer, responses={200: TableSerializer})
    @action(detail=True, methods=["post"])
    def reseat(self, request, pk=None):
        """Correct who sat at each seat (a wrong member picked, a guest typed for a member):
        the hands stay with the seats. Starting winds change only while the table has no
        hand."""
        table = self.get_object()
        if not (table.session.is_open or perms.can_admin(request.user, table.session.club)):
            raise PermissionDenied("This night is closed: only a club admin can mend it.")
        body = ReseatSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        with member_moves():
            mending.reseat_table(table, body.validated_data["seats"], user=request.user)
        table.refresh_from_db()
        return Response(TableSerializer(table, context={"request": request}).data)

    @extend_schema(request=VoidTableSerializer, responses={200: TableStateSerializer})
    @action(detail=True, methods=["post"], url_path="void-hands")
    def void_hands(self, request, pk=None):
        """Void every counted hand of a table started by mistake (club admins); ``undo``
        with the audit entry counts them again."""
        table = self.get_object()
        body = VoidTableSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        with member_moves():
            mending.void_table(table, user=request.user,
                               reason=body.validated_data.get("reason", ""))
        table.refresh_from_db()
        return Response(table_state_answer(stored_table_state(table)))

    @extend_schema(request=MoveHandsSerializer, responses={200: TableStateSerializer})
    @action(detail=True, methods=["post"], url_path="move-hands")
    def move_hands(self, request, pk=None):
        """This table was started twice for the same players (club admins): its hands move
        after ``target``'s own (a table of the same night), each player's entries to their
        seat there; both tables are recomputed. Answers ``target``'s state."""
        table = self.get_object()
        body = MoveHandsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        target = Table.objects.filter(pk=body.validated_data["target"],
                                      session_id=table.session_id).first()
        if target is None:
            raise DRFValidationError({"target": ["Give a table of the same night."]})
        with member_moves():
            mending.move_hands(table, target, user=request.user)
        target.refresh_from_db()
        return Response(table_state_answer(stored_table_state(target)))

    @extend_schema(request=UndoSerializer, responses={200: UndoneSerializer})
    @action(detail=False, methods=["post"])
    def undo(self, request):
        """Put back a mended mistake (club admins): a deleted night or table, a table's voided
        hands, a re-seat, hands moved (``entry``: its audit entry)."""
        body = UndoSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = AuditEntry.objects.filter(
            pk=body.validated_data["entry"], object_type__in=["table", "clubsession"],
            club__in=perms.member_clubs(request.user)).select_related("club").first()
        if entry is None:
            raise DRFValidationError({"entry": ["No mended table or night of your clubs has "
                                                "this id."]})
        self.require(entry.club, perms.ADMIN)
        with member_moves():
            done = mending.undo(entry, user=request.user)
        return Response(UndoneSerializer(done).data)

    @extend_schema(responses=TableStateSerializer)
    @action(detail=True)
    def state(self, request, pk=None):
        """Every hand with seat scores, payments and running totals; the pot; the next hand's
        East and winds."""
        table = self.get_object()
        return Response(table_state_answer(stored_table_state(table)))

    @extend_schema(request=SwapSeatsSerializer, responses=TableStateSerializer)
    @action(detail=True, methods=["post"], url_path="swap-seats")
    def swap_seats(self, request, pk=None):
        """Two players were recorded the wrong way round from ``from_hand`` on: exchange what
        was entered for them in those hands, and recompute."""
        table = self.get_object()
        serializer = SwapSeatsSerializer(data=request.data, context={"table": table})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with recording_answers():
            swap_seats(table, data["seat_a"], data["seat_b"], data["from_hand"], request.user,
                       data.get("reason", ""))
        return Response(table_state_answer(stored_table_state(table)))


HAND_ERRORS = {
    400: OpenApiResponse(description="What is wrong, by field (seats' hands under seats.<wind>)."),
    409: OpenApiResponse(HandConflictSerializer, description=(
        "Another entry took this hand number first (or this client_id saved another entry): "
        "the saved hand and yours, side by side.")),
}


@extend_schema(tags=["hands"],
               parameters=[OpenApiParameter("table", int, description="Only this table."),
                           OpenApiParameter("session", int,
                                            description="Only this session's tables.")])
class HandViewSet(ClubScoped, mixins.CreateModelMixin, mixins.UpdateModelMixin,
                  viewsets.ReadOnlyModelViewSet):
    """Recorded hands. POST records the next hand of a table (scored, settled, saved in one
    transaction); PATCH corrects one; ``void`` voids or restores one. Each answer carries every
    seat's score with its lines, the payments and the running totals."""

    club_path = "table.session.club"
    public_read = True
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self):
        qs = Hand.objects.filter(table__session__club__in=perms.visible_clubs(self.request.user))
        params = self.request.query_params
        if (table := id_filter(params, "table", "table")) is not None:
            qs = qs.filter(table_id=table)
        if (session := id_filter(params, "session", "night")) is not None:
            qs = qs.filter(table__session_id=session)
        return qs.select_related("table__session__club").order_by("table_id", "number")

    def get_serializer_class(self):
        if self.action == "create":
            return RecordHandSerializer
        if self.action == "preview":
            return RecordHandSerializer
        if self.action == "partial_update":
            return CorrectHandSerializer
        if self.action == "void":
            return VoidSerializer
        return HandListSerializer

    @extend_schema(responses=HandOutSerializer)
    def retrieve(self, request, *args, **kwargs):
        hand = self.get_object()
        return Response(recorded_hand_answer(hand))

    def table_for(self, data) -> Table:
        """The table named in the body, among those the user can see; 403 without the role.
        Looked up before the rest of the body is read, with everything recording needs."""
        value = row_id(data.get("table") if isinstance(data, dict) else None)
        table = None
        if value is not None:
            try:
                table = Table.objects.select_related("session__club").get(pk=value)
            except Table.DoesNotExist:
                table = None
            if table is not None and not perms.can_view_club(self.request.user,
                                                             table.session.club):
                table = None  # another club's table reads as no table at all
        if table is None:
            raise DRFValidationError({"table": [
                "No such table among your club's: give a table id from /api/v1/tables/."]})
        self.require(table.session.club)
        return table

    def entry_for(self, request) -> tuple[Table, dict, object]:
        """The table (checked first: 403 without the role), the hand entry of the body and its
        client_id."""
        table = self.table_for(request.data)
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return table, serializer.to_entry(), serializer.validated_data.get("client_id")

    @extend_schema(request=RecordHandSerializer, responses={201: HandOutSerializer, **HAND_ERRORS})
    def create(self, request, *args, **kwargs):
        """Record the next hand. Sent again with the same ``client_id``, the same answer (the
        hand saved the first time), never a second hand."""
        table, entry, client_id = self.entry_for(request)
        with recording_answers():
            hand, preview = record_hand(table, entry, request.user, with_preview=True,
                                        client_id=client_id)
        if preview is None:  # this entry was saved before: answered as then
            return Response(recorded_hand_answer(hand), status=status.HTTP_201_CREATED)
        return Response(preview_answer(hand.pk, preview, table, hand.client_id),
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=RecordHandSerializer, responses={200: HandOutSerializer, **HAND_ERRORS})
    @action(detail=False, methods=["post"])
    def preview(self, request):
        """Score and settle a hand as ``POST /hands/`` would, saving nothing."""
        table, entry, _client_id = self.entry_for(request)
        with recording_answers():
            preview = preview_hand(table, entry)
        return Response(preview_answer(None, preview, table))

    @extend_schema(request=CorrectHandSerializer, responses={200: HandOutSerializer, **HAND_ERRORS})
    def partial_update(self, request, *args, **kwargs):
        hand = self.get_object()
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        reason = changes.pop("reason", "")
        client_id = changes.pop("client_id", None)
        later_hands = changes.pop("later_hands", RESEAT)
        with recording_answers():
            hand, state = correct_hand(hand, changes, request.user, note=reason, with_state=True,
                                       client_id=client_id, later_hands=later_hands)
        return Response(recorded_hand_answer(hand, state))

    @extend_schema(request=VoidSerializer, responses={200: HandOutSerializer, 409: HAND_ERRORS[409]})
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        """Void a hand (it stays listed and counts for nothing), or restore it."""
        hand = self.get_object()
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with recording_answers():
            hand, state = void_hand(hand, request.user, data["reason"], voided=data["voided"],
                                    with_state=True, client_id=data.get("client_id"),
                                    later_hands=data["later_hands"])
        return Response(recorded_hand_answer(hand, state))


@extend_schema(tags=["clubs"], parameters=[CLUB_FILTER])
class AuditEntryViewSet(ClubScoped, viewsets.ReadOnlyModelViewSet):
    """Who changed what, when, from what to what: club admins only."""

    serializer_class = AuditEntrySerializer

    def get_queryset(self):
        qs = AuditEntry.objects.filter(
            club__in=perms.clubs_with_role(self.request.user, perms.ADMIN)
        )
        return self.of_club_asked(qs).select_related("club", "user")

    def list(self, request, *args, **kwargs):
        if not perms.clubs_with_role(request.user, perms.ADMIN).exists():
            raise PermissionDenied("Only club admins can read the audit trail.")
        return super().list(request, *args, **kwargs)


# -- answers -------------------------------------------------------------------------------


def hand_answer(row: HandRow, seats: tuple[SeatInfo, ...], table_id: int,
                client_id=None) -> dict:
    """The hand as ``HandOutSerializer`` documents and renders it."""
    return HandOutSerializer(
        row, context={**hand_context(seats, table_id), "client_id": client_id}).data


def preview_answer(hand_id: int | None, preview, table: Table, client_id=None) -> dict:
    """The answer for a hand just scored and settled (recorded, or only previewed)."""
    return hand_answer(preview.row(hand_id), preview.seats, table.pk, client_id)


def recorded_hand_answer(hand: Hand, state: TableState | None = None) -> dict:
    """The hand as its table's state shows it; ``state`` if the caller has just built it."""
    if state is None:
        table = Table.objects.select_related("session").get(pk=hand.table_id)
        state = stored_table_state(table, only=hand.number)
    row = next(r for r in state.hands if r.id == hand.pk)
    return hand_answer(row, state.seats, state.table_id, hand.client_id)


def table_state_answer(state: TableState) -> dict:
    return TableStateSerializer(state, context=hand_context(state.seats, state.table_id)).data
