"""DRF serializers of the club API: what a club's records look like over HTTP.

Parents named in a request body (a session's club, a table's session, a hand's table) are looked
up among the objects the user can see only, so another club's ids read as "does not exist".
"""

from __future__ import annotations

from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Q
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from clubs.league_guards import night_outside_season, nights_outside
from clubs.models import (
    AuditEntry,
    Club,
    ClubSession,
    EntryKind,
    Hand,
    HouseRuleRecord,
    HouseRuleVersion,
    Member,
    Season,
    Seat,
    Table,
    Wind,
    WinSource,
)
from clubs.permissions import ADMIN, clubs_with_role, member_clubs, visible_clubs
from clubs.seating import SeatChoice, seat_problems, seat_table
from clubs.text_limits import NOTES_MAX, too_long
from config.plain_serializer import PlainSerializer
from play import KEPT, LATER_HANDS, RESEAT, UNKNOWN, HandRow, discarder_unknown

WINDS = [w.value for w in Wind]


class ClubSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role at this club, or null.")
    your_name = serializers.CharField(
        write_only=True, required=False, max_length=80,
        help_text="Starting a club: how its pages will name you, its first admin (default: "
                  "your name, or your login before the @).")

    class Meta:
        model = Club
        fields = ["id", "slug", "name", "published", "default_house_rule", "time_zone",
                  "created", "role", "your_name"]
        read_only_fields = ["created"]
        # Checked in validate(), with a sentence saying what to change.
        extra_kwargs = {"name": {"validators": []}, "slug": {"validators": []}}

    def validate(self, attrs):
        from clubs.starting import taken_problem

        name = attrs.get("name", getattr(self.instance, "name", ""))
        slug = attrs.get("slug", getattr(self.instance, "slug", ""))
        if problem := taken_problem(name, slug, exclude=self.instance):
            raise serializers.ValidationError({problem.field: [problem.message]})
        return attrs

    def create(self, validated_data):
        from clubs.starting import ClubTaken, StartRefused, start_club

        try:
            return start_club(
                self.context["request"].user, name=validated_data["name"],
                slug=validated_data["slug"],
                time_zone=validated_data.get("time_zone") or "Europe/London",
                house_rule=validated_data.get("default_house_rule"),
                published=validated_data.get("published", False),
                display_name=validated_data.get("your_name", ""))
        except ClubTaken as taken:
            raise serializers.ValidationError({taken.field: [taken.message]}) from None
        except StartRefused as refused:
            raise PermissionDenied(str(refused)) from None

    def update(self, instance, validated_data):
        validated_data.pop("your_name", None)
        return super().update(instance, validated_data)

    def get_fields(self):
        # Another club's private house rule reads as no house rule at all ("does not exist").
        fields = super().get_fields()
        if (request := self.context.get("request")) is not None:  # none: the schema
            fields["default_house_rule"].queryset = HouseRuleRecord.objects.filter(
                Q(club__isnull=True) | Q(club__in=member_clubs(request.user)))
        return fields

    def validate_default_house_rule(self, record):
        if record is not None and record.club_id not in (None, getattr(self.instance, "pk", None)):
            raise serializers.ValidationError(
                "Use a built-in house rule or one of this club's own."
            )
        return record

    @extend_schema_field(serializers.ChoiceField(choices=["admin", "scorer", "member"],
                                                 allow_null=True))
    def get_role(self, club) -> str | None:
        from clubs.permissions import club_role

        return club_role(self.context["request"].user, club)


class ClubSlugField(serializers.SlugRelatedField):
    """A club given by its slug, among the clubs the user can see."""

    def __init__(self, **kwargs):
        super().__init__(slug_field="slug", **kwargs)

    def get_queryset(self):
        return visible_clubs(self.context["request"].user)

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:  # PostgreSQL refuses it in a query
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)


class KnownLoginField(serializers.SlugRelatedField):
    """A login a club admin may link to a member: one that already belongs to a member of a
    club they administer (staff: any). Any other name is refused in the same words whether or
    not such a login exists, so the API never tells which logins there are."""

    default_error_messages = {
        "does_not_exist": "No login {value!r} among the members of the clubs you administer; "
                          "to give someone a login, invite them (POST /api/v1/invitations/).",
        "invalid": "Give a login name as text.",
    }

    def get_queryset(self):
        user = self.context["request"].user
        users = get_user_model().objects.all()
        if user.is_superuser:
            return users
        return users.filter(memberships__club__in=clubs_with_role(user, ADMIN)).distinct()

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:  # PostgreSQL refuses it in a query
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)


