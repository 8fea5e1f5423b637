"""The door page: check people in, set the host's rules, draw, swap, accept; the table cards;
the club's door settings. Scorers and club admins run the door; members get a 403 saying so."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs.permissions import can_admin, can_record
from clubs.views.access import READ, club_page
from door import cards
from door.checkin import (
    DoorError,
    apply_table_money,
    check_in_guest,
    set_members,
    takings,
    update,
)
from door.drawing import DrawConflict, accept, make_draw, swap_players
from door.forms import AcceptForm, DoorSettingsForm, GuestForm, RuleForm, SwapForm
from door.models import CheckIn, DoorSettings, DrawRule, TableDraw
from door.tonight import door_state

RUNS_THE_DOOR = "Only the club's scorers and admins run the door (check-in and the draw): " \
                "ask one of them."


def door_page(view):
    """``club_page`` for the door: anyone who cannot record is refused with the reason."""

    @club_page(READ)
    @wraps(view)
    def inner(request, club, club_session=None, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_record(request.user, club):
            # Said on the page itself: who runs the door, and whom to ask.
            return render(request, "door/forbidden.html", {"club": club,
                                                           "reason": RUNS_THE_DOOR}, status=403)
        if club_session is None:
            return view(request, club, **kwargs)
        return view(request, club, club_session, **kwargs)

    return inner


def door_url(club_session) -> str:
    return reverse("door:session", args=[club_session.club.slug, club_session.pk])


@door_page
def session_door(request, club, club_session):
    return _render_door(request, club, club_session)


def _render_door(request, club, club_session, forms=None, status=200):
    state = door_state(club_session)
    forms = forms or {}
    context = {
        "club": club, "club_session": club_session, **state,
        "guest_form": forms.get("guest") or GuestForm(),
        "rule_form": forms.get("rule") or RuleForm(people=state["here"]),
        "swap_form": forms.get("swap") or (
            SwapForm(people=state["draw_people"], initial={
                "revision": state["draw"].revision,
                "second": state["draw_people"][1][0] if len(state["draw_people"]) > 1 else None})
            if state["draw"] else None),
        "accept_form": AcceptForm(initial={"revision": state["draw"].revision})
        if state["draw"] else None,
        "takings": takings(club_session),
        "can_admin": can_admin(request.user, club),
    }
    return render(request, "door/door.html", context, status=status)


def _mended(request, club, club_session, err: DoorError):
    """Back to the door page with what to mend (a redirect: a reload repeats nothing)."""
    for message in err.errors.values():
        messages.error(request, " ".join(message))
    return redirect(door_url(club_session) + "#draw")


@require_POST
@door_page
def members(request, club, club_session):
    try:
        ids = {int(v) for v in request.POST.getlist("member")}
    except ValueError:
        messages.error(request, "Tick members from the list.")
        return redirect(door_url(club_session))
    try:
        added, removed = set_members(club_session, ids)
    except DoorError as err:
        return _mended(request, club, club_session, err)
    here = CheckIn.objects.filter(session=club_session, left__isnull=True).count()
    messages.success(request, f"Checked in {added}, gone home {removed}: {here} here.")
    return redirect(door_url(club_session) + "#here")


@require_POST
@door_page
def guests(request, club, club_session):
    form = GuestForm(request.POST)
    if form.is_valid():
        try:
            row = check_in_guest(club_session, form.cleaned_data["name"],
                                 form.cleaned_data["newcomer"])
        except DoorError as err:
            form.add_error("name", err.message)
        else:
            messages.success(request, f"{row.name} checked in.")
            return redirect(door_url(club_session) + "#here")
    return _form_again(request, club, club_session, "guest", form)


def _form_again(request, club, club_session, name, form):
    """The door page again with the form as sent and its errors beside the fields."""
    return _render_door(request, club, club_session, {name: form}, 400)


@require_POST
@door_page
def check_in(request, club, club_session, check_in_id):
    row = get_object_or_404(CheckIn.objects.select_related("member", "session"),
                            pk=check_in_id, session=club_session)
    action = request.POST.get("action")
    changes = {"left": {"left": True}, "back": {"left": False}, "paid": {"paid": True},
               "unpaid": {"paid": False}, "newcomer": {"newcomer": True},
               "regular": {"newcomer": False}}
    if action not in changes:
        messages.error(request, "Unknown action: use the buttons beside the name.")
        return redirect(door_url(club_session))
    try:
        update(row, **changes[action])
    except DoorError as err:
        return _mended(request, club, club_session, err)
    return redirect(door_url(club_session) + f"#c{row.pk}")


@require_POST
@door_page
def rules(request, club, club_session):
    if request.POST.get("delete"):
        DrawRule.objects.filter(session=club_session, pk=request.POST["delete"]).delete()
        return redirect(door_url(club_session) + "#rules")
    state = door_state(club_session)
    form = RuleForm(request.POST, people=state["here"])
    if not form.is_valid():
        return _form_again(request, club, club_session, "rule", form)
    data = form.cleaned_data
    DrawRule.objects.create(session=club_session, kind=data["kind"], first_id=data["first"],
                            second_id=data["second"], table_number=data["table_number"])
    messages.success(request, "Rule added: draw again to apply it.")
    return redirect(door_url(club_session) + "#rules")


@require_POST
@door_page
def draw(request, club, club_session):
    try:
        made = make_draw(club_session)
    except DoorError as err:
        return _mended(request, club, club_session, err)
    messages.success(request, f"Drawn ({made.drawn['method']}): check it, swap if you "
                              "like, then accept.")
    return redirect(door_url(club_session) + "#draw")


@require_POST
@door_page
def swap(request, club, club_session):
    current = get_object_or_404(TableDraw, session=club_session)
    state = door_state(club_session)
    form = SwapForm(request.POST, people=state["draw_people"])
    if not form.is_valid():
        return _form_again(request, club, club_session, "swap", form)
    data = form.cleaned_data
    try:
        swap_players(club_session, current, data["first"], data["second"], data["revision"])
    except DrawConflict as err:
        messages.error(request, str(err))
    except DoorError as err:
        return _mended(request, club, club_session, err)
    else:
        messages.success(request, "Swapped: see the effect below.")
    return redirect(door_url(club_session) + "#draw")


@require_POST
@door_page
def accept_draw(request, club, club_session):
    form = AcceptForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Look at the draw again, then accept.")
        return redirect(door_url(club_session) + "#draw")
    try:
        _, made = accept(club_session, form.cleaned_data["revision"])
    except DrawConflict as err:
        messages.error(request, str(err))
        return redirect(door_url(club_session) + "#draw")
    except DoorError as err:
        return _mended(request, club, club_session, err)
    messages.success(request, "Tables seated: print the cards, or open a table."
                     if made else "These tables were already seated.")
    return redirect(door_url(club_session) + "#tables")


@door_page
def table_cards(request, club, club_session):
    paper = request.GET.get("paper", "a4")
    if paper not in cards.PAPERS:
        return HttpResponse(f"paper={paper!r}: use {' or '.join(cards.PAPERS)}.", status=400,
                            content_type="text/plain; charset=utf-8")
    try:
        data = cards.night_cards(club_session)
    except cards.NoTables as err:
        return HttpResponse(str(err), status=404, content_type="text/plain; charset=utf-8")
    body = cards.render(data, paper)
    response = HttpResponse(body, content_type=cards.CONTENT_TYPE)
    response["Content-Disposition"] = (
        f'inline; filename="tables-{club_session.date:%Y-%m-%d}-{paper}.pdf"')
    return response


@door_page
def door_settings(request, club):
    if not can_admin(request.user, club):
        return render(request, "door/forbidden.html", {
            "club": club, "reason": "Only a club admin changes the door settings."}, status=403)
    instance = DoorSettings.objects.filter(club=club).first() or DoorSettings(club=club)
    form = DoorSettingsForm(request.POST or None, instance=instance, club=club)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            saved = form.save()
            applied = (apply_table_money(club, saved.table_money)
                       if "table_money" in form.changed_data else 0)
        messages.success(request, "Door settings saved." + (
            f" The table money now applies to the {applied} checked in to an open night who "
            "had not paid." if applied else ""))
        return redirect(reverse("door:settings", args=[club.slug]))
    return render(request, "door/settings.html", {"club": club, "form": form},
                  status=400 if form.is_bound else 200)
