"""The invitations API (club admins), taking an invitation (the invitee, signed in)."""

from __future__ import annotations

import smtplib

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response

from accounts import invitations, tokens
from accounts.models import ApiToken, Invitation
from clubs import permissions as perms
from clubs.api import CLUB_FILTER, OfOneClub, is_text
from clubs.models import Club, Member, MemberRole
from clubs.serializers import ClubSlugField


class InvitationSerializer(serializers.ModelSerializer):
    club = ClubSlugField(queryset=Club.objects.none(),
                         help_text="The club's slug (you must be one of its admins).")
    member = serializers.PrimaryKeyRelatedField(
        queryset=Member.objects.none(), required=False, allow_null=True,
        help_text="A member already on the score sheets, without a login, whom the invitee "
                  "becomes; leave out to add a new member called `name`.")
    name = serializers.CharField(max_length=80, required=False, allow_blank=True,
                                 help_text="The new member's name (ignored with `member`).")
    role = serializers.ChoiceField(choices=MemberRole.choices, default=MemberRole.MEMBER)
    days = serializers.IntegerField(write_only=True, min_value=1, max_value=invitations.MAX_DAYS,
                                    default=invitations.DEFAULT_DAYS,
                                    help_text="How many days the link works.")
    state = serializers.ChoiceField(choices=["open", "used", "revoked", "expired"],
                                    read_only=True)
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True,
                                              allow_null=True)
    link = serializers.SerializerMethodField(
        help_text="The invitation link: only in the answer that made it (only its digest is "
                  "kept), null afterwards.")
    emailed = serializers.SerializerMethodField(help_text="Whether the link was emailed.")

    class Meta:
        model = Invitation
        fields = ["id", "club", "member", "name", "email", "role", "days", "state", "created",
                  "created_by", "expires", "used_at", "revoked_at", "link", "emailed"]
        read_only_fields = ["created", "expires", "used_at", "revoked_at"]

    def get_fields(self):
        fields = super().get_fields()
        if (request := self.context.get("request")) is not None:
            fields["member"].queryset = Member.objects.filter(
                club__in=perms.clubs_with_role(request.user, perms.ADMIN))
        return fields

    def get_link(self, invitation) -> str | None:
        return self.context.get("links", {}).get(invitation.pk)

    def get_emailed(self, invitation) -> bool:
        return invitation.pk in self.context.get("emailed", ())


class InvitationTokenSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=100, help_text="The secret at the end of the "
                                                            "invitation link (/invite/<token>/).")


class JoinedSerializer(serializers.Serializer):
    club = serializers.CharField(help_text="The club's slug.")
    member = serializers.IntegerField(help_text="Your member id at the club.")
    display_name = serializers.CharField()
    role = serializers.ChoiceField(choices=MemberRole.choices)


@extend_schema(tags=["clubs"], parameters=[CLUB_FILTER])
class InvitationViewSet(OfOneClub, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Invitation links to a club: club admins make, list and withdraw them. The link is in the
    answer that makes it, and emailed when the invitation has an email."""

    serializer_class = InvitationSerializer
    write_role = perms.ADMIN
    action_roles = {"revoke": perms.ADMIN}

    def get_queryset(self):
        qs = Invitation.objects.filter(
            club__in=perms.clubs_with_role(self.request.user, perms.ADMIN))
        return self.of_club_asked(qs).select_related("club", "created_by")

    def list(self, request, *args, **kwargs):
        if not perms.clubs_with_role(request.user, perms.ADMIN).exists():
            raise PermissionDenied("Only club admins invite people: ask one of your club's "
                                   "admins.")
        return super().list(request, *args, **kwargs)

    def create(self, request, *args, **kwargs):
        self.check_parent(request.data)
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        self.require(data["club"])
        try:
            invitation, secret = invitations.invite(
                data["club"], request.user, role=data["role"], name=data.get("name", ""),
                member=data.get("member"), email=data.get("email", ""), days=data["days"])
        except invitations.InvitationRefused as refused:
            raise DRFValidationError(
                {refused.field or "non_field_errors": [refused.message]}) from None
        link = request.build_absolute_uri(invitations.link_path(secret))
        emailed = set()
        try:
            if invitations.send_invitation(invitation, link):
                emailed.add(invitation.pk)
        except (OSError, smtplib.SMTPException):
            pass  # the answer says emailed: false; the link is in it
        answer = InvitationSerializer(invitation, context={
            **self.get_serializer_context(), "links": {invitation.pk: link}, "emailed": emailed})
        return Response(answer.data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=InvitationSerializer)
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        """Withdraw an invitation: its link stops working."""
        invitation = self.get_object()
        try:
            invitation = invitations.revoke(invitation, request.user)
        except invitations.InvitationRefused as refused:
            raise DRFValidationError({"non_field_errors": [refused.message]}) from None
        return Response(self.get_serializer(invitation).data)

    @extend_schema(request=InvitationTokenSerializer, responses={
        200: JoinedSerializer,
        404: OpenApiResponse(description="No invitation has this token."),
        409: OpenApiResponse(description="Used, withdrawn, expired, or you are a member "
                                         "already: the sentence says which.")})
    @action(detail=False, methods=["post"])
    def accept(self, request):
        """Take an invitation with your own login: you join its club with its role."""
        body = InvitationTokenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        token = body.validated_data["token"]
        invitation = invitations.find(token) if is_text(token) else None
        if invitation is None:
            raise NotFound("No invitation has this token: check the whole link was copied.")
        try:
            member = invitations.accept(invitation, request.user)
        except invitations.InvitationRefused as refused:
            return Response({"detail": refused.message}, status=status.HTTP_409_CONFLICT)
        return Response(JoinedSerializer({"club": invitation.club.slug, "member": member.pk,
                                          "display_name": member.display_name,
                                          "role": member.role}).data)


class ApiTokenSerializer(serializers.ModelSerializer):
    token = serializers.SerializerMethodField(
        help_text="The token itself: only in the answer that made it (only its digest is "
                  "kept), null afterwards. Send it as `Authorization: Token <token>`.")

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created", "token"]
        read_only_fields = ["prefix", "created"]

    def get_token(self, token) -> str | None:
        return self.context.get("secrets", {}).get(token.pk)


@extend_schema(tags=["tokens"])
class ApiTokenViewSet(mixins.CreateModelMixin, mixins.DestroyModelMixin,
                      viewsets.ReadOnlyModelViewSet):
    """Your personal API tokens: make one per program (the answer carries it, once), list them
    by name, revoke one with DELETE."""

    serializer_class = ApiTokenSerializer
    lookup_value_regex = "[0-9]+"

    def get_queryset(self):
        return ApiToken.objects.filter(user=self.request.user)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            token, secret = tokens.issue(request.user, serializer.validated_data["name"])
        except tokens.TokenRefused as refused:
            raise DRFValidationError({"name": [str(refused)]}) from None
        answer = ApiTokenSerializer(token, context={**self.get_serializer_context(),
                                                    "secrets": {token.pk: secret}})
        return Response(answer.data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance):
        tokens.revoke(instance, self.request.user)
