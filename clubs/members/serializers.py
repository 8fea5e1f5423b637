"""What the members API's actions take and answer: a guest made a member, two members
merged, a change undone (``clubs.api.MemberViewSet``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.members.changes import NAME_MAX
from clubs.models import AuditEntry, Member


@extend_schema_field(OpenApiTypes.INT)
class ClubMemberField(serializers.PrimaryKeyRelatedField):
    """A member of the club the request names (``club`` in the body, or the member in the
    path); any other id is "no such member", whether it exists or not."""

    def get_queryset(self):
        club = self.context.get("club")
        return Member.objects.filter(club=club) if club is not None else Member.objects.none()


class GuestSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The name as typed at the tables (one spelling "
                                           "when it was typed in several: case differs).")
    seats = serializers.IntegerField(help_text="Tables the guest played at.")
    last = serializers.DateField(help_text="The last night they played.")


class FromGuestSerializer(serializers.Serializer):
    club = serializers.CharField(max_length=60, help_text="The club (its slug).")
    guest_name = serializers.CharField(max_length=NAME_MAX, help_text=(
        "The guest's name as typed at the tables (case and surrounding spaces ignored)."))
    member = ClubMemberField(required=False, allow_null=True, help_text=(
        "The member to give the guest's nights to; left out: a new member is made."))
    new_name = serializers.CharField(required=False, allow_blank=True, max_length=NAME_MAX,
                                     help_text="The new member's name (default: the guest's).")
    seats = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False,
                                  max_length=500, help_text=(
                                      "Only these seats of the guest (two guests of one name)."))


class MergeSerializer(serializers.Serializer):
    duplicate = ClubMemberField(help_text=(
        "The same person entered a second time: their hands, nights and login become this "
        "member's, and they are deleted."))


class UndoSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, help_text=(
        "The audit entry of the change to put back (a member's name, role or active; a guest "
        "made a member; a merge)."))


class MoveSerializer(serializers.Serializer):
    """What a move did."""

    member = serializers.IntegerField(source="member.pk")
    display_name = serializers.CharField(source="member.display_name")
    seats = serializers.ListField(child=serializers.IntegerField(), source="seat_ids")
    tables = serializers.ListField(child=serializers.IntegerField(), source="table_ids")
    sessions = serializers.ListField(child=serializers.IntegerField(), source="session_ids")
    hands = serializers.IntegerField()
    audit_entry = serializers.IntegerField(source="audit.pk")
    note = serializers.CharField(source="audit.note")


class UndoneSerializer(serializers.ModelSerializer):
    """The audit entry that records the undo."""

    class Meta:
        model = AuditEntry
        fields = ["id", "action", "object_type", "object_id", "note", "at"]


class ReseatRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=4)
    member = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                      help_text="A member of the club, or null for a guest.")
    guest_name = serializers.CharField(required=False, allow_blank=True, max_length=80)
    starting_wind = serializers.ChoiceField(
        choices=["", "E", "S", "W", "N"], required=False,
        help_text="Only while the table has no hand; left out: as it is.")


class ReseatSerializer(serializers.Serializer):
    seats = ReseatRowSerializer(many=True, max_length=5, help_text=(
        "The seats to correct, by position; seats left out stay as they are."))


class VoidTableSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)


class MoveHandsSerializer(serializers.Serializer):
    target = serializers.IntegerField(min_value=1, help_text=(
        "The table of the same night, with the same players, these hands belong to."))