class MemberSerializer(serializers.ModelSerializer):
    club = ClubSlugField(queryset=Club.objects.none())
    username = KnownLoginField(
        source="user",
        slug_field="username",
        queryset=get_user_model().objects.none(),
        required=False,
        allow_null=True,
        help_text="The login of this member, if they have one: a login already used by a "
                  "member of a club you administer (invite someone new: /api/v1/invitations/).",
    )

    class Meta:
        model = Member
        fields = ["id", "club", "display_name", "username", "role", "active", "joined"]
        validators = []  # the unique names and logins are checked in validate(), with advice

    def validate(self, attrs):
        club = attrs.get("club") or (self.instance.club if self.instance else None)
        name = attrs.get("display_name")
        if club and name:
            taken = Member.objects.filter(club=club, display_name=name)
            if self.instance:
                taken = taken.exclude(pk=self.instance.pk)
            if taken.exists():
                raise serializers.ValidationError(
                    {"display_name": [f"{club.name} already has a member called {name!r}; "
                                      "add an initial to tell them apart."]}
                )
        user = attrs.get("user")
        if club and user:
            taken = Member.objects.filter(club=club, user=user)
            if self.instance:
                taken = taken.exclude(pk=self.instance.pk)
            if taken.exists():
                raise serializers.ValidationError(
                    {"username": ["This login already belongs to a member of this club."]}
                )
        return attrs


class SeasonSerializer(serializers.ModelSerializer):
    club = ClubSlugField(queryset=Club.objects.none())

    class Meta:
        model = Season
        fields = ["id", "club", "name", "start", "end"]
        validators = []  # checked in validate(), with advice

    def validate(self, attrs):
        start = attrs.get("start", getattr(self.instance, "start", None))
        end = attrs.get("end", getattr(self.instance, "end", None))
        if start and end and end < start:
            raise serializers.ValidationError({"end": ["A season ends on or after its start."]})
        if problem := nights_outside(self.instance, start, end):
            raise serializers.ValidationError({"start" if "start" in attrs else "end": [problem]})
        club = attrs.get("club") or getattr(self.instance, "club", None)
        name = attrs.get("name")
        if club and name:
            taken = Season.objects.filter(club=club, name=name)
            if self.instance:
                taken = taken.exclude(pk=self.instance.pk)
            if taken.exists():
                raise serializers.ValidationError(
                    {"name": [f"{club.name} already has a season called {name!r}."]}
                )
        return attrs


