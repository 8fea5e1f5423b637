"""Invitations to a club and personal API tokens. Neither stores its secret: only a SHA-256
digest, so a copy of the database opens no club and signs in no program."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from clubs.models import MemberRole
from config.authentication import token_digest


def new_secret() -> str:
    return secrets.token_urlsafe(24)  # 32 characters, 192 bits


def digest(secret: str) -> str:
    return token_digest(secret)


class InvitationState(models.TextChoices):
    OPEN = "open", "Waiting to be used"
    USED = "used", "Used"
    REVOKED = "revoked", "Withdrawn"
    EXPIRED = "expired", "Expired"


class Invitation(models.Model):
    """A link that makes (or signs in) a login and joins it to a club with a role, once."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="invitations")
    # The member row the invitee becomes (a player already on the score sheets); empty: a
    # new member called ``name`` is added when the link is used.
    member = models.ForeignKey("clubs.Member", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="invitations")
    name = models.CharField(max_length=80)
    email = models.EmailField(max_length=254, blank=True)
    role = models.CharField(max_length=10, choices=MemberRole.choices, default=MemberRole.MEMBER)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["club", "-created"], name="invitation_by_club")]

    def __str__(self) -> str:
        return f"{self.name} to {self.club} as {self.role}"

    @property
    def state(self) -> str:
        if self.used_at:
            return InvitationState.USED
        if self.revoked_at:
            return InvitationState.REVOKED
        if self.expires <= timezone.now():
            return InvitationState.EXPIRED
        return InvitationState.OPEN

    def get_state_display(self) -> str:
        return InvitationState(self.state).label


class ApiToken(models.Model):
    """A personal API token (``Authorization: Token <key>``): a member may hold several, one
    per program, named, and revoke each alone."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=80)
    # DRF's TokenAuthentication looks tokens up by ``key``: here the digest of the secret.
    key = models.CharField(max_length=64, unique=True, editable=False)
    # The secret's first characters, shown so its owner can tell their tokens apart.
    prefix = models.CharField(max_length=8, editable=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class RateCount(models.Model):
    """How many times one address (or one email) did one thing in one window of time:
    ``accounts.limits``. In the database, not in a process's memory, so every app process
    and machine counts the same attempts. Rows of past windows are deleted as new ones start."""

    key = models.CharField(max_length=80)  # scope and a digest of who (no address kept)
    window = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "window"],
                                               name="ratecount_once_per_window")]
        indexes = [models.Index(fields=["window"], name="ratecount_by_window")]

    def __str__(self) -> str:
        return f"{self.key} {self.window:%H:%M}: {self.count}"


class UnverifiedEmail(models.Model):
    """A login made by the open sign-up whose email has not been confirmed yet
    (``accounts.verification``): no row, nothing to confirm (logins from before, from an
    invitation, from the admin or the demo)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="unverified_email")
    created = models.DateTimeField(auto_now_add=True)
    last_sent = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} (email not confirmed)"
