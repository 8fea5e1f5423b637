"""Mending a night's mistakes from its pages (``clubs.mending``): a table's "Mend" page
(re-seat; for club admins, void every hand or delete the table), deleting an empty night, and
the club's list of what was mended with "Undo"."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs import mending
from clubs.members.forms import MemberChoiceField
from clubs.mending import Refused
from clubs.models import AuditEntry, Member, Table, Wind
from clubs.permissions import can_admin
from clubs.views.access import ADMIN, RECORD, club_page, roles_context

RECENT = 20


def _sentence(err: Refused) -> str:
    said = []
    for msgs in err.errors.values():
        for msg in msgs:
            if isinstance(msg, dict):
                said.extend(m for ms in msg.values() for m in ms)
            else:
                said.append(msg)
    return " ".join(said)


class ReseatForm(forms.Form):
    """One member select and one guest box per seat (and the wind while no hand is played)."""

    def __init__(self, *args, table, winds: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = list(table.seats.select_related("member").order_by("position"))
        members = Member.objects.filter(club_id=table.session.club_id).filter(
            Q(active=True) | Q(pk__in=[s.member_id for s in self.seats if s.member_id])
        ).order_by("display_name")
        self.rows = []
        for seat in self.seats:
            p = seat.position
            self.fields[f"member_{p}"] = MemberChoiceField(
                members, required=False, label="Member", empty_label="A guest",
                initial=seat.member_id)
            self.fields[f"guest_{p}"] = forms.CharField(
                required=False, max_length=80, label="Guest's name", initial=seat.guest_name)
            row = [seat, self[f"member_{p}"], self[f"guest_{p}"]]
            if winds:
                self.fields[f"wind_{p}"] = forms.ChoiceField(
                    choices=[("", "Sits out the first hand"), *Wind.choices], required=False,
                    label="Starting wind", initial=seat.starting_wind)
                row.append(self[f"wind_{p}"])
            self.rows.append(row)
        self.winds = winds

    def seats_given(self) -> list[dict]:
        data = self.cleaned_data
        given = []
        for seat in self.seats:
            p = seat.position
            member = data.get(f"member_{p}")
            row = {"position": p, "member": member.pk if member else None,
                   "guest_name": "" if member else data.get(f"guest_{p}", "")}
            if self.winds:
                row["starting_wind"] = data.get(f"wind_{p}", "")
            given.append(row)
        return given

    def refused(self, err: Refused) -> None:
        by_position = {s.position: i for i, s in enumerate(self.seats)}
        for field, msgs in err.errors.items():
            if field == "seats":
                for seat in self.seats:
                    problem = msgs[by_position[seat.position]] if by_position[
                        seat.position] < len(msgs) else {}
                    for name, texts in problem.items():
                        target = {"member": "member", "guest_name": "guest",
                                  "starting_wind": "wind"}.get(name, "member")
                        key = f"{target}_{seat.position}"
                        for text in texts:
                            self.add_error(key if key in self.fields else None, text)
            else:
                for msg in msgs:
                    self.add_error(None, msg)


def _history(club, **filters) -> list[dict]:
    entries = list(AuditEntry.objects.filter(club=club, **filters)
                   .filter(object_type__in=["table", "clubsession"])
                   .exclude(action="create").select_related("user")[:RECENT])
    undone = {e.after.get("undoes") for e in entries if isinstance(e.after, dict)}
    # A void or re-seat of a table deleted since has nothing left to put back.
    tables = {e.object_id for e in entries if e.object_type == "table" and e.action != "delete"}
    standing = {str(pk) for pk in Table.objects.filter(pk__in=[int(t) for t in tables])
                .values_list("pk", flat=True)}
    return [{"entry": e, "undoable": mending.undoable(e) and e.pk not in undone
             and (e.object_type != "table" or e.action == "delete" or e.object_id in standing)}
            for e in entries]


@club_page(RECORD)
def mend_table(request, club, club_session, table):
    return _mend_table(request, club, club_session, table)


def _mend_table(request, club, club_session, table, form=None, status=200):
    admin = can_admin(request.user, club)
    if not (admin or club_session.is_open):
        raise PermissionDenied("This night is closed: only a club admin of "
                               f"{club.name} can mend its tables now.")
    counted = table.hands.filter(voided=False).count()
    hands = table.hands.count()
    form = form or ReseatForm(table=table, winds=not hands)
    return render(request, "clubs/mend_table.html", {
        "club": club, "club_session": club_session, "table": table, "form": form,
        "counted": counted, "hands": hands,
        "other_tables": club_session.tables.exclude(pk=table.pk).order_by("number"),
        "history": _history(club, object_type="table", object_id=str(table.pk)),
        **roles_context(request.user, club)}, status=status)


@require_POST
@club_page(RECORD)
def reseat(request, club, club_session, table):
    if not (can_admin(request.user, club) or club_session.is_open):
        raise PermissionDenied("This night is closed: only a club admin of "
                               f"{club.name} can mend its tables now.")
    form = ReseatForm(request.POST, table=table, winds=not table.hands.exists())
    if form.is_valid():
        try:
            entry = mending.reseat_table(table, form.seats_given(), user=request.user)
        except Refused as err:
            form.refused(err)
        else:
            messages.success(request, entry.note if entry else "Nothing changed.")
            return redirect(reverse("table", args=[club.slug, club_session.pk, table.pk]))
    return _mend_table(request, club, club_session, table, form, 400)


@require_POST
@club_page(ADMIN)
def void_table(request, club, club_session, table):
    try:
        entry = mending.void_table(table, user=request.user,
                                   reason=(request.POST.get("reason") or "")[:200])
    except Refused as err:
        messages.error(request, _sentence(err))
    else:
        messages.success(request, entry.note)
    return redirect(reverse("mend-table", args=[club.slug, club_session.pk, table.pk]))


@require_POST
@club_page(ADMIN)
def move_hands(request, club, club_session, table):
    """The table was started twice for the same players: its hands go to the other one."""
    target = club_session.tables.filter(pk=_int(request.POST.get("target"))).first()
    if target is None:
        messages.error(request, "Pick the table of the night these hands belong to.")
        return redirect(reverse("mend-table", args=[club.slug, club_session.pk, table.pk]))
    try:
        entry = mending.move_hands(table, target, user=request.user)
    except Refused as err:
        messages.error(request, _sentence(err))
        return redirect(reverse("mend-table", args=[club.slug, club_session.pk, table.pk]))
    messages.success(request, entry.note)
    return redirect(reverse("table", args=[club.slug, club_session.pk, target.pk]))


def _int(value) -> int | None:
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else None


@require_POST
@club_page(ADMIN)
def delete_table(request, club, club_session, table):
    try:
        entry = mending.delete_table(table, user=request.user)
    except Refused as err:
        messages.error(request, _sentence(err))
        return redirect(reverse("mend-table", args=[club.slug, club_session.pk, table.pk]))
    messages.success(request, entry.note + (" Undo it below if that was a mistake too."
                                            if mending.undoable(entry) else
                                            " It stays in the club's records."))
    return redirect(reverse("mended", args=[club.slug]))


@require_POST
@club_page(ADMIN)
def delete_session(request, club, club_session):
    try:
        entry = mending.delete_session(club_session, user=request.user)
    except Refused as err:
        messages.error(request, _sentence(err))
        return redirect(reverse("session", args=[club.slug, club_session.pk]))
    messages.success(request, entry.note + " Undo it below if that was a mistake too.")
    return redirect(reverse("mended", args=[club.slug]))


@club_page(ADMIN)
def mended(request, club):
    """What was mended lately (deleted nights and tables, voids, re-seats), with Undo."""
    return render(request, "clubs/mended.html", {"club": club, "history": _history(club)})


@require_POST
@club_page(ADMIN)
def undo(request, club, entry_id):
    entry = get_object_or_404(AuditEntry, pk=entry_id, club=club,
                              object_type__in=["table", "clubsession"])
    try:
        done = mending.undo(entry, user=request.user)
    except Refused as err:
        messages.error(request, _sentence(err))
    else:
        messages.success(request, done.note)
    return redirect(request.POST.get("next") if _safe_next(request) else
                    reverse("mended", args=[club.slug]))


def _safe_next(request) -> bool:
    from django.utils.http import url_has_allowed_host_and_scheme

    nxt = request.POST.get("next") or ""
    return bool(nxt) and url_has_allowed_host_and_scheme(nxt, {request.get_host()},
                                                         request.is_secure())