class SessionSerializer(serializers.ModelSerializer):
    """A club night. Its house rule (and goulash rule) is named by slug, the newest version or
    the version number given (``house_rule`` and ``house_rule_version_number``), or by a
    version's id (``house_rule_version``)."""

    club = ClubSlugField(queryset=Club.objects.none())
    house_rule = serializers.CharField(
        required=False, max_length=80,
        help_text="The house rule's slug (a built-in one or the club's own; see "
                  "/api/v1/house-rules/): its newest version, or house_rule_version_number.")
    house_rule_version_number = serializers.IntegerField(
        required=False, min_value=1, help_text="Which version of house_rule (default: newest).")
    goulash_rule = serializers.CharField(
        required=False, allow_null=True, max_length=80,
        help_text="The slug of the rule that scores goulash hands, if not the one the house "
                  "rule names; its newest version, or goulash_rule_version_number.")
    goulash_rule_version_number = serializers.IntegerField(required=False, min_value=1,
                                                           allow_null=True)
    tables = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = ClubSession
        fields = [
            "id", "club", "season", "date", "house_rule", "house_rule_version_number",
            "house_rule_version", "goulash_rule", "goulash_rule_version_number",
            "goulash_rule_version", "notes", "status", "tables", "created",
        ]
        read_only_fields = ["created"]
        extra_kwargs = {"notes": {"max_length": NOTES_MAX,
                                  "error_messages": {"max_length": too_long(NOTES_MAX)}},
                        "house_rule_version": {"required": False}}

    def to_representation(self, instance):
        data = super().to_representation(instance)
        for name in ("house_rule", "goulash_rule"):
            version = getattr(instance, f"{name}_version")
            data[name] = version.record.slug if version else None
            data[f"{name}_version_number"] = version.number if version else None
        return data

    def _named_version(self, attrs, name: str, club, errors) -> None:
        """``attrs[name + "_version"]`` from the slug and number given, if any."""
        slug = attrs.pop(name, None)
        number = attrs.pop(f"{name}_version_number", None)
        if slug is None:
            if number is not None:
                errors[f"{name}_version_number"] = [f"Give {name} (a slug) with its number."]
            return
        usable = Q(record__club__isnull=True) | Q(record__club=club)
        versions = HouseRuleVersion.objects.filter(usable, record__slug=slug)
        version = (versions.filter(number=number) if number else versions.order_by("-number")).first()
        if version is None and not versions.exists():
            errors[name] = [f"No house rule {slug!r} at this club: give a built-in house rule's "
                            "slug or one of the club's own (see /api/v1/house-rules/)."]
        elif version is None:
            newest = versions.order_by("-number").first().number
            errors[f"{name}_version_number"] = [f"{slug} has versions 1 to {newest}."]
        elif attrs.get(f"{name}_version") not in (None, version):
            errors[name] = [f"{name} and {name}_version name different versions: give one."]
        else:
            attrs[f"{name}_version"] = version

    def get_fields(self):
        # Other clubs' seasons and private house-rule versions read as not existing, in the
        # words used for an id nobody has.
        fields = super().get_fields()
        if (request := self.context.get("request")) is None:  # the schema
            return fields
        clubs = member_clubs(request.user)
        fields["season"].queryset = Season.objects.filter(club__in=clubs)
        for name in ("house_rule_version", "goulash_rule_version"):
            fields[name].queryset = HouseRuleVersion.objects.filter(
                Q(record__club__isnull=True) | Q(record__club__in=clubs))
        return fields

    def validate(self, attrs):
        club = attrs.get("club") or getattr(self.instance, "club", None)
        errors: dict[str, list[str]] = {}
        if self.instance is not None and "club" in attrs and attrs["club"] != self.instance.club:
            errors["club"] = ["A session cannot move to another club."]
        season = attrs.get("season")
        if season is not None and club is not None and season.club_id != club.pk:
            errors["season"] = [f"No such season at {club.name}; see /api/v1/seasons/."]
        elif problem := night_outside_season(
                season if "season" in attrs else getattr(self.instance, "season", None),
                attrs.get("date", getattr(self.instance, "date", None))):
            errors["date"] = [problem]
        for name in ("house_rule", "goulash_rule"):
            self._named_version(attrs, name, club, errors)
        for name in ("house_rule_version", "goulash_rule_version"):
            version = attrs.get(name)
            if version is not None and not usable_by(version, club):
                errors[name] = ["Use a built-in house rule or one of this club's own."]
        if self.instance is None and not attrs.get("house_rule_version") and not errors:
            errors["house_rule"] = ["Name the night's house rule: its slug (house_rule), or a "
                                    "version's id (house_rule_version)."]
        if errors:
            raise serializers.ValidationError(errors)
        if self.instance is None:
            attrs["goulash_rule_version"] = self._frozen_goulash_rule(attrs, club)
        return attrs

    @staticmethod
    def _frozen_goulash_rule(attrs, club) -> HouseRuleVersion | None:
        session = ClubSession(
            club=club,
            house_rule_version=attrs.get("house_rule_version"),
            goulash_rule_version=attrs.get("goulash_rule_version"),
        )
        try:
            session.freeze_goulash_rule()
        except DjangoValidationError as err:
            raise serializers.ValidationError(err.message_dict) from err
        return session.goulash_rule_version


def usable_by(version: HouseRuleVersion, club: Club | None) -> bool:
    owner = version.record.club_id
    return owner is None or (club is not None and owner == club.pk)


class AsciiIdField(serializers.PrimaryKeyRelatedField):
    """An id as a number or a string of ASCII digits (int() also reads other scripts' digits:
    "٦" would be 6)."""

    def to_internal_value(self, data):
        if isinstance(data, str) and not (data.isascii() and data.isdecimal()):
            self.fail("incorrect_type", data_type="text")
        return super().to_internal_value(data)


