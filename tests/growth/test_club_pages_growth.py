"""A club's pages and API answers cost the same number of queries after 10 nights and after
1,000 (issue #27): each page reads what it shows, never the club's whole history.

The history is built with ``bulk_create`` (tests.growth.history): one night recorded through
``clubs.recording``, copied into earlier nights, seasons of fifty. Nothing here is timed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.models import ClubSession, Hand, Member, Table
from history import rating_store
from tests.growth.history import copy_nights

pytestmark = pytest.mark.django_db


def pages(club, session) -> list[str]:
    table = Table.objects.filter(session=session).order_by("number").first()
    hand = Hand.objects.filter(table=table).order_by("number").last()
    member = Member.objects.filter(club=club, display_name="Player 0").get()
    base = f"/clubs/{club.slug}/"
    night = f"{base}sessions/{session.pk}/"
    at_table = f"{night}tables/{table.pk}/"
    season = f"{base}league/{session.season_id}/"
    return [
        base, night, at_table, f"{at_table}hands/{hand.pk}/", f"{at_table}record/",
        f"{base}league/", season, f"{season}players/{member.pk}/", f"{base}league/all-time/",
        f"{base}compare/",
        f"{night}sheet/", f"{night}sheet.csv", f"{at_table}sheet/", f"{at_table}sheet.csv",
        f"{season}?format=csv",
        # Running the club (issue #22).
        f"{base}members/", f"{base}members/{member.pk}/", f"{base}mended/",
        f"{base}house-rules/", f"{base}house-rules/bmja/", f"{base}house-rules/copy/?base=bmja",
        f"{season}edit/", f"{at_table}mend/",
        # History (issue #26): the rating beside the standings above, its own page, a player's
        # statistics and rating lines.
        f"{base}history/rating/", f"{base}history/players/{member.pk}/",
    ]


def api_answers(club, session) -> list[str]:
    table = Table.objects.filter(session=session).order_by("number").first()
    hand = Hand.objects.filter(table=table).order_by("number").last()
    member = Member.objects.filter(club=club, display_name="Player 0").get()
    api = "/api/v1/"
    return [
        f"{api}clubs/{club.slug}/", f"{api}sessions/?club={club.slug}",
        f"{api}sessions/{session.pk}/", f"{api}sessions/{session.pk}/totals/",
        f"{api}tables/?session={session.pk}", f"{api}tables/{table.pk}/",
        f"{api}tables/{table.pk}/state/", f"{api}hands/?table={table.pk}", f"{api}hands/{hand.pk}/",
        f"{api}members/?club={club.slug}", f"{api}seasons/?club={club.slug}",
        f"{api}seasons/{session.season_id}/standings/",
        f"{api}seasons/{session.season_id}/hand-results/",
        f"{api}clubs/{club.slug}/standings/",
        f"{api}members/guests/?club={club.slug}",
        f"{api}seasons/{session.season_id}/snapshots/withdrawn/",
        f"{api}clubs/{club.slug}/rating/", f"{api}clubs/{club.slug}/members/{member.pk}/history/",
    ]


def counted(get, urls: list[str]) -> dict[str, int]:
    found = {}
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = get(url)
        assert response.status_code == 200, (url, response.status_code)
        found[url] = len(queries)
    return found


def test_the_club_pages_cost_the_same_after_10_and_after_1000_nights(client, club, users,
                                                                     night):
    client.force_login(users["admin"])
    api = APIClient()
    api.force_authenticate(users["admin"])
    urls, answers = pages(club, night), api_answers(club, night)

    copy_nights(night, 9)
    assert ClubSession.objects.filter(club=club).count() == 10
    # The club rates its members (opt in): the standings pages show the rating beside them.
    # The copies are written without the signals that mark the rating out of date: rebuilt.
    rating_store.turn_on(club)
    # A first visit does what later ones need not (the table's writer is claimed, a role is
    # looked up once per user): counted from the second visit on.
    counted(client.get, urls), counted(api.get, answers)
    at_10 = counted(client.get, urls) | counted(api.get, answers)

    copy_nights(ClubSession.objects.filter(club=club).order_by("date").first(), 990)
    assert ClubSession.objects.filter(club=club).count() == 1000
    rating_store.turn_on(club)
    at_1000 = counted(client.get, urls) | counted(api.get, answers)

    grew = {url: (at_10[url], at_1000[url]) for url in at_10 if at_1000[url] != at_10[url]}
    assert not grew, f"queries at 10 nights, at 1,000: {grew}"
    # The standings read the stored rows (league.standings_store), which count every night.
    all_time = api.get(f"/api/v1/clubs/{club.slug}/standings/").json()
    assert all_time["season_nights"] == 1000
    assert sum(r["nights"] for r in all_time["rows"]) == 8 * 1000


def test_the_standings_read_one_row_a_player_whatever_the_history(club, night,
                                                                   django_assert_num_queries):
    """Stored standings (issue #27): a season's and all time's in one query each, after 10
    nights and after 1,000, equal to the nights summed."""
    from league.queries import Filters, standings
    from league.ranking import PRESETS

    net, every = PRESETS["net"][1], Filters(start=night.date.replace(year=1900))
    for more in (9, 990):
        copy_nights(ClubSession.objects.filter(club=club).order_by("date").first(), more)
        with django_assert_num_queries(1):
            season = standings(net, season=night.season).to_json()
        with django_assert_num_queries(1):
            all_time = standings(net, club=club).to_json()
        assert season == standings(net, season=night.season, filters=every).to_json()
        assert all_time == standings(net, club=club, filters=every).to_json()
