"""Inviting someone to a club: a link that makes (or signs in) a login and joins it to the club
with a role. Single use, expiring, revocable, each step audited; one module for the pages and
the API."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import Invitation, InvitationState, digest, new_secret
from clubs.models import AuditAction, AuditEntry, Club, Member, MemberRole
from clubs.permissions import forget_roles

DEFAULT_DAYS = 14
MAX_DAYS = 60


class InvitationRefused(Exception):
    """What cannot be done, in a sentence for the person who tried (``field``: which answer to
    change, if one does)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def _audit(invitation: Invitation, user, action: str, note: str, **after) -> None:
    AuditEntry.objects.create(
        club_id=invitation.club_id, user=user if user and user.is_authenticated else None,
        action=action, object_type="invitation", object_id=str(invitation.pk), note=note,
        after={"name": invitation.name, "role": invitation.role,
               "member": invitation.member_id, "email": invitation.email, **after})


def invite(club: Club, by, *, role: str = MemberRole.MEMBER, name: str = "",
           member: Member | None = None, email: str = "",
           days: int = DEFAULT_DAYS) -> tuple[Invitation, str]:
    """A new invitation and its secret (shown once: only its digest is kept)."""
    name = (name or "").strip()
    if role not in MemberRole.values:
        raise InvitationRefused("Choose a role: admin, scorer or member.", "role")
    if not 1 <= days <= MAX_DAYS:
        raise InvitationRefused(f"An invitation works for 1 to {MAX_DAYS} days.", "days")
    if member is not None:
        if member.club_id != club.pk:
            raise InvitationRefused("That member is not in this club.", "member")
        if member.user_id is not None:
            raise InvitationRefused(f"{member.display_name} already has a login: change their "
                                    "role on the members page instead.", "member")
        name = member.display_name
    elif not name:
        raise InvitationRefused("Give the name the club will know them by, or choose a member "
                                "already on the score sheets.", "name")
    elif Member.objects.filter(club=club, display_name=name).exists():
        raise InvitationRefused(f"{club.name} already has a member called {name!r}: choose "
                                "them in “Member already on the score sheets”, or add an "
                                "initial to tell them apart.", "name")
    secret = new_secret()
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=club, member=member, name=name[:80], email=email.strip(), role=role,
            digest=digest(secret), created_by=by if by.is_authenticated else None,
            expires=timezone.now() + dt.timedelta(days=days))
        _audit(invitation, by, AuditAction.CREATE, "Invitation made",
               expires=invitation.expires.isoformat())
    return invitation, secret


def link_path(secret: str) -> str:
    return reverse("invitation", args=[secret])


def send_invitation(invitation: Invitation, link: str) -> bool:
    """Email the link, if the invitation has an address; the admin sees it either way."""
    if not invitation.email:
        return False
    inviter = invitation.created_by
    who = (inviter.get_full_name() or inviter.get_username()) if inviter else "A club admin"
    role = MemberRole(invitation.role).label.lower()
    send_mail(
        subject=f"Join {invitation.club.name} on Mah-jong club scores",
        message=(
            f"Hello {invitation.name},\n\n{who} invites you to join {invitation.club.name} as "
            f"a {role}.\n\nOpen this link to set your password (or sign in) and join:\n{link}\n\n"
            f"It works once, until {timezone.localtime(invitation.expires):%d %B %Y}. If you "
            f"did not expect it, ignore this email.\n"),
        from_email=settings.DEFAULT_FROM_EMAIL, recipient_list=[invitation.email],
        fail_silently=False)
    return True


def find(secret: str) -> Invitation | None:
    if not isinstance(secret, str) or not secret or len(secret) > 100:
        return None
    return (Invitation.objects.select_related("club", "member", "created_by")
            .filter(digest=digest(secret)).first())


def why_closed(invitation: Invitation) -> str | None:
    """None while the link works; otherwise a sentence for the person holding it."""
    state = invitation.state
    ask = f"ask a club admin of {invitation.club.name} for a new link"
    if state == InvitationState.USED:
        return f"This invitation has been used already. If that was not you, {ask}."
    if state == InvitationState.REVOKED:
        return f"This invitation was withdrawn: {ask}."
    if state == InvitationState.EXPIRED:
        return (f"This invitation expired on {timezone.localtime(invitation.expires):%d %B %Y}:"
                f" {ask}.")
    return None


def revoke(invitation: Invitation, by) -> Invitation:
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if locked.state != InvitationState.OPEN:
            raise InvitationRefused(f"This invitation is {locked.get_state_display().lower()} "
                                    "already: there is nothing to withdraw.")
        locked.revoked_at, locked.revoked_by = timezone.now(), by
        locked.save(update_fields=["revoked_at", "revoked_by"])
        _audit(locked, by, AuditAction.UPDATE, "Invitation withdrawn")
    return locked


def accept(invitation: Invitation, user) -> Member:
    """Join ``user`` to the club as the invitation says, once; the member row it names gets
    the login (its past nights stay its own)."""
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().select_related("club").get(
            pk=invitation.pk)
        if (reason := why_closed(locked)) is not None:
            raise InvitationRefused(reason)
        club = locked.club
        mine = Member.objects.filter(club=club, user=user).first()
        if mine is not None:
            raise InvitationRefused(
                f"You are already a member of {club.name}, as {mine.display_name}. The "
                f"invitation is kept for whoever it was meant for: if that was you under "
                f"another name, ask a club admin to change your role.")
        if locked.member_id is not None:
            member = Member.objects.select_for_update().get(pk=locked.member_id)
            if member.user_id is not None:
                raise InvitationRefused(f"{member.display_name} has a login already: ask a "
                                        f"club admin of {club.name} for a new link.")
            before = {"user": None, "role": member.role, "active": member.active}
            member.user, member.role, member.active = user, locked.role, True
            member.save(update_fields=["user", "role", "active"])
            action = AuditAction.UPDATE
        else:
            if Member.objects.filter(club=club, display_name=locked.name).exists():
                raise InvitationRefused(
                    f"{club.name} has meanwhile added another member called {locked.name!r}: "
                    "ask a club admin for a link made for that member.")
            before = None
            member = Member.objects.create(club=club, user=user, display_name=locked.name,
                                           role=locked.role, joined=timezone.localdate())
            action = AuditAction.CREATE
        locked.used_at, locked.used_by = timezone.now(), user
        locked.save(update_fields=["used_at", "used_by"])
        _audit(locked, user, AuditAction.UPDATE, "Invitation used",
               login=user.get_username())
        AuditEntry.objects.create(
            club=club, user=user, action=action, object_type="member", object_id=str(member.pk),
            before=before, note="Joined from an invitation",
            after={"display_name": member.display_name, "role": member.role,
                   "user": user.get_username()})
    forget_roles(user)
    return member