class VisibleMemberField(AsciiIdField):
    """A member of a club the user can see (the table's own club is checked in validate)."""

    def get_queryset(self):
        return Member.objects.filter(club__in=visible_clubs(self.context["request"].user))


class VisibleSessionField(AsciiIdField):
    def get_queryset(self):
        return ClubSession.objects.filter(
            club__in=visible_clubs(self.context["request"].user)
        ).select_related("club", "house_rule_version")


class SeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)
    member = VisibleMemberField(required=False, allow_null=True)

    class Meta:
        model = Seat
        fields = ["id", "position", "member", "guest_name", "name", "starting_wind"]
        read_only_fields = ["position"]
        extra_kwargs = {"guest_name": {"required": False}, "starting_wind": {"required": False}}


class TableSerializer(serializers.ModelSerializer):
    session = VisibleSessionField()
    seats = SeatSerializer(many=True)
    number = serializers.IntegerField(required=False, min_value=1,
                                      help_text="Left out: the session's next table number.")

    class Meta:
        model = Table
        fields = ["id", "session", "number", "seats"]
        validators = []  # a free number is found in create(); a taken one refused in validate()

    def validate_session(self, session):
        if not session.is_open:
            raise serializers.ValidationError("This session is closed; reopen it to add tables.")
        return session

    def validate(self, attrs):
        if self.instance is not None:
            raise serializers.ValidationError(
                {"seats": ["Seats are fixed once a table is made; correct hands with "
                           "swap-seats instead."]}
            )
        session = attrs["session"]
        seats = [SeatChoice(s.get("member"), s.get("guest_name") or "",
                            s.get("starting_wind") or "") for s in attrs["seats"]]
        problems, table = seat_problems(session, seats)
        if any(problems):
            raise serializers.ValidationError({"seats": problems})
        if table:
            raise serializers.ValidationError({"seats": table})
        attrs["seats"] = seats
        number = attrs.get("number")
        if number is not None and Table.objects.filter(session=session, number=number).exists():
            raise serializers.ValidationError({"number": [f"Table {number} already exists."]})
        return attrs

    def create(self, validated):
        return seat_table(validated["session"], validated["seats"], validated.get("number"))


# -- hands --------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "object",
        "description": 'By seat wind: the contract\'s hand JSON, or {"score": N}.',
        "additionalProperties": {"type": "object"},
        "example": {"E": {"score": 12}, "S": {"melds": [], "concealed": []}},
    }
)
class SeatsField(serializers.DictField):
    child = serializers.JSONField()


DISCARDER_HELP = (f"The wind that gave the winning tile; {UNKNOWN!r} when the hand was won on "
                  "a discard or a robbed kong but nobody knows whose (nobody is charged as the "
                  "discarder: every loser pays the winner, as the house rule makes everyone "
                  "pay); null for a wall game or a tile from the wall.")


class HandEntrySerializer(serializers.Serializer):
    """A hand as entered at the table, keyed by the seat winds of that hand."""

    winner = serializers.ChoiceField(choices=WINDS, allow_null=True, required=False)
    discarder = serializers.ChoiceField(choices=[*WINDS, UNKNOWN], allow_null=True,
                                        required=False, help_text=DISCARDER_HELP)
    draw = serializers.BooleanField(required=False, default=False)
    win_from = serializers.ChoiceField(choices=WinSource.choices, allow_null=True, required=False)
    goulash = serializers.BooleanField(
        required=False, allow_null=True, default=None,
        help_text="Left out: as the seating says (a goulash after a wall game).",
    )
    number = serializers.IntegerField(
        required=False, min_value=1,
        help_text="The hand number you expect; if another scorer took it first, 409.",
    )
    seats = SeatsField()
    facts = serializers.DictField(
        required=False,
        help_text="penalties: [{kind, offender, claimant, amount}] and clean_hands: [winds].",
    )

    def validate_facts(self, facts):
        if "swap_seats" in facts:
            raise serializers.ValidationError("Swap seats with POST /tables/{id}/swap-seats/.")
        if KEPT in facts:
            raise serializers.ValidationError(
                f"{KEPT} is written by a correction or void made with later_hands "
                "'as_recorded', never entered.")
        return facts

    def to_entry(self) -> dict:
        return {k: v for k, v in self.validated_data.items() if v is not None or k in (
            "winner", "discarder")}


