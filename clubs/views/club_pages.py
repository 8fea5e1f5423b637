"""The front page, a club's home and a session (club night) page."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from clubs.forms import SeatingForm, StartSessionForm
from clubs.models import AuditAction, AuditEntry, Seat, SessionStatus
from clubs.permissions import can_admin, member_clubs, visible_clubs
from clubs.views.access import READ, RECORD, club_page, roles_context
from clubs.views.audit_log import log_creation

RECENT_SESSIONS = 12


def home(request):
    """Your clubs (and clubs that publish their sessions), or a login link."""
    mine = list(member_clubs(request.user)) if request.user.is_authenticated else []
    published = visible_clubs(request.user).filter(published=True).exclude(
        pk__in=[club.pk for club in mine]
    )
    return render(request, "clubs/home.html", {"my_clubs": mine, "published_clubs": published,
                                               "tonight": tables_tonight(request.user)})


def tables_tonight(user) -> list[Seat]:
    """"Your table tonight": the user's seats at today's open sessions (one query)."""
    if not user.is_authenticated:
        return []
    return list(Seat.objects.filter(member__user=user, member__active=True,
                                    table__session__date=timezone.localdate(),
                                    table__session__status=SessionStatus.OPEN)
                .select_related("table__session__club").order_by("table__session__club__name"))


def players_for(house_rule_version) -> int:
    """How many players the session's house rule is set for (four unless it says otherwise)."""
    return int((house_rule_version.data.get("scoring") or {}).get("players") or 4)


@club_page(READ)
def club_home(request, club):
    return _club_home(request, club)


def _club_home(request, club, form=None):
    """Recent sessions; scorers and admins also get the form to start one (``form``: as
    sent, with what to mend)."""
    roles = roles_context(request.user, club)
    if form is None and roles["can_record"]:
        form = StartSessionForm(club=club)
    sessions = club.sessions.select_related("house_rule_version__record", "season").prefetch_related(
        "tables"
    )[:RECENT_SESSIONS]
    return render(
        request,
        "clubs/club_home.html",
        {"club": club, "sessions": sessions, "form": form, **roles},
        status=400 if form is not None and form.is_bound else 200,
    )


@require_POST
@club_page(RECORD)
def start_session(request, club):
    form = StartSessionForm(request.POST, club=club)
    if not form.is_valid():
        return _club_home(request, club, form)
    club_session = form.save()
    log_creation(request.user, club, club_session, {"date": str(club_session.date)})
    messages.success(request, "Session started: now add a table and seat the players.")
    return redirect(session_url(club_session))


def session_url(club_session) -> str:
    return reverse("session", args=[club_session.club.slug, club_session.pk])


@club_page(READ)
def session_page(request, club, club_session):
    return _session_page(request, club, club_session)


def _session_page(request, club, club_session, seating_form=None, status_error=""):
    roles = roles_context(request.user, club)
    if seating_form is None and roles["can_record"] and club_session.is_open:
        seating_form = SeatingForm(
            club=club, players=players_for(club_session.house_rule_version),
            session=club_session,
        )
    tables = club_session.tables.prefetch_related("seats__member")
    return render(
        request,
        "clubs/session.html",
        {
            "club": club,
            "club_session": club_session,
            "tables": tables,
            "totals": club_session.player_totals(),
            "seating_form": seating_form,
            "status_error": status_error,
            **roles,
        },
        status=400 if status_error or (seating_form is not None and seating_form.is_bound) else 200,
    )


@require_POST
@club_page(RECORD)
def add_table(request, club, club_session):
    form = SeatingForm(
        request.POST, club=club, players=players_for(club_session.house_rule_version),
        session=club_session,
    )
    if not club_session.is_open:
        messages.error(request, "This session is closed: reopen it before adding a table.")
        return redirect(session_url(club_session))
    if not form.is_valid():
        return _session_page(request, club, club_session, form)
    table = form.save(club_session)
    log_creation(
        request.user, club, table, {"seats": [str(seat) for seat in table.seats.all()]}
    )
    messages.success(request, f"Table {table.number} is ready: record its first hand.")
    return redirect(reverse("table", args=[club.slug, club_session.pk, table.pk]))


@require_POST
@club_page(RECORD)
def session_status(request, club, club_session):
    """Close a night when its last hand is in (scorers), or reopen it for a late correction
    (club admins only): a closed session records no more hands."""
    action = request.POST.get("action")
    if action not in ("close", "reopen"):
        # The page again with the sentence by its buttons, not a bare text page.
        return _session_page(request, club, club_session, status_error=(
            "Send action=close to close the session or action=reopen to reopen it."))
    closing = action == "close"
    if not closing and not can_admin(request.user, club):
        raise PermissionDenied("Only a club admin can reopen a closed session.")
    new = SessionStatus.CLOSED if closing else SessionStatus.OPEN
    if club_session.status != new:
        before = club_session.status
        club_session.status = new
        club_session.save(update_fields=["status"])
        AuditEntry.objects.create(
            club=club,
            user=request.user,
            action=AuditAction.CLOSE if closing else AuditAction.REOPEN,
            object_type="clubsession",
            object_id=str(club_session.pk),
            before={"status": before},
            after={"status": new},
        )
        messages.success(request, "Session closed." if closing else "Session reopened.")
    return redirect(session_url(club_session))
