"""League pages under a club (config/urls.py includes this module at the site root)."""

from django.urls import path

from league import seasons, views

SEASON = "clubs/<slug:slug>/league/<int:season_id>/"

urlpatterns = [
    path("clubs/<slug:slug>/league/", seasons.league_home, name="league"),
    path("clubs/<slug:slug>/league/seasons/new/", seasons.start_season, name="league-season-new"),
    path(SEASON + "edit/", seasons.edit_season, name="league-season-edit"),
    path(SEASON + "close/", seasons.close, name="league-season-close"),
    path(SEASON + "changes/<int:entry_id>/undo/", seasons.undo, name="league-season-undo"),
    path("clubs/<slug:slug>/league/all-time/", views.all_time, name="league-all-time"),
    path(SEASON, views.season_standings, name="league-season"),
    path(SEASON + "rules/", views.league_rules, name="league-rules"),
    path(SEASON + "publish/", views.publish, name="league-publish"),
    path(SEASON + "snapshots/<int:snapshot_id>/", views.snapshot_page, name="league-snapshot"),
    path(SEASON + "snapshots/<int:snapshot_id>/withdraw/", views.withdraw,
         name="league-withdraw"),
    path(SEASON + "snapshots/withdrawn/<int:entry_id>/publish/", views.republish,
         name="league-republish"),
    path(SEASON + "players/<int:member_id>/", views.player_page, name="league-player"),
]
