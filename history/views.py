"""The player's history page (statistics and the rating's calculation), the rating table with
its dated snapshots, and the rating's settings. Thin views: the reading is in ``stats`` and
``rating_store``."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from clubs.models import Member, Season
from clubs.views.access import ADMIN, READ, club_page, roles_context
from history import rating_store
from history.charts import bars_svg
from history.models import RatingLine, RatingPrivacy, RatingSettings, RatingSnapshot
from history.stats import Span, all_time, latest_season, member_stats
from league.chart import running_total_svg


class SpanForm(forms.Form):
    """A season (the member's latest when none is chosen and no dates are given), every
    season, or dates."""

    EVERY = "all"

    season = forms.ChoiceField(required=False)
    start = forms.DateField(required=False, label="From",
                            widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label="To",
                          widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        # The season's name alone: its str() reads the club, one query per season listed.
        self.fields["season"].choices = [
            ("", "Latest season played"), (self.EVERY, "All seasons"),
            *((str(pk), name) for pk, name in
              Season.objects.filter(club=club).values_list("pk", "name"))]

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["end"] < data["start"]:
            raise forms.ValidationError("The end date is before the start date.")
        # The page asks for every season as season=all; an address with the API's 'all=true'
        # and a season asks for both, and showing either one would hide the other.
        asked_all = forms.NullBooleanField().to_python(self.data.get("all"))
        if asked_all and data.get("season") not in (None, "", self.EVERY):
            self.add_error("season", "One season and every season ('all=true') asked at once: "
                           "drop 'all' from the address, or choose All seasons here.")
        return data

    def span(self, member) -> Span:
        """What the form asks for; nothing asked: the member's latest season. Dates without
        a season span every season between them."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        season, start, end = data.get("season") or "", data.get("start"), data.get("end")
        if season == self.EVERY:
            return Span(None, start, end, every=True)
        if season:
            return Span(int(season), start, end)
        if start or end:
            return Span(None, start, end)
        return latest_season(member)


def _viewer_member(request, club) -> Member | None:
    if not request.user.is_authenticated:
        return None
    return Member.objects.filter(club=club, user=request.user).first()


@club_page(READ)
def player(request, club, member_id):
    member = get_object_or_404(Member, pk=member_id, club=club)
    form = SpanForm(request.GET or None, club=club)
    valid = not form.is_bound or form.is_valid()
    span = form.span(member)
    stats = member_stats(member, span)
    viewer = _viewer_member(request, club)
    settings = rating_store.ensure_fresh(club)
    hidden = RatingPrivacy.objects.filter(member=member, hidden=True).exists()
    own = viewer is not None and viewer.pk == member.pk
    lines = []
    if settings and settings.enabled and (own or not hidden):
        lines = list(span.results(
            RatingLine.objects.filter(member=member), "date", "season_id")
            .select_related("table__session").order_by("date", "seq"))
    chart_points = [("start", round(lines[0].old))] if lines else []
    chart_points += [(f"{ln.date:%-d %b %y}", round(ln.new)) for ln in lines]
    context = {
        "club": club, "member": member, "form": form, "stats": stats, "span": span,
        "all_time": all_time(member), "span_season": _season_name(form, span),
        "paid_chart": mark_safe(bars_svg(  # noqa: S308  escaped in charts.py
            [(name, net) for name, _r, _p, net in stats.paid],
            f"{member.display_name}: received less paid, by opponent")),
        "wind_chart": mark_safe(bars_svg(  # noqa: S308  escaped in charts.py
            [("As East", stats.east["net"]), ("Other winds", stats.net - stats.east["net"]),
             ("Goulash hands", stats.goulash["net"])],
            f"{member.display_name}: net by seat")),
        "rating": settings if settings and settings.enabled else None,
        "lines": lines, "hidden": hidden, "own": own, "grade": lines[-1].new if lines else None,
        "rating_chart": mark_safe(running_total_svg(  # noqa: S308  escaped in league/chart.py
            chart_points, f"{member.display_name}: grade")) if len(chart_points) > 1 else "",
        **roles_context(request.user, club),
    }
    return render(request, "history/player.html", context, status=200 if valid else 400)


def _season_name(form, span) -> str:
    return dict(form.fields["season"].choices).get(str(span.season), "") if span.season else ""


@require_POST
@club_page(READ)
def privacy(request, club, member_id):
    """A member hides or shows their own rating (nobody else may)."""
    member = get_object_or_404(Member, pk=member_id, club=club)
    viewer = _viewer_member(request, club)
    if viewer is None or viewer.pk != member.pk:
        messages.error(request, "Only the member themselves can hide or show their rating.")
        return redirect("history-player", club.slug, member.pk)
    hide = request.POST.get("hidden") == "1"
    RatingPrivacy.objects.update_or_create(member=member, defaults={"hidden": hide})
    messages.success(request, "Your rating is now hidden from everyone else." if hide
                     else "Your rating is shown again.")
    return redirect("history-player", club.slug, member.pk)


class AsOfForm(forms.Form):
    as_of = forms.DateField(required=False, label="As of",
                            widget=forms.DateInput(attrs={"type": "date"}))


@club_page(READ)
def rating_table(request, club):
    settings = rating_store.ensure_fresh(club)
    form = AsOfForm(request.GET or None)
    as_of = form.cleaned_data.get("as_of") if form.is_bound and form.is_valid() else None
    viewer = _viewer_member(request, club)
    rows = (rating_store.table_as_of(club, as_of, viewer.pk if viewer else None)
            if settings and settings.enabled else [])
    season = Season.objects.filter(club=club, start__lte=as_of or timezone.localdate()).first()
    return render(request, "history/rating.html", {
        "club": club, "settings": settings, "rows": rows, "form": form, "as_of": as_of,
        "season": season, "snapshots": RatingSnapshot.objects.filter(club=club)[:20],
        **roles_context(request.user, club)},
        status=400 if form.is_bound and not form.is_valid() else 200)


def rating_beside(request, club, season) -> str | None:
    """The club rating beside a season's standings (or the all-time table), never instead of
    them: the HTML history answers league's ``standings_shown`` with, None when the club has
    not turned the rating on. A past season's page shows the rating as of its last day.
    Members who hide theirs are left out, except to themselves. A few queries, whatever the
    club's history."""
    settings = rating_store.ensure_fresh(club)
    if not settings or not settings.enabled:
        return None
    today = timezone.localdate()
    as_of = season.end if season is not None and season.end and season.end < today else None
    viewer = _viewer_member(request, club)
    rows = rating_store.table_as_of(club, as_of, viewer.pk if viewer else None)
    return render_to_string("history/_rating_beside.html", {
        "club": club, "rows": rows, "as_of": as_of, "settings": settings}, request=request)


@require_POST
@club_page(ADMIN)
def take_snapshot(request, club):
    form = AsOfForm(request.POST)
    if not form.is_valid():
        # A date the form cannot read is said, not taken for today's snapshot (a browser
        # without a date picker sends what was typed, "30/02/2024").
        messages.error(request, "No snapshot was kept: the date "
                       f"{request.POST.get('as_of', '')[:20]!r} is not a date; write it as "
                       "2024-12-31.")
        return redirect("history-rating", club.slug)
    as_of = form.cleaned_data.get("as_of")
    try:
        snapshot = rating_store.take_snapshot(club, as_of, request.user)
    except rating_store.SnapshotRefused as refused:
        messages.error(request, str(refused))
        return redirect("history-rating", club.slug)
    messages.success(request, f"Snapshot of the rating as of {snapshot.as_of:%-d %b %Y} kept.")
    return redirect("history-rating-snapshot", club.slug, snapshot.pk)


@club_page(READ)
def snapshot(request, club, snapshot_id):
    snap = get_object_or_404(RatingSnapshot, pk=snapshot_id, club=club)
    viewer = _viewer_member(request, club)
    return render(request, "history/snapshot.html", {
        "club": club, "snapshot": snap,
        "rows": rating_store.snapshot_rows(snap, viewer.pk if viewer else None)})


class RatingSettingsForm(forms.ModelForm):
    class Meta:
        model = RatingSettings
        fields = ["enabled", "provisional_nights", "min_weight", "guest_grade"]
        labels = {"enabled": "Rate the club's members (opt in)"}

    def clean_provisional_nights(self):
        # The model's own range check speaks of the column's size (32767, or 2**63 - 1 on
        # SQLite), not of nights.
        value = self.cleaned_data["provisional_nights"]
        if not 0 <= value <= 100:
            raise forms.ValidationError(
                "Give a number of nights from 0 to 100 (0: no grade is provisional).")
        return value

    def clean_min_weight(self):
        value = self.cleaned_data["min_weight"]
        if not 0.01 <= value <= 1:
            raise forms.ValidationError("Give a weight from 0.01 to 1 (0.1: about ten nights' memory).")
        return value

    def clean_guest_grade(self):
        value = self.cleaned_data["guest_grade"]
        if not 0 <= value <= 100:
            raise forms.ValidationError("A grade is from 0 to 100.")
        return value


@club_page(ADMIN)
def rating_settings(request, club):
    instance = RatingSettings.objects.filter(club=club).first() or RatingSettings(club=club)
    form = RatingSettingsForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            settings = form.save(commit=False)
            settings.club = club
            if settings.enabled:
                rating_store.turn_on(club, provisional_nights=settings.provisional_nights,
                                     min_weight=settings.min_weight,
                                     guest_grade=settings.guest_grade)
            else:
                settings.save()
                RatingLine.objects.filter(club=club).delete()
        messages.success(request, "Rating settings saved: every night recomputed with them."
                         if settings.enabled else "The rating is off.")
        return redirect("history-rating", club.slug)
    return render(request, "history/rating_settings.html", {"club": club, "form": form},
                  status=400 if form.is_bound else 200)
