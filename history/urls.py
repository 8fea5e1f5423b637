"""History pages under a club (config/urls.py includes this module at the site root)."""

from django.urls import path

from history import import_views, views

BASE = "clubs/<slug:slug>/history/"

urlpatterns = [
    path(BASE + "imports/", import_views.imports, name="history-imports"),
    path(BASE + "imports/<int:batch_id>/", import_views.import_draft, name="history-import"),
    path(BASE + "imports/<int:batch_id>/undo/", import_views.import_undo,
         name="history-import-undo"),
    path(BASE + "players/<int:member_id>/", views.player, name="history-player"),
    path(BASE + "players/<int:member_id>/privacy/", views.privacy, name="history-privacy"),
    path(BASE + "rating/", views.rating_table, name="history-rating"),
    path(BASE + "rating/settings/", views.rating_settings, name="history-rating-settings"),
    path(BASE + "rating/snapshots/", views.take_snapshot, name="history-rating-snapshots"),
    path(BASE + "rating/snapshots/<int:snapshot_id>/", views.snapshot,
         name="history-rating-snapshot"),
]
