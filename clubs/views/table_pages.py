"""The table page (the latest hands with each seat's score, payments and running total, the
winds now and who deals next, the pot or kitty) and one hand's page (how every score was made).
Both read what recording stored (``clubs.table_state.stored_table_state``)."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse

from clubs.views import table_qr
from clubs.views.access import READ, club_page, roles_context
from clubs.views.offline import kept_offline
from clubs.views.table_view import hand_view, table_view


def _hand_number(value) -> int | None:
    return int(value) if value and value.isdecimal() and len(value) < 10 else None


@club_page(READ)
def table_page(request, club, club_session, table):
    before = _hand_number(request.GET.get("before"))
    roles = roles_context(request.user, club)
    response = render(
        request,
        "clubs/table.html",
        {
            "club": club,
            "club_session": club_session,
            "table": table,
            "state": table_view(table, before=before),
            **_follow(request, table),
            **roles,
            "queue_data": _queue_data(table) if roles["can_record"] else None,
        },
    )
    # Its scorers' phones keep the latest page of the table for a spell without signal.
    return kept_offline(response) if roles["can_record"] and before is None else response


def _queue_data(table) -> dict:
    """For static/js/record-queue.js: hands this phone saved without signal are shown here, and
    sent from here too (without the next hand's number and totals: the record page has them)."""
    return {"table": table.pk, "table_url": "", "next_number": 0, "totals": [],
            "worker": reverse("service-worker")}


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
