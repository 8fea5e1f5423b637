"""The league in Django's admin: a season's rules editable (checked as the page checks them),
snapshots and the per-night summary for reading only (one is frozen, the other derived)."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from clubs.admin_filters import ClubFilter, EstimatedCountPaginator, SeasonFilter
from clubs.admin_read_only import ReadOnlyAdmin
from league.models import NightResult, SeasonLeague, Snapshot
from league.ranking import LeagueRulesError


class SeasonLeagueForm(forms.ModelForm):
    class Meta:
        model = SeasonLeague
        fields = ["season", "preset", "measure", "combine", "points", "best_n", "min_nights",
                  "min_share", "tie_breaks"]

    def clean(self):
        data = super().clean()
        if not self.errors:
            probe = SeasonLeague(**{k: v for k, v in data.items() if k != "season"})
            try:
                probe.rules().check()
            except LeagueRulesError as err:
                for name, messages in err.errors.items():
                    self.add_error(name, messages)
        return data


@admin.register(SeasonLeague)
class SeasonLeagueAdmin(admin.ModelAdmin):
    form = SeasonLeagueForm
    list_display = ["season", "measure", "combine", "points", "min_nights", "min_share"]
    list_select_related = ["season__club"]


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    deletable = True  # an admin may withdraw a snapshot published by mistake
    list_display = ["season", "as_of", "published", "note"]
    list_select_related = ["season__club"]


@admin.register(NightResult)
class NightResultAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ["date", "table_number", "member", "guest_name", "hands", "net", "place",
                    "points_zero", "counted"]
    list_filter = [ClubFilter, SeasonFilter]
    list_select_related = ["member__club"]
    raw_id_fields = ["seat", "table", "session", "member", "season"]
    ordering = ["-id"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator

    def get_ordering(self, request):
        # Filtered by club or season: latest nights first, read in night_by_club_date or
        # night_by_season_date, not by walking the whole table backwards by its key.
        if {ClubFilter.parameter_name, SeasonFilter.parameter_name} & set(request.GET):
            return ["-date", "-id"]
        return super().get_ordering(request)