class RecordHandSerializer(HandEntrySerializer):
    table = serializers.IntegerField(help_text="The table the hand was played at.")
    client_id = serializers.UUIDField(
        required=False, allow_null=True,
        help_text="An id you make once per entry (a UUID): sent again, the entry is answered "
                  "with what it saved the first time instead of being saved twice.",
    )

    def to_entry(self) -> dict:
        entry = super().to_entry()
        entry.pop("table", None)
        entry.pop("client_id", None)
        return entry


def LaterHandsField() -> serializers.ChoiceField:  # noqa: N802 (reads as a field class)
    return serializers.ChoiceField(
        choices=LATER_HANDS, default=RESEAT,
        help_text="When the change moves who deals: 'reseat' (the default) seats the later "
                  "hands again from the corrected result (East, seat winds, wind of the "
                  "round; hands entered as tiles scored again under their new winds); "
                  "'as_recorded' says the table played on as recorded: their seating stays "
                  "and the deal goes on from it. The audit entry says what moved.")


class CorrectHandSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=WINDS, allow_null=True, required=False)
    discarder = serializers.ChoiceField(choices=[*WINDS, UNKNOWN], allow_null=True,
                                        required=False, help_text=DISCARDER_HELP)
    draw = serializers.BooleanField(required=False)
    win_from = serializers.ChoiceField(choices=WinSource.choices, allow_null=True, required=False)
    goulash = serializers.BooleanField(required=False)
    seats = SeatsField(required=False, help_text="Only the seats to change, by wind.")
    facts = serializers.DictField(required=False)
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=200,
        help_text="Why the hand is corrected: kept in the audit trail and shown with the hand.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                 help_text="The same as reason (its older name).")
    later_hands = LaterHandsField()
    client_id = serializers.UUIDField(
        required=False, allow_null=True,
        help_text="An id you make once per entry (a UUID): sent again, the entry is answered "
                  "with what it saved the first time instead of being saved twice.",
    )

    def validate(self, attrs):
        reason, note = attrs.pop("reason", None), attrs.pop("note", None)
        if reason is not None and note is not None and reason != note:
            raise serializers.ValidationError(
                {"note": ["Give the reason once, as reason (note is its older name)."]})
        attrs["reason"] = reason if reason is not None else (note or "")
        return attrs


class VoidSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=200, help_text="Kept in the audit trail and shown with the hand.")
    voided = serializers.BooleanField(default=True, help_text="false restores a voided hand.")
    later_hands = LaterHandsField()
    client_id = serializers.UUIDField(
        required=False, allow_null=True,
        help_text="An id you make once per entry (a UUID): sent again, the entry is answered "
                  "with what it saved the first time instead of being saved twice.",
    )


class SwapSeatsSerializer(serializers.Serializer):
    seat_a = serializers.IntegerField()
    seat_b = serializers.IntegerField()
    from_hand = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)

    def validate(self, attrs):
        table = self.context["table"]
        seats = {s.pk: s for s in table.seats.all()}
        errors = {}
        for name in ("seat_a", "seat_b"):
            if attrs[name] not in seats:
                errors[name] = [f"No seat {attrs[name]} at this table; use one of "
                                f"{', '.join(str(s) for s in sorted(seats))}."]
        if not errors and attrs["seat_a"] == attrs["seat_b"]:
            errors["seat_b"] = ["Pick two different seats."]
        if errors:
            raise serializers.ValidationError(errors)
        attrs["seat_a"], attrs["seat_b"] = seats[attrs["seat_a"]], seats[attrs["seat_b"]]
        return attrs


# -- answers -------------------------------------------------------------------------------
# What the hand, table and session endpoints answer: each serializer below renders the answer
# and documents it in the schema, from play's objects (a hand's ``HandRow``, a table's
# ``TableState``) read back from what recording stored, or from a hand just previewed. A hand's
# serializers are plain (``PlainSerializer``): every hand recorded is answered through them.


