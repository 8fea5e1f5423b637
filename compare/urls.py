"""The comparison pages (config/urls.py includes this before the club pages)."""

from django.urls import path

from compare import views

TABLE = "clubs/<slug:slug>/sessions/<int:session_id>/tables/<int:table_id>/"

urlpatterns = [
    path("compare/rules/", views.rules_page, name="compare-rules"),
    path("compare/<uuid:pk>/", views.comparison_page, name="comparison"),
    path("compare/<uuid:pk>/resume/", views.resume_page, name="comparison-resume"),
    path("compare/<uuid:pk>/export/<str:fmt>/", views.export_page, name="comparison-export"),
    path("clubs/<slug:slug>/compare/", views.club_compare_page, name="club-compare"),
    path(TABLE + "hands/<int:hand_id>/compare/", views.hand_page, name="compare-hand"),
    path(TABLE + "record/compare/", views.entry_page, name="compare-entry"),
]
