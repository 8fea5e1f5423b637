"""The club pages (phone-first, server-rendered) and Django's login/logout."""

from django.urls import include, path

from clubs.views import club_pages, club_start, hand_pages, table_pages

TABLE = "clubs/<slug:slug>/sessions/<int:session_id>/tables/<int:table_id>/"

urlpatterns = [
    path("accounts/", include("django.contrib.auth.urls")),
    path("", club_pages.home, name="home"),
    path("start-a-club/", club_start.start_club_page, name="start-club"),
    path("clubs/<slug:slug>/", club_pages.club_home, name="club"),
    # Running the club: members, seasons, mending mistakes (clubs/running_urls.py).
    path("clubs/<slug:slug>/", include("clubs.running_urls")),
    path("clubs/<slug:slug>/sessions/new/", club_pages.start_session, name="start-session"),
    path(
        "clubs/<slug:slug>/sessions/<int:session_id>/",
        club_pages.session_page,
        name="session",
    ),
    path(
        "clubs/<slug:slug>/sessions/<int:session_id>/status/",
        club_pages.session_status,
        name="session-status",
    ),
    path(
        "clubs/<slug:slug>/sessions/<int:session_id>/tables/new/",
        club_pages.add_table,
        name="add-table",
    ),
    path(TABLE, table_pages.table_page, name="table"),
    path(TABLE + "record/", hand_pages.record_hand_page, name="record-hand"),
    path(TABLE + "hands/<int:hand_id>/", table_pages.hand_page, name="hand"),
    path(TABLE + "hands/<int:hand_id>/correct/", hand_pages.correct_hand_page, name="correct-hand"),
]
