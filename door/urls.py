"""The door's pages: /clubs/<club>/sessions/<id>/door/... and the club's door settings."""

from django.urls import path

from door import views

app_name = "door"
DOOR = "clubs/<slug:slug>/sessions/<int:session_id>/door/"

urlpatterns = [
    path(DOOR, views.session_door, name="session"),
    path(DOOR + "members/", views.members, name="members"),
    path(DOOR + "guests/", views.guests, name="guests"),
    path(DOOR + "check-ins/<int:check_in_id>/", views.check_in, name="check-in"),
    path(DOOR + "rules/", views.rules, name="rules"),
    path(DOOR + "draw/", views.draw, name="draw"),
    path(DOOR + "swap/", views.swap, name="swap"),
    path(DOOR + "accept/", views.accept_draw, name="accept"),
    path(DOOR + "cards.pdf", views.table_cards, name="cards"),
    path("clubs/<slug:slug>/door/settings/", views.door_settings, name="settings"),
]