class TableScoreLineSerializer(PlainSerializer):
    """One line of a seat's score (``scoring.engine.ScoreLine``)."""

    code = serializers.CharField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    doubles = serializers.IntegerField()
    count = serializers.IntegerField()


class SeatOfHand(NamedTuple):
    """One seat's part of a hand, as ``SeatResultSerializer`` renders it (``of``: from the
    hand's row)."""

    seat: int
    name: str
    wind: str
    kind: str
    score: int | None
    points: int | None
    doubles: int | None
    limit: str | None
    lines: tuple
    net: int | None
    running_total: int

    @classmethod
    def of(cls, row: HandRow, seat: int, name: str) -> SeatOfHand:
        result = row.results.get(seat)
        return cls(seat, name, row.seating.winds[seat],
                   row.entries.get(seat, {}).get("kind", EntryKind.QUICK), row.scores.get(seat),
                   result.points if result else None, result.doubles if result else None,
                   result.limit if result else None, result.lines if result else (),
                   row.net.get(seat), row.totals.get(seat, 0))


class SeatResultSerializer(PlainSerializer):
    """Renders a ``SeatOfHand``. A seat entered as the agreed score has no points, doubles or
    lines (null, null, [])."""

    seat = serializers.IntegerField()
    name = serializers.CharField()
    wind = serializers.CharField()
    kind = serializers.ChoiceField(choices=EntryKind.choices)
    score = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    doubles = serializers.IntegerField(allow_null=True)
    limit = serializers.CharField(allow_null=True)
    lines = TableScoreLineSerializer(many=True)
    net = serializers.IntegerField(allow_null=True)
    running_total = serializers.IntegerField()


# Renders every seat of every hand answered (plain: it needs no context of its own).
_SEAT_RESULT = SeatResultSerializer()


