"""History routes under /api/v1/ (config/urls.py includes this module there)."""

from django.urls import path

from history import api

urlpatterns = [
    path("clubs/<slug:slug>/rating/", api.RatingTableView.as_view(), name="api-club-rating"),
    path("clubs/<slug:slug>/members/<int:member_id>/history/", api.MemberHistoryView.as_view(),
         name="api-member-history"),
]
