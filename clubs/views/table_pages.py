"""The table page: every hand with each seat's score, payments and running total, the winds
now and who is East next, and the pot or kitty. Reads ``clubs.table_state`` only."""

from __future__ import annotations

from django.shortcuts import render

from clubs.views.access import READ, club_page, roles_context
from clubs.views.table_view import table_view


@club_page(READ)
def table_page(request, club, club_session, table):
    return render(
        request,
        "clubs/table.html",
        {
            "club": club,
            "club_session": club_session,
            "table": table,
            "state": table_view(table),
            **roles_context(request.user, club),
        },
    )
