"""History pages under a club (config/urls.py includes this module at the site root)."""

from django.urls import path

from history import import_views

BASE = "clubs/<slug:slug>/history/"

urlpatterns = [
    path(BASE + "imports/", import_views.imports, name="history-imports"),
    path(BASE + "imports/<int:batch_id>/", import_views.import_draft, name="history-import"),
    path(BASE + "imports/<int:batch_id>/undo/", import_views.import_undo,
         name="history-import-undo"),
]
