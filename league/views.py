"""League pages: a season's standings (filters, "as of", downloads), its league rules and
published snapshots, and a player's season. Thin views: the reading is in ``league.queries``."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_POST
from rest_framework.renderers import JSONRenderer

import exports
from clubs.models import AuditAction, AuditEntry, Member, Season
from clubs.views.access import ADMIN, READ, club_page, roles_context
from league.chart import running_total_svg
from league.export_sheets import calculation_sheet, hands_sheet, standings_sheet
from league.forms import FORMATS, FilterForm, LeagueRulesForm, PublishForm
from league.models import SeasonLeague, Snapshot, rules_of
from league.queries import Filters, best_hand, limit_hands, player_nights, standings
from league.ranking import PRESETS
from league.seasons import audit_rules
from league.serializers import StandingsSerializer
from league.signals import beside_standings
from league.withdrawing import (
    PublishRefused,
    publish_snapshot,
    restore_snapshot,
    withdraw_snapshot,
    withdrawn,
)


def _season(club, season_id) -> Season:
    return get_object_or_404(Season, pk=season_id, club=club)


def _filters(request, club) -> tuple[FilterForm, Filters | None]:
    form = FilterForm(request.GET or None, club=club)
    if not form.is_bound:
        return form, Filters()
    return form, form.filters() if form.is_valid() else None


def standings_json(standings_, filters: Filters) -> dict:
    """The standings as JSON: what the API answers, the page's JSON download and
    ``export_standings --format json`` write, the same document everywhere, rendered by the
    serializer the schema documents (``StandingsSerializer``: the league rules with their
    description, the rows), so a client generated from the schema reads them. Its rows are
    rendered field by field without DRF's generic walk (``PlainSerializer``, issue #27)."""
    return StandingsSerializer({**standings_.to_json(), "rules": standings_.rules,
                                "filters": filters.to_dict()}).data


def standings_download(standings_, fmt: str, stem: str, filters: Filters):
    """The standings as a file: JSON is the API's own document (rendered by the API's renderer,
    so the two are the same bytes); CSV one plain table; XLSX with the calculation too."""
    if fmt == "json":
        body = JSONRenderer().render(standings_json(standings_, filters))
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{slugify(stem)}.json"'
        return response
    sheets = [standings_sheet(standings_)]
    if fmt != "csv":
        sheets.append(calculation_sheet(standings_))
    return exports.download(sheets, fmt, stem)


@club_page(READ)
def season_standings(request, club, season_id):
    return _season_page(request, club, _season(club, season_id))


def _season_page(request, club, season, publish_form=None):
    form, filters = _filters(request, club)
    fmt = request.GET.get("format")
    if fmt and fmt not in FORMATS:
        return HttpResponseBadRequest(f"{fmt!r} is not a download format; use csv, xlsx or json.")
    if filters is None:
        if fmt:
            return HttpResponseBadRequest(
                "The filters are not valid: " + "; ".join(
                    f"{k}: {' '.join(v)}" for k, v in form.errors.items()))
        filters = Filters()
    rules = rules_of(season)
    if fmt and request.GET.get("what") == "hands":
        return exports.download([hands_sheet(season, filters)], fmt,
                                f"{club.slug}-{season.name}-hands")
    table = standings(rules, season=season, filters=filters)
    if fmt:
        return standings_download(table, fmt, f"{club.slug}-{season.name}-standings", filters)
    context = {
        "club": club, "season": season, "standings": table, "form": form,
        "query": request.GET.urlencode(), "formats": FORMATS,
        "snapshots": season.league_snapshots.all()[:10],
        "publish_form": publish_form or PublishForm(),
        "beside": beside_standings(club, season, request),
        **roles_context(request.user, club),
    }
    if context["can_admin"]:
        context["withdrawn"] = withdrawn(season)
    bad = (form.is_bound and not form.is_valid()) or publish_form is not None
    return render(request, "league/standings.html", context, status=400 if bad else 200)


@club_page(READ)
def all_time(request, club):
    """Every night the club has recorded, ranked by net points."""
    form, filters = _filters(request, club)
    filters = filters or Filters()
    table = standings(PRESETS["net"][1], club=club, filters=filters)
    fmt = request.GET.get("format")
    if fmt in FORMATS:
        return standings_download(table, fmt, f"{club.slug}-all-time", filters)
    return render(request, "league/standings.html", {
        "club": club, "season": None, "standings": table, "form": form,
        "query": request.GET.urlencode(), "formats": FORMATS,
        "beside": beside_standings(club, None, request),
        **roles_context(request.user, club)})


