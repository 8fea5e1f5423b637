"""League routes under /api/v1/ (config/urls.py includes this module there). The clubs router's
``seasons/{id}/`` and ``clubs/{slug}/`` never match these longer paths."""

from django.urls import path

from league import api

urlpatterns = [
    path("seasons/<int:season_id>/standings/", api.SeasonStandingsView.as_view(),
         name="api-season-standings"),
    path("seasons/<int:season_id>/hand-results/", api.SeasonHandResultsView.as_view(),
         name="api-season-hand-results"),
    path("seasons/<int:season_id>/league-rules/", api.LeagueRulesView.as_view(),
         name="api-league-rules"),
    path("seasons/<int:season_id>/snapshots/", api.SnapshotsView.as_view(),
         name="api-snapshots"),
    path("seasons/<int:season_id>/snapshots/withdrawn/", api.WithdrawnSnapshotsView.as_view(),
         name="api-snapshots-withdrawn"),
    path("seasons/<int:season_id>/snapshots/<int:snapshot_id>/", api.SnapshotView.as_view(),
         name="api-snapshot"),
    path("clubs/<slug:slug>/standings/", api.ClubStandingsView.as_view(),
         name="api-club-standings"),
]
