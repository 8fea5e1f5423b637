"""The table page (the latest hands with each seat's score, payments and running total, the
winds now and who deals next, the pot or kitty) and one hand's page (how every score was made).
Both read what recording stored (``clubs.table_state.stored_table_state``)."""

from __future__ import annotations

from django.shortcuts import render

from clubs.views import table_qr
from clubs.views.access import READ, club_page, roles_context
from clubs.views.table_view import hand_view, table_view


def _hand_number(value) -> int | None:
    return int(value) if value and value.isdecimal() and len(value) < 10 else None


@club_page(READ)
def table_page(request, club, club_session, table):
    before = _hand_number(request.GET.get("before"))
    return render(
        request,
        "clubs/table.html",
        {
            "club": club,
            "club_session": club_session,
            "table": table,
            "state": table_view(table, before=before),
            **_follow(request, table),
            **roles_context(request.user, club),
        },
    )


def _follow(request, table) -> dict:
    url = table_qr.table_url(request, table)
    return {"follow_url": url, "follow_qr": table_qr.qr_svg(url)}


@club_page(READ)
def hand_page(request, club, club_session, table, hand):
    """One recorded hand: what was entered for each seat, how each score was made, every
    payment. Read from what recording stored."""
    return render(
        request,
        "clubs/hand.html",
        {
            "club": club,
            "club_session": club_session,
            "table": table,
            "hand": hand_view(table, hand),
            **roles_context(request.user, club),
        },
    )
