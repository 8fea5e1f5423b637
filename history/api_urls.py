"""History routes under /api/v1/ (config/urls.py includes this module there)."""

from django.urls import path

from history import api

urlpatterns = [
    path("clubs/<slug:slug>/rating/", api.RatingTableView.as_view(), name="api-club-rating"),
    path("clubs/<slug:slug>/rating/snapshots/", api.RatingSnapshotsView.as_view(),
         name="api-club-rating-snapshots"),
    path("clubs/<slug:slug>/rating/snapshots/<int:snapshot_id>/",
         api.RatingSnapshotView.as_view(), name="api-club-rating-snapshot"),
    path("clubs/<slug:slug>/members/<int:member_id>/rating-privacy/",
         api.RatingPrivacyView.as_view(), name="api-member-rating-privacy"),
    path("clubs/<slug:slug>/members/<int:member_id>/history/", api.MemberHistoryView.as_view(),
         name="api-member-history"),
]
