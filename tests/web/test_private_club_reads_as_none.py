"""A private club reads as no club at all for anyone who may not see it, signed in or not: the
same 404 as an address that names nothing, on the pages and in the API. The 404 page offers a
signed-out visitor "Log in" with next=, so a member still gets there after logging in."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.web.conftest import PASSWORD


def _page_urls(table) -> list[str]:
    club, night = table.session.club, table.session
    return [f"/clubs/{club.slug}/", f"/clubs/{club.slug}/members/",
            f"/clubs/{club.slug}/sessions/{night.pk}/",
            f"/clubs/{club.slug}/sessions/{night.pk}/tables/{table.pk}/"]


def _missing_urls(table) -> list[str]:
    club, night = table.session.club, table.session
    return ["/clubs/no-such-club/", "/clubs/no-such-club/members/",
            f"/clubs/{club.slug}/sessions/{night.pk + 1000}/",
            f"/clubs/{club.slug}/sessions/{night.pk}/tables/{table.pk + 1000}/"]


def test_anonymous_gets_the_same_404_for_a_private_club_as_for_none(client, table):
    for there, missing in zip(_page_urls(table), _missing_urls(table), strict=True):
        answer = client.get(there)
        assert answer.status_code == 404 == client.get(missing).status_code, there
        page = answer.content.decode()
        assert table.session.club.name not in page
        assert f'{reverse("login")}?next={quote(there)}' in page


def test_a_member_logs_in_from_the_404_and_reaches_the_page(client, table, users):
    there = _page_urls(table)[-1]
    assert client.get(there).status_code == 404
    answer = client.post(f'{reverse("login")}?next={quote(there)}',
                         {"username": "member-user", "password": PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == there
    assert client.get(there).status_code == 200


def test_a_published_club_still_sends_anonymous_visitors_to_log_in(client, table):
    club = table.session.club
    club.published = True
    club.save()
    assert client.get(f"/clubs/{club.slug}/").status_code == 200
    answer = client.get(f"/clubs/{club.slug}/members/")  # members only: the club is public
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_the_api_answers_404_for_a_private_clubs_objects(table, users, method):
    anonymous = APIClient()
    night = table.session
    for kind, pk in (("sessions", night.pk), ("tables", table.pk),
                     ("members", table.seats.first().member_id),
                     ("clubs", night.club.slug)):
        there = getattr(anonymous, method)(f"/api/v1/{kind}/{pk}/", {}, format="json")
        missing = getattr(anonymous, method)(f"/api/v1/{kind}/999999/", {}, format="json")
        assert there.status_code == 404 == missing.status_code, (kind, method)
    # A published club's session exists for everyone: a change asks for a login instead.
    night.club.published = True
    night.club.save()
    if method != "get":
        answer = getattr(anonymous, method)(f"/api/v1/sessions/{night.pk}/", {}, format="json")
        assert answer.status_code in (401, 403)
