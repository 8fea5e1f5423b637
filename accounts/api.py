"""The invitations API (club admins), taking an invitation (the invitee, signed in), personal
API tokens, and confirming a sign-up's email (the link's parts, or the link sent again)."""

from __future__ import annotations

import logging
import re
import smtplib

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from accounts import invitations, limits, tokens, verification
from accounts.models import ApiToken, Invitation
from clubs import permissions as perms
from clubs.api import CLUB_FILTER, OfOneClub, is_text
from clubs.models import Club, Member, MemberRole
from clubs.serializers import ClubSlugField

log = logging.getLogger(__name__)


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


# -- Confirming a sign-up's email (accounts.verification), as the pages do -----------------------

BAD_LINK = ("This link is wrong, expired or used already: ask for a new one "
            "(POST /api/v1/email-verification/resend/), and use the newest link.")
RESEND_SENT = ("If a login with this email is waiting to confirm it, a new link is on its way: "
               "open it within three days.")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What happened, in a sentence.")


class ConfirmEmailSerializer(serializers.Serializer):
    """The two parts of the emailed link ``/accounts/verify/<uid>/<token>/``."""

    uid = serializers.CharField(max_length=64, help_text="The link's first part after "
                                                         "/accounts/verify/.")
    token = serializers.CharField(max_length=128, help_text="The link's last part.")

    def validate_uid(self, value: str) -> str:
        if not _LINK_PART.fullmatch(value):
            raise serializers.ValidationError(
                "Not the link's first part: copy the letters and digits between /verify/ and "
                "the next /.")
        return value

    def validate_token(self, value: str) -> str:
        if not _LINK_PART.fullmatch(value):
            raise serializers.ValidationError(BAD_LINK)
        return value


class ResendEmailSerializer(serializers.Serializer):
    email = serializers.EmailField(
        required=False, max_length=254,
        help_text="The email signed up with. Leave it out when signed in: the link goes to "
                  "your own email. The answer is the same whether or not a login has it.")


@extend_schema(tags=["accounts"])
class EmailVerificationViewSet(viewsets.GenericViewSet):
    """Confirm a sign-up's email with the emailed link's parts, or have the link sent again:
    what ``/accounts/verify/`` does on the pages. Until its email is confirmed a login made by
    the open sign-up may not start a club or make API tokens."""

    permission_classes = [AllowAny]
    serializer_class = ConfirmEmailSerializer

    @extend_schema(request=ConfirmEmailSerializer, responses={
        200: DetailSerializer,
        400: OpenApiResponse(description="Field paths to messages, e.g. {\"token\": [\"This "
                                         "link is wrong, expired or used already: ...\"]}.")})
    @action(detail=False, methods=["post"])
    def confirm(self, request):
        """Confirm an email with the link's ``uid`` and ``token``: a link works once, for
        three days (``PASSWORD_RESET_TIMEOUT``), and the newest link sent is as good as any."""
        body = ConfirmEmailSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if verification.confirm(body.validated_data["uid"], body.validated_data["token"]) is None:
            # One sentence for a uid of nobody and for a wrong token: whether a login exists
            # is not said.
            raise DRFValidationError({"token": [BAD_LINK]})
        return Response(DetailSerializer({"detail": CONFIRMED}).data)

    @extend_schema(request=ResendEmailSerializer, responses={
        202: DetailSerializer,
        400: OpenApiResponse(description="Field paths to messages, e.g. {\"email\": [\"Enter "
                                         "a valid email address.\"]}."),
        429: OpenApiResponse(DetailSerializer, description="Too many links asked from here, "
                             "for this email or for your login in a short time: the sentence "
                             "says when to try again (and Retry-After, in seconds).")})
    @action(detail=False, methods=["post"])
    def resend(self, request):
        """Send the confirmation link again, limited as the page's "Send the link again" (the
        counts are kept in the database: ``ACCOUNT_RATE_LIMITS``). Given an email, the answer
        never says whether a login has it or waits; signed in without one, your own."""
        body = ResendEmailSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        email = body.validated_data.get("email")
        if email is None:
            if not request.user.is_authenticated:
                raise DRFValidationError({"email": ["Give the email you signed up with, or "
                                                    "sign in."]})
            return self._resend_own(request)
        checks = [("verify_resend_address", limits.client_address(request)),
                  ("verify_resend_email", email)]
        if limited := limits.first_limited(*checks):
            return _too_many(limited)
        waiting = get_user_model().objects.filter(email__iexact=email,
                                                  unverified_email__isnull=False)
        for user in waiting[:3]:
            # The page's count per login too, but silently: a refusal here would say the
            # address has a login waiting.
            if limits.hit("verify_resend", str(user.pk)) is None:
                _send(request, user)
        return Response(DetailSerializer({"detail": RESEND_SENT}).data,
                        status=status.HTTP_202_ACCEPTED)

    def _resend_own(self, request):
        user = request.user
        if not verification.unconfirmed(user):
            return Response(DetailSerializer({"detail": "Your email is confirmed already: "
                                                        "there is nothing to send."}).data,
                            status=status.HTTP_202_ACCEPTED)
        if limited := limits.hit("verify_resend", str(user.pk)):
            return _too_many(limited)
        _send(request, user)
        return Response(DetailSerializer({"detail": f"Sent: open the link in the email to "
                                                    f"{user.email}."}).data,
                        status=status.HTTP_202_ACCEPTED)


_LINK_PART = re.compile(r"[A-Za-z0-9_=-]{1,128}")
CONFIRMED = "Your email is confirmed: you can start a club and make API tokens."


def _too_many(limited: limits.Limited) -> Response:
    return Response(DetailSerializer({"detail": limited.words("confirmation emails asked")}).data,
                    status=status.HTTP_429_TOO_MANY_REQUESTS,
                    headers={"Retry-After": str(limited.seconds)})


def _send(request, user) -> None:
    try:
        verification.send(request, user)
    except (OSError, smtplib.SMTPException):
        # The same answer as when it went: the next ask, or the page, tries again.
        log.warning("The confirmation email to login %s could not be sent.", user.pk,
                    exc_info=True)
