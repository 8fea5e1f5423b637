"""The club admin's invitations page, and the page an invitation link opens."""

from __future__ import annotations

import logging
import smtplib

from django.contrib import messages
from django.contrib.auth import login
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import invitations
from accounts.forms import InviteForm, JoinForm
from accounts.models import Invitation, InvitationState
from accounts.signup import LoginTaken
from accounts.views import BACKEND
from clubs.views.access import ADMIN, club_page

log = logging.getLogger(__name__)
RECENT_CLOSED = 20
SESSION_KEY = "invitation_made"


def _page(request, club, form, status=200):
    made = request.session.pop(SESSION_KEY, None)
    invites = list(Invitation.objects.filter(club=club).select_related("created_by", "member")
                   [:100])
    waiting = [i for i in invites if i.state == InvitationState.OPEN]
    closed = [i for i in invites if i.state != InvitationState.OPEN][:RECENT_CLOSED]
    return render(request, "accounts/invitations.html", {
        "club": club, "form": form, "waiting": waiting, "closed": closed, "made": made,
    }, status=status)


@club_page(ADMIN)
def invitations_page(request, club):
    if request.method != "POST":
        initial = {}
        if (member := request.GET.get("member", "")).isdecimal():
            initial["member"] = member
        return _page(request, club, InviteForm(club=club, initial=initial))
    form = InviteForm(request.POST, club=club)
    if not form.is_valid():
        return _page(request, club, form, status=400)
    data = form.cleaned_data
    try:
        invitation, secret = invitations.invite(
            club, request.user, role=data["role"], name=data["name"], member=data["member"],
            email=data["email"] or "", days=data["days"])
    except invitations.InvitationRefused as refused:
        form.add_error(refused.field if refused.field in form.fields else None, refused.message)
        return _page(request, club, form, status=400)
    link = request.build_absolute_uri(invitations.link_path(secret))
    sent, problem = False, ""
    try:
        sent = invitations.send_invitation(invitation, link)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("Invitation %s: the email to %s was not sent: %s", invitation.pk,
                    invitation.email, error)
        problem = "The email could not be sent just now: copy the link into a message instead."
    # Shown once, on the next page: only the link's digest is stored.
    request.session[SESSION_KEY] = {"link": link, "name": invitation.name,
                                    "email": invitation.email if sent else "",
                                    "problem": problem, "role": invitation.get_role_display()}
    return redirect(reverse("invitations", args=[club.slug]) + "#made")


@require_POST
@club_page(ADMIN)
def revoke_page(request, club, invitation_id: int):
    invitation = Invitation.objects.filter(club=club, pk=invitation_id).first()
    if invitation is None:
        messages.error(request, "No such invitation in this club: it may have been withdrawn "
                                "from another phone.")
    else:
        try:
            invitations.revoke(invitation, request.user)
        except invitations.InvitationRefused as refused:
            messages.error(request, refused.message)
        else:
            messages.success(request, f"The invitation for {invitation.name} is withdrawn: "
                                      "its link no longer works.")
    return redirect("invitations", club.slug)


def invitation_page(request, secret: str):
    """What an invitation link opens: set a password (or sign in) and join the club."""
    invitation = invitations.find(secret)
    if invitation is None:
        return render(request, "accounts/invitation_closed.html", {
            "reason": "This invitation link is not one we know: check that the whole link "
                      "was copied, or ask whoever sent it for a new one."}, status=404)
    if (reason := invitations.why_closed(invitation)) is not None:
        return render(request, "accounts/invitation_closed.html",
                      {"reason": reason, "club": invitation.club}, status=410)
    user = request.user
    form = None if user.is_authenticated else JoinForm(
        request.POST or None, initial={"email": invitation.email})
    problem = ""
    if request.method == "POST":
        try:
            if user.is_authenticated:
                invitations.accept(invitation, user)
            elif form.is_valid():
                with transaction.atomic():
                    user = form.save()
                    invitations.accept(invitation, user)
                login(request, user, backend=BACKEND)
            else:
                user = None
        except invitations.InvitationRefused as refused:
            problem = refused.message
        except LoginTaken:
            pass  # the form says so
        else:
            if user is not None:
                messages.success(request, f"Welcome to {invitation.club.name}.")
                return redirect("club", invitation.club.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/invitation.html", {
        "invitation": invitation, "club": invitation.club, "form": form, "problem": problem,
        "secret": secret}, status=status)
