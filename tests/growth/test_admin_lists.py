"""The admin's busiest lists (hands, entries, results, seats, tables, nights, the league's
night results) cost the same number of queries after 10 nights and after 1,000 (issue #27:
57 queries and 2-2.9 s at a million hands): rows and filters read with their relations, no
second full count, filters that list a club's own seasons only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import ClubSession, Season
from tests.growth.history import copy_nights

pytestmark = pytest.mark.django_db

LISTS = ["clubs/hand", "clubs/handresult", "clubs/handentry", "clubs/seat", "clubs/table",
         "clubs/clubsession", "league/nightresult", "clubs/season"]


def urls(club) -> list[str]:
    season = Season.objects.filter(club=club).order_by("-start").first()
    found = [f"/admin/{name}/" for name in LISTS]
    return found + [f"/admin/clubs/handresult/?club={club.pk}",
                    f"/admin/clubs/handresult/?club={club.pk}&season={season.pk}",
                    f"/admin/clubs/hand/?club={club.pk}"]


def counted(client, club) -> dict[str, int]:
    found = {}
    for url in urls(club):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        found[url] = len(queries)
    return found


def test_the_admin_lists_cost_the_same_after_10_and_after_1000_nights(client, club, night):
    client.force_login(get_user_model().objects.create_superuser("root", password="x-y-z-123"))
    copy_nights(night, 9)
    counted(client, club)  # a first visit looks up what later ones need not
    at_10 = counted(client, club)
    copy_nights(ClubSession.objects.filter(club=club).order_by("date").first(), 990)
    at_1000 = counted(client, club)
    grew = {url: (at_10[url], at_1000[url]) for url in at_10 if at_1000[url] != at_10[url]}
    assert not grew, f"queries at 10 nights, at 1,000: {grew}"
    assert max(at_1000.values()) <= 12, (at_10, at_1000)


def test_an_unfiltered_list_is_not_counted_row_by_row_on_postgresql(club, night):
    """COUNT(*) over millions of results took half a second on every page of the admin's
    list: unfiltered, PostgreSQL's estimate is read instead; filtered, the count is exact."""
    from clubs.admin_filters import EstimatedCountPaginator
    from clubs.models import HandResult

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE clubs_handresult")  # as autovacuum does; a new table: -1
    everything = EstimatedCountPaginator(HandResult.objects.order_by("-id"), 100)
    with CaptureQueriesContext(connection) as queries:
        count = everything.count
    counted = any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    if connection.vendor == "postgresql":
        assert not counted and "reltuples" in queries.captured_queries[0]["sql"]
    else:
        assert counted and count == HandResult.objects.count()
    one_club = EstimatedCountPaginator(HandResult.objects.filter(club=club).order_by("-id"), 100)
    assert one_club.count == HandResult.objects.filter(club=club).count() == 32