@club_page(ADMIN)
def league_rules(request, club, season_id):
    season = _season(club, season_id)
    instance = SeasonLeague.objects.filter(season=season).first() or SeasonLeague(
        season=season, **{k: v for k, v in PRESETS["net"][1].to_dict().items()})
    # Read before the form is checked: a ModelForm writes what was sent onto its instance.
    before = instance.rules().to_dict() if instance.pk else None
    form = LeagueRulesForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        league = form.save(commit=False)
        league.updated_by = request.user
        with transaction.atomic():
            league.save()
            audit_rules(season, request.user, before, league.rules().to_dict(), league.preset)
        messages.success(request, "League rules saved: the standings are recomputed with them.")
        return redirect("league-season", club.slug, season.pk)
    return render(request, "league/rules.html", {"club": club, "season": season, "form": form},
                  status=400 if form.is_bound else 200)


@require_POST
@club_page(ADMIN)
def publish(request, club, season_id):
    season = _season(club, season_id)
    form = PublishForm(request.POST)
    if form.is_valid():
        try:
            snapshot = publish_snapshot(season, request.user, form.cleaned_data.get("as_of"),
                                        form.cleaned_data.get("note", ""))
        except PublishRefused as err:
            for field, msgs in err.errors.items():
                for msg in msgs:
                    form.add_error(field, msg)
        else:
            messages.success(request,
                             f"Published the standings as of {snapshot.as_of:%-d %b %Y}.")
            return redirect(reverse("league-snapshot", args=[club.slug, season.pk, snapshot.pk])
                            + "#top")
    return _season_page(request, club, season, publish_form=form)


@require_POST
@club_page(ADMIN)
def withdraw(request, club, season_id, snapshot_id):
    """Take published standings off the pages; the audit trail keeps them."""
    season = _season(club, season_id)
    snapshot = get_object_or_404(Snapshot, pk=snapshot_id, season=season)
    withdraw_snapshot(snapshot, request.user, (request.POST.get("reason") or "")[:200])
    messages.success(request, f"The standings as of {snapshot.as_of:%-d %b %Y} are withdrawn: "
                              "they are kept in the club's records, and can be published again "
                              "below.")
    return redirect("league-season", club.slug, season.pk)


@require_POST
@club_page(ADMIN)
def republish(request, club, season_id, entry_id):
    """Publish withdrawn standings again, as they were."""
    season = _season(club, season_id)
    entry = get_object_or_404(AuditEntry, pk=entry_id, club=club, object_type="snapshot",
                              action=AuditAction.DELETE, before__season=season.pk)
    try:
        snapshot = restore_snapshot(entry, request.user)
    except PublishRefused as err:
        messages.error(request, str(err))
        return redirect("league-season", club.slug, season.pk)
    messages.success(request, f"The standings as of {snapshot.as_of:%-d %b %Y} are published "
                              "again.")
    return redirect("league-snapshot", club.slug, season.pk, snapshot.pk)


@club_page(READ)
def snapshot_page(request, club, season_id, snapshot_id):
    season = _season(club, season_id)
    snapshot = get_object_or_404(Snapshot, pk=snapshot_id, season=season)
    return render(request, "league/snapshot.html",
                  {"club": club, "season": season, "snapshot": snapshot,
                   "rows": snapshot.data["rows"]})


# What the player page shows of a night, a row a night of the season: read as values, not as
# models with the who-paid-whom JSON and the history's columns (issue #27).
NIGHT_SHOWN = ("date", "table_number", "hands", "net", "mahjongs", "given", "place", "tied")


@club_page(READ)
def player_page(request, club, season_id, member_id):
    season = _season(club, season_id)
    member = get_object_or_404(Member, pk=member_id, club=club)
    form, filters = _filters(request, club)
    filters = filters or Filters()
    nights = list(player_nights(member, season, filters).values(*NIGHT_SHOWN))
    running, chart_points = 0, [("start", 0)]
    for night in nights:
        running += night["net"]
        night["running"] = running
        chart_points.append((f"{night['date']:%-d %b}", running))
    hands = sum(n["hands"] for n in nights)
    mahjongs = sum(n["mahjongs"] for n in nights)
    given = sum(n["given"] for n in nights)
    best = best_hand(member, season, filters)
    context = {
        "club": club, "season": season, "member": member, "nights": nights, "form": form,
        "chart": nights and mark_safe(running_total_svg(chart_points,  # noqa: S308  escaped in chart.py
                                             f"{member.display_name}: running total")),
        "hands": hands, "mahjongs": mahjongs, "given": given, "net": running,
        "mahjong_rate": mahjongs / hands if hands else 0,
        "given_rate": given / hands if hands else 0,
        "best": best, "limits": list(limit_hands(member, season, filters)),
        "best_night": max((n["net"] for n in nights), default=None),
    }
    return render(request, "league/player.html", context)


