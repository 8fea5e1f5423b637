"""Who may open a page: the club's role rules (clubs.permissions) turned into HTTP answers.

A club the visitor may not see is a 404 for everyone, signed in or not, worded as a club that
does not exist: nobody learns from the answer whether a private club is there (GitHub's rule
for private repositories). The 404 page offers an anonymous visitor "Log in" with ``next=`` the
address asked, so a member who was not signed in still reaches the page after logging in.
Only where the club is visible to the visitor anyway (it publishes its sessions) is an anonymous
visitor sent to log in for what needs a role (a redirect names nothing hidden). Members who lack
the role for a change get 403.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from clubs.models import Club, ClubSession, Hand, Table
from clubs.permissions import can_admin, can_record, can_view_club, is_member
from play import SeatingError

READ = "read"
RECORD = "record"
ADMIN = "admin"


class LoginRequired(Exception):
    """Raised where an anonymous visitor must log in first; the view answers with a redirect.
    Only ever for a club the visitor can already see (a published one)."""


def check_club_access(request, club: Club, need: str = READ) -> None:
    user = request.user
    if need == READ and can_view_club(user, club):
        return
    if not (is_member(user, club) or club.published):
        # Anonymous or not: a private club reads as none (the 404 page offers "Log in").
        raise Http404("No such club.")
    if not user.is_authenticated:
        raise LoginRequired
    allowed = {READ: can_view_club, RECORD: can_record, ADMIN: can_admin}[need](user, club)
    if not allowed:
        role = "a scorer or club admin" if need == RECORD else "a club admin"
        raise PermissionDenied(f"Only {role} of {club.name} can do this.")


def club_page(need: str = READ):
    """Decorator: look up ``slug`` (and session/table/hand ids) within one club, check the role,
    and pass the objects to the view; ids from another club or session are 404."""

    def wrap(view):
        def inner(request, slug, session_id=None, table_id=None, hand_id=None, **kwargs):
            club = get_object_or_404(Club, slug=slug)
            try:
                check_club_access(request, club, need)
            except LoginRequired:
                return redirect_to_login(request.get_full_path())
            objs = {"club": club}
            if session_id is not None:
                objs["club_session"] = get_object_or_404(
                    ClubSession.objects.select_related(
                        "house_rule_version__record", "goulash_rule_version__record", "season"
                    ),
                    pk=session_id,
                    club=club,
                )
            if table_id is not None:
                objs["table"] = get_object_or_404(
                    Table.objects.select_related("session"), pk=table_id, session_id=session_id
                )
            if hand_id is not None:
                objs["hand"] = get_object_or_404(Hand, pk=hand_id, table_id=table_id)
            try:
                return view(request, **objs, **kwargs)
            except SeatingError as err:
                context = {**objs, "problems": err.errors["seats"]}
                return render(request, "clubs/table_unplayable.html", context, status=409)

        inner.__name__ = view.__name__
        inner.__doc__ = view.__doc__
        return inner

    return wrap


def roles_context(user, club: Club) -> dict:
    return {
        "can_record": can_record(user, club),
        "can_admin": can_admin(user, club),
        "is_member": is_member(user, club),
    }
