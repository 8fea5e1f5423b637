"""The comparison pages (config/urls.py includes this before the club pages)."""

from django.urls import path

from compare import house_rule_pages, views

TABLE = "clubs/<slug:slug>/sessions/<int:session_id>/tables/<int:table_id>/"

urlpatterns = [
    path("compare/rules/", views.rules_page, name="compare-rules"),
    path("compare/<uuid:pk>/", views.comparison_page, name="comparison"),
    path("compare/<uuid:pk>/resume/", views.resume_page, name="comparison-resume"),
    path("compare/<uuid:pk>/export/<str:fmt>/", views.export_page, name="comparison-export"),
    path("clubs/<slug:slug>/compare/", views.club_compare_page, name="club-compare"),
    path("clubs/<slug:slug>/house-rules/", house_rule_pages.house_rules,
         name="club-house-rules"),
    path("clubs/<slug:slug>/house-rules/copy/", house_rule_pages.copy_rule,
         name="club-house-rule-copy"),
    path("clubs/<slug:slug>/house-rules/<slug:rule_slug>/", house_rule_pages.house_rule,
         name="club-house-rule"),
    path("clubs/<slug:slug>/house-rules/<slug:rule_slug>/edit/", house_rule_pages.edit_rule,
         name="club-house-rule-edit"),
    path("clubs/<slug:slug>/house-rules/<slug:rule_slug>/changes/<int:entry_id>/undo/",
         house_rule_pages.undo_rule_change, name="club-house-rule-undo"),
    path("clubs/<slug:slug>/house-rules/<slug:rule_slug>/default/",
         house_rule_pages.use_for_new_nights, name="club-house-rule-default"),
    path(TABLE + "hands/<int:hand_id>/compare/", views.hand_page, name="compare-hand"),
    path(TABLE + "record/compare/", views.entry_page, name="compare-entry"),
]
