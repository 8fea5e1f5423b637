"""The seasons pages: start a season (name, dates, league rules from a preset), change or close
it, and undo either, for club admins; everyone who reads the league sees which is current.
The writes are ``clubs.seasons``'s, audited; the league rules are this app's own."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs.league_guards import club_today
from clubs.models import AuditAction, AuditEntry
from clubs.seasons import (
    SeasonRefused,
    change_season,
    close_season,
    create_season,
    current_season,
    season_undoable,
    undo_season_change,
)
from clubs.views.access import ADMIN, READ, club_page, roles_context
from league.forms import NewSeasonForm, SeasonForm
from league.models import SeasonLeague
from league.ranking import PRESETS


def _refused(form, err: SeasonRefused) -> None:
    for field, msgs in err.errors.items():
        for msg in msgs:
            form.add_error(field if field in form.fields else None, msg)


def audit_rules(season, user, before: dict | None, after: dict, preset: str = "") -> None:
    AuditEntry.objects.create(
        club_id=season.club_id, user=user, action=AuditAction.UPDATE if before else
        AuditAction.CREATE, object_type="league_rules", object_id=str(season.pk),
        before=before, after={**after, "preset": preset},
        note=f"League rules of {season.name}" + (f": {PRESETS[preset][0]}." if preset in PRESETS
                                                  else " changed."))


@club_page(READ)
def league_home(request, club):
    """The club's seasons, the current one marked, each linking to its standings; for club
    admins the form to start one."""
    return _league_home(request, club)


def _league_home(request, club, form=None):
    roles = roles_context(request.user, club)
    if roles["can_admin"] and form is None:
        today = club_today(club)
        form = NewSeasonForm(initial={"start": today, "name": str(today.year)})
    return render(request, "league/home.html", {
        "club": club, "seasons": club.seasons.all(), "current": current_season(club),
        "season_form": form if roles["can_admin"] else None, **roles},
        status=400 if form is not None and form.is_bound else 200)


@require_POST
@club_page(ADMIN)
def start_season(request, club):
    form = NewSeasonForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                season = create_season(club, data["name"], data["start"], data["end"],
                                       user=request.user)
                rules = PRESETS[data["preset"]][1]
                league = SeasonLeague(season=season, preset=data["preset"],
                                      updated_by=request.user)
                league.set_rules(rules)
                league.save()
                audit_rules(season, request.user, None, rules.to_dict(), data["preset"])
        except SeasonRefused as err:
            _refused(form, err)
        else:
            messages.success(request, f"Season {season.name} started.")
            # The form posts to #new-season (a refusal shows there); the season's page opens
            # at its top.
            return redirect(reverse("league-season", args=[club.slug, season.pk]) + "#top")
    return _league_home(request, club, form)


@club_page(ADMIN)
def edit_season(request, club, season_id):
    season = get_object_or_404(club.seasons, pk=season_id)
    form = SeasonForm(request.POST or None, initial={"name": season.name, "start": season.start,
                                                     "end": season.end})
    if request.method == "POST" and form.is_valid():
        try:
            entry = change_season(season, user=request.user, **form.cleaned_data)
        except SeasonRefused as err:
            _refused(form, err)
        else:
            messages.success(request, entry.note if entry else "Nothing changed.")
            return redirect("league-season-edit", club.slug, season.pk)
    changes = list(AuditEntry.objects.filter(club=club, object_type="season",
                                              object_id=str(season.pk)).select_related("user")[:10])
    undone = {e.after.get("undoes") for e in changes if isinstance(e.after, dict)}
    return render(request, "league/season_edit.html", {
        "club": club, "season": season, "form": form, "today": club_today(club),
        "is_current": current_season(club) == season,
        "changes": [{"entry": e, "undoable": season_undoable(e) and e.pk not in undone}
                    for e in changes]},
        status=400 if form.is_bound else 200)


@require_POST
@club_page(ADMIN)
def close(request, club, season_id):
    season = get_object_or_404(club.seasons, pk=season_id)
    try:
        entry = close_season(season, user=request.user)
    except SeasonRefused as err:
        messages.error(request, str(err))
    else:
        messages.success(request, entry.note)
    return redirect("league-season-edit", club.slug, season.pk)


@require_POST
@club_page(ADMIN)
def undo(request, club, season_id, entry_id):
    season = get_object_or_404(club.seasons, pk=season_id)
    entry = get_object_or_404(AuditEntry, pk=entry_id, club=club, object_type="season",
                              object_id=str(season.pk))
    try:
        done = undo_season_change(entry, user=request.user)
    except SeasonRefused as err:
        messages.error(request, str(err))
    else:
        if done is not None:
            done.after = {**done.after, "undoes": entry.pk}
            done.save(update_fields=["after"])
        messages.success(request, done.note if done else "Nothing to put back.")
    return redirect("league-season-edit", club.slug, season.pk)
