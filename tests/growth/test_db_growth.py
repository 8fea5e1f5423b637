"""Every page and API answer a club's people open costs the same number of queries however many
other clubs share the database (issue #27: the same at 20k and at 1M hands): each read is
bounded by its club, night or season, never by the whole database.

One club is built (a night recorded through ``clubs.recording``, copied into twenty; a door
with check-ins and a draw for the next night; a comparison; the rating turned on), every page
and answer counted, then many other clubs get their own histories (``copy_club``, bulk-built)
and everything is counted again. ``bench/bench_db_growth.py`` times the same list at 20k and at
1M hands. Nothing here is timed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.models import Club, ClubSession, Hand, HandResult, Member, Table
from tests.growth import test_admin_lists
from tests.growth.history import copy_club, copy_nights
from tests.growth.test_club_pages_growth import api_answers, pages

pytestmark = pytest.mark.django_db

OTHER_CLUBS, THEIR_NIGHTS = 12, 40


def open_the_door(club, night) -> ClubSession:
    """The next club night at the door: the members checked in, a guest, a draw made."""
    from door.checkin import check_in_guest, set_members
    from door.drawing import make_draw

    upcoming = ClubSession.objects.create(club=club, season=night.season,
                                          date=night.date + dt.timedelta(weeks=1),
                                          house_rule_version=night.house_rule_version)
    set_members(upcoming, set(Member.objects.filter(club=club, user__isnull=True)
                              .values_list("pk", flat=True)))
    check_in_guest(upcoming, "Visiting Vera")
    make_draw(upcoming, seed=7)
    return upcoming


def compare_the_night(night, user):
    from compare import runs
    from compare.rule_choice import chosen_rules
    from compare.scope import resolve_scope

    scope = resolve_scope({"session": night.pk}, user)
    return runs.start(scope, chosen_rules(["bmja", "guide"], user), user, background=False,
                      shared=True)


def more_urls(club, night, door, comparison) -> tuple[list[str], list[str]]:
    """What ``pages`` and ``api_answers`` leave out: the door, the draw, the rating's
    settings, imports, league rules, invitations, comparisons."""
    table = Table.objects.filter(session=night).order_by("number").first()
    hand = Hand.objects.filter(table=table).order_by("number").first()
    base = f"/clubs/{club.slug}/"
    at_table = f"{base}sessions/{night.pk}/tables/{table.pk}/"
    season = f"{base}league/{night.season_id}/"
    page_urls = [
        f"{base}sessions/{door.pk}/door/", f"{base}door/settings/",
        f"{base}history/rating/settings/", f"{base}history/imports/",
        f"{season}rules/", f"{base}invitations/",
        f"/compare/{comparison.pk}/", "/compare/rules/?rules=bmja&rules=guide",
        f"{at_table}hands/{hand.pk}/compare/?rules=bmja&rules=guide",
    ]
    api = "/api/v1/"
    answer_urls = [
        f"{api}sessions/{door.pk}/door/",
        f"{api}seasons/{night.season_id}/league-rules/",
        f"{api}seasons/{night.season_id}/snapshots/",
        f"{api}sessions/{night.pk}/sheet/", f"{api}tables/{table.pk}/sheet/",
        f"{api}comparisons/", f"{api}comparisons/{comparison.pk}/",
        f"{api}audit-entries/?club={club.slug}", f"{api}house-rules/",
    ]
    return page_urls, answer_urls


def counted(get, urls: list[str]) -> dict[str, int]:
    found = {}
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = get(url)
        assert response.status_code == 200, (url, response.status_code)
        found[url] = len(queries)
    return found


def test_a_clubs_pages_cost_the_same_however_many_clubs_share_the_database(client, club, users,
                                                                            night):
    from history import rating_store

    copy_nights(night, 19)
    door = open_the_door(club, night)
    comparison = compare_the_night(night, users["admin"])
    rating_store.turn_on(club)
    client.force_login(users["admin"])
    api = APIClient()
    api.force_authenticate(users["admin"])
    root = APIClient()  # the Django admin's lists, as a superuser
    root.force_login(get_user_model().objects.create_superuser("root", password="x-y-z-123"))
    extra_pages, extra_answers = more_urls(club, night, door, comparison)
    urls = pages(club, night) + extra_pages
    answers = api_answers(club, night) + extra_answers
    admin_lists = test_admin_lists.urls(club)

    def count_all() -> dict[str, int]:
        return counted(client.get, urls) | counted(api.get, answers) | counted(root.get,
                                                                             admin_lists)

    count_all()  # a first visit does what later ones need not (a writer claimed, roles cached)
    alone = count_all()
    hands_alone = Hand.objects.count()

    for i in range(OTHER_CLUBS):
        other = Club.objects.create(name=f"Other Club {i}", slug=f"other-{i}")
        copy_club(night, other, THEIR_NIGHTS)
    assert Hand.objects.count() >= 20 * hands_alone
    assert HandResult.objects.exclude(club=club).count() > 10 * HandResult.objects.filter(
        club=club).count()
    shared = count_all()

    grew = {url: (alone[url], shared[url]) for url in alone if shared[url] != alone[url]}
    assert not grew, f"queries with the club alone, with {OTHER_CLUBS} others: {grew}"