@extend_schema_field({"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["pot"]}]})
class SeatOrPotField(serializers.Field):
    """A seat id (an integer), or "pot" for the goulash pot or kitty."""

    def to_representation(self, value):
        return value


class TablePaymentSerializer(PlainSerializer):
    """Renders a ``play.TablePayment``."""

    payer = SeatOrPotField(help_text="A seat id, or 'pot'.")
    payee = SeatOrPotField(help_text="A seat id, or 'pot'.")
    amount = serializers.IntegerField()
    why = serializers.CharField()

    def get_fields(self):
        fields = super().get_fields()
        # "from"/"to" as in the settle contract; both are Python keywords.
        fields["from"], fields["to"] = fields.pop("payer"), fields.pop("payee")
        fields["from"].source, fields["to"].source = "payer", "payee"
        return {name: fields[name] for name in ("from", "to", "amount", "why")}


def hand_context(seats, table_id: int | None) -> dict:
    """What ``RecordedHandSerializer`` needs beside a hand's row: the table's id and its seats
    (``play.SeatInfo``, for the players' names)."""
    return {"table": table_id, "names": {seat.id: seat.name for seat in seats}}


class RecordedHandSerializer(PlainSerializer):
    """A hand as its table shows it (recorded, or only previewed: ``id`` null), rendered from
    ``play.HandRow`` with ``hand_context`` as the serializer's context."""

    id = serializers.IntegerField(allow_null=True)
    table = serializers.SerializerMethodField()
    number = serializers.IntegerField()
    voided = serializers.BooleanField()
    prevailing_wind = serializers.CharField(source="seating.prevailing_wind")
    dealer = serializers.IntegerField(source="seating.dealer_seat")
    winner = serializers.IntegerField(allow_null=True)
    discarder = serializers.IntegerField(allow_null=True)
    draw = serializers.BooleanField()
    goulash = serializers.BooleanField()
    win_from = serializers.SerializerMethodField()
    entry = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    payments = TablePaymentSerializer(many=True)
    pot_before = serializers.IntegerField()
    pot_after = serializers.IntegerField()
    error = serializers.DictField(
        allow_null=True, help_text="Set when the engines now refuse this stored hand."
    )

    def get_table(self, row: HandRow) -> int:
        return self.context["table"]

    @extend_schema_field(serializers.ChoiceField(choices=WinSource.choices, allow_null=True))
    def get_win_from(self, row: HandRow) -> str | None:
        return row.win_source or None

    @extend_schema_field(serializers.DictField(
        help_text="What was entered, keyed by the hand's winds: winner, discarder, draw, "
                  "win_from, goulash and each seat's entry."))
    def get_entry(self, row: HandRow) -> dict:
        return _entry_json(row)

    @extend_schema_field(SeatResultSerializer(many=True))
    def get_seats(self, row: HandRow) -> list:
        names = self.context["names"]
        seats = sorted(row.seating.winds, key=lambda s: WINDS.index(row.seating.winds[s]))
        show = _SEAT_RESULT.to_representation
        return [show(SeatOfHand.of(row, seat, names.get(seat, ""))) for seat in seats]


class HandOutSerializer(RecordedHandSerializer):
    """One hand, as recording, correcting or reading it answers (``client_id`` in the context:
    the id the hand was saved with)."""

    client_id = serializers.SerializerMethodField()

    @extend_schema_field(serializers.UUIDField(
        allow_null=True, help_text="The id the entry was saved with, if its client gave one."))
    def get_client_id(self, row: HandRow) -> str | None:
        client_id = self.context.get("client_id")
        return str(client_id) if client_id else None


def _entry_json(row: HandRow) -> dict:
    """What was entered for the hand, keyed by its winds (a hand answer's ``entry``)."""
    wind = {seat_id: e["wind"] for seat_id, e in row.entries.items()}
    return {
        "winner": wind.get(row.winner),
        "discarder": (UNKNOWN if discarder_unknown(row.winner, row.discarder, row.win_source)
                      else wind.get(row.discarder)),
        "draw": row.draw,
        "win_from": row.win_source or None,
        "goulash": row.goulash,
        "seats": {e["wind"]: e["data"] for e in row.entries.values()},
    }


class HandConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    saved = HandOutSerializer(allow_null=True, help_text="The hand saved under that number.")
    yours = serializers.DictField(allow_null=True, help_text="The entry as you sent it.")


class NextHandSerializer(serializers.Serializer):
    """Renders a ``play.NextHand``: who deals the next hand and the winds it is played with."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    prevailing_wind = serializers.CharField(source="seating.prevailing_wind")
    goulash = serializers.BooleanField(source="seating.goulash")
    winds = serializers.DictField(child=serializers.CharField(), source="seating.winds",
                                  help_text="Seat id -> wind.")


class TableSeatSerializer(serializers.Serializer):
    """Renders a ``play.SeatInfo``: a seat of the table and who sits there."""

    id = serializers.IntegerField()
    position = serializers.IntegerField()
    member = serializers.IntegerField(source="member_id", allow_null=True)
    name = serializers.CharField()
    guest_name = serializers.SerializerMethodField()
    starting_wind = serializers.CharField(allow_blank=True)

    def get_guest_name(self, seat) -> str:
        return "" if seat.member_id else seat.name


class TableStateSerializer(serializers.Serializer):
    """Renders a ``play.TableState`` (with ``hand_context`` of its seats)."""

    table = serializers.IntegerField(source="table_id")
    seats = TableSeatSerializer(many=True)
    hands = RecordedHandSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField(),
                                   help_text="Seat id -> running total.")
    pot = serializers.IntegerField()
    next = NextHandSerializer()


class PlayerTotalSerializer(serializers.Serializer):
    name = serializers.CharField()
    member = serializers.IntegerField(allow_null=True)
    tables = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="The numbers of the tables they sat at.")
    hands = serializers.IntegerField()
    total = serializers.IntegerField()


class SessionTotalsSerializer(serializers.Serializer):
    """Renders a ``ClubSession``'s ``player_totals()``."""

    session = serializers.IntegerField(source="pk")
    players = PlayerTotalSerializer(many=True, source="player_totals")


class AuditEntrySerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    user = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = AuditEntry
        fields = ["id", "club", "user", "at", "action", "object_type", "object_id", "before",
                  "after", "note"]


class HandListSerializer(serializers.ModelSerializer):
    """A hand in a list: what was decided; the computed figures are on the hand itself."""

    class Meta:
        model = Hand
        fields = ["id", "table", "number", "prevailing_wind", "dealer", "winner", "discarder",
                  "draw", "goulash", "win_source", "voided", "created"]
