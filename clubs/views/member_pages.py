"""The members page: who belongs to the club and with which role; for club admins, adding,
renaming, roles, setting inactive, guests made members, members entered twice merged, and
undoing any of those (phone-first, no JavaScript needed)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs.members import changes, merge
from clubs.members.forms import AddMemberForm, ChangeMemberForm, GuestForm, MergeForm
from clubs.members.merge import MoveRefused
from clubs.models import AuditEntry, Member, Seat
from clubs.permissions import can_admin, is_member
from clubs.views.access import ADMIN, READ, LoginRequired, club_page, roles_context

RECENT_CHANGES = 15
# The forms post to their own section (#merge, ...) so a refusal shows where it was typed;
# a success goes back to the top, where its message is.
TOP = "#top"


def _members_only(request, club) -> None:
    # A published club's results are public; its list of members is not.
    if not request.user.is_authenticated:
        raise LoginRequired
    if not is_member(request.user, club):
        raise PermissionDenied(f"Only members of {club.name} can see its members; ask a club "
                               "admin to add you.")


def _refused(form, err: MoveRefused) -> None:
    for field, msgs in err.errors.items():
        for msg in msgs:
            form.add_error(field if field in form.fields else None, msg)


def members_url(club) -> str:
    return reverse("members", args=[club.slug])


@club_page(READ)
def members_page(request, club):
    try:
        return _members_page(request, club)
    except LoginRequired:
        return redirect_to_login(request.get_full_path())


def _members_page(request, club, forms=None, status=200):
    _members_only(request, club)
    forms = forms or {}
    admin = can_admin(request.user, club)
    members = list(Member.objects.filter(club=club).annotate(nights=tables_played())
                   .order_by("display_name"))
    context = {"club": club, "active": [m for m in members if m.active],
               "inactive": [m for m in members if not m.active], **roles_context(request.user, club)}
    refused = [e for form in forms.values() for errs in form.errors.values() for e in errs]
    if refused:
        # The form that was sent may be far down a phone's page: say it at the top too.
        context["refused"] = " ".join(refused)
    if admin:
        context.update(
            add_form=forms.get("add") or AddMemberForm(),
            merge_form=forms.get("merge") or MergeForm(club=club),
            guests=[{**g, "form": forms.get(("guest", g["name"].casefold())) or GuestForm(
                club=club, initial={"guest_name": g["name"]}, auto_id=f"id_guest{i}_%s")}
                for i, g in enumerate(merge.guest_names(club))],
            changes=_recent_changes(club),
        )
    return render(request, "clubs/members.html", context, status=status)


def tables_played():
    """Each member's seats counted in the member's own entries of ``seat_by_member`` (a
    subquery per member). A join counted every seat of every member at once, and PostgreSQL
    hashed it over a scan of every club's seats: the list slowed as the database grew."""
    seats = (Seat.objects.filter(member=OuterRef("pk")).order_by().values("member")
             .annotate(n=Count("*")).values("n"))
    return Coalesce(Subquery(seats, output_field=IntegerField()), 0)


def _recent_changes(club) -> list[dict]:
    entries = list(AuditEntry.objects.filter(club=club, object_type="member")
                   .select_related("user")[:RECENT_CHANGES])
    undone = {e.after.get("undoes") for e in entries
              if e.action == "restore" and isinstance(e.after, dict)}
    return [{"entry": e, "undoable": e.pk not in undone
             and (merge.undoable(e) or changes.change_undoable(e))} for e in entries]


@require_POST
@club_page(ADMIN)
def add_member(request, club):
    form = AddMemberForm(request.POST)
    if form.is_valid():
        try:
            member = changes.add_member(club, form.cleaned_data["display_name"],
                                        form.cleaned_data["role"], user=request.user)
        except MoveRefused as err:
            _refused(form, err)
        else:
            messages.success(request, f"{member.display_name} added.")
            return redirect(members_url(club) + TOP)
    return _members_page(request, club, {"add": form}, status=400)


@club_page(READ)
def member_page(request, club, member_id):
    try:
        _members_only(request, club)
    except LoginRequired:
        return redirect_to_login(request.get_full_path())
    member = get_object_or_404(Member, pk=member_id, club=club)
    form = None
    if request.method == "POST":
        if not can_admin(request.user, club):
            raise PermissionDenied(f"Only a club admin of {club.name} can change a member.")
        form = ChangeMemberForm(request.POST)
        if form.is_valid():
            try:
                entry = changes.change_member(member, user=request.user, **form.cleaned_data)
            except MoveRefused as err:
                _refused(form, err)
            else:
                messages.success(request, entry.note if entry else "Nothing changed.")
                return redirect(members_url(club))
    elif can_admin(request.user, club):
        form = ChangeMemberForm(initial={"display_name": member.display_name,
                                         "role": member.role, "active": member.active})
    nights = member.seats.values("table__session").distinct().count()
    return render(request, "clubs/member.html",
                  {"club": club, "member": member, "form": form, "nights": nights,
                   **roles_context(request.user, club)},
                  status=400 if form is not None and form.is_bound else 200)


@require_POST
@club_page(ADMIN)
def guest_to_member(request, club):
    form = GuestForm(request.POST, club=club)
    if form.is_valid():
        data = form.cleaned_data
        try:
            move = merge.guest_to_member(club, data["guest_name"], data["member"],
                                         new_name=data["new_name"], user=request.user)
        except MoveRefused as err:
            _refused(form, err)
        else:
            messages.success(request, move.audit.note)
            return redirect(members_url(club) + TOP)
    key = ("guest", (request.POST.get("guest_name") or "").strip().casefold())
    return _members_page(request, club, {key: form}, status=400)


@require_POST
@club_page(ADMIN)
def merge_members(request, club):
    form = MergeForm(request.POST, club=club)
    if form.is_valid():
        try:
            move = merge.merge_members(form.cleaned_data["keep"], form.cleaned_data["duplicate"],
                                       user=request.user)
        except MoveRefused as err:
            _refused(form, err)
        else:
            messages.success(request, move.audit.note)
            return redirect(members_url(club) + TOP)
    return _members_page(request, club, {"merge": form}, status=400)


@require_POST
@club_page(ADMIN)
def undo_member_change(request, club, entry_id):
    entry = get_object_or_404(AuditEntry, pk=entry_id, club=club, object_type="member")
    try:
        done = (merge.undo_move(entry, user=request.user) if merge.undoable(entry)
                else changes.undo_change(entry, user=request.user))
    except MoveRefused as err:
        messages.error(request, " ".join(m for msgs in err.errors.values() for m in msgs))
        return redirect(members_url(club))
    messages.success(request, done.note if done else "Nothing to put back.")
    return redirect(members_url(club))
