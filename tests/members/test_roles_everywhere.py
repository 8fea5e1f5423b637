"""The remaining running-the-club pages and endpoints as each role, another club's admin and
anonymous: a page 200/302 for those allowed, 403 for members without the role, 404 for
another club's people, a login for anonymous visitors (the league API: 404 for outsiders)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs import mending
from clubs.models import ClubSession, Season
from houserules.copies import create_copy, update_copy
from houserules.models import HouseRuleRecord
from league.withdrawing import publish_snapshot, withdraw_snapshot
from tests.members.conftest import play_hands, seat_table
from tests.web.conftest import ROLES

ADMIN_PAGE = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
ADMIN_POST = {"admin": 302, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
ADMIN_API = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
SCORER_API = {"admin": 200, "scorer": 200, "member": 403, "outsider": 404, "anonymous": 404}


def api(users, role):
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    return client


@pytest.fixture
def night(club, bmja_version, members, users):
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 10, 1),
                                         house_rule_version=bmja_version)
    table = seat_table(session, 1, members[:4])
    play_hands(table, users["scorer"], random.Random(2), 2)
    return session, table


@pytest.mark.parametrize("role", ROLES)
def test_mended_page_and_undo(client_as, club, night, users, role):
    session, table = night
    entry = mending.void_table(table, user=users["admin"])
    client = client_as(role)
    assert client.get(reverse("mended", args=[club.slug])).status_code == ADMIN_PAGE[role]
    answer = client.post(reverse("undo-mending", args=[club.slug, entry.pk]))
    assert answer.status_code == ADMIN_POST[role]
    assert mending.undone(entry) == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_void_table_page(client_as, club, night, role):
    session, table = night
    answer = client_as(role).post(reverse("void-table", args=[club.slug, session.pk, table.pk]))
    assert answer.status_code == ADMIN_POST[role]
    assert table.hands.filter(voided=False).exists() == (role != "admin")


@pytest.mark.parametrize("role", ROLES)
def test_reseat_and_undo_api(users, club, night, members, role):
    session, table = night
    client = api(users, role)
    answer = client.post(f"/api/v1/tables/{table.pk}/reseat/", {"seats": [
        {"position": 0, "guest_name": "Walk-in"}]}, format="json")
    assert answer.status_code == SCORER_API[role], answer.content
    entry = mending.void_table(table, user=users["admin"])
    answer = client.post("/api/v1/tables/undo/", {"entry": entry.pk}, format="json")
    # Another club's people and anonymous visitors learn nothing of the entry.
    assert answer.status_code == {**ADMIN_API, "outsider": 400, "anonymous": 403}[role], answer.content


@pytest.fixture
def copy(club, users):
    record = create_copy(club, "bmja", "jade-rules", "Jade rules",
                         {"scoring": {"limit": 2000}}, user=users["admin"])
    update_copy(record, {"scoring": {"limit": 3000}}, user=users["admin"])
    return record


@pytest.mark.parametrize("role", ROLES)
def test_house_rule_edit_and_undo(client_as, club, copy, role):
    from clubs.models import AuditEntry

    client = client_as(role)
    edit = reverse("club-house-rule-edit", args=[club.slug, copy.slug])
    assert client.get(edit).status_code == ADMIN_PAGE[role]
    entry = AuditEntry.objects.filter(object_type="house_rule", action="update").first()
    answer = client.post(reverse("club-house-rule-undo", args=[club.slug, copy.slug, entry.pk]))
    assert answer.status_code == ADMIN_POST[role]
    copy.refresh_from_db()
    assert copy.overrides["scoring"]["limit"] == (2000 if role == "admin" else 3000)
    assert HouseRuleRecord.objects.get(slug=copy.slug).latest_version().number == (
        3 if role == "admin" else 2)


@pytest.mark.parametrize("role", ROLES)
def test_republish_page(client_as, club, users, role):
    season = Season.objects.create(club=club, name="Spring", start=dt.date(2026, 3, 1),
                                   end=dt.date(2026, 5, 31))
    snapshot = publish_snapshot(season, users["admin"], dt.date(2026, 4, 30))
    entry = withdraw_snapshot(snapshot, users["admin"])
    answer = client_as(role).post(reverse("league-republish",
                                          args=[club.slug, season.pk, entry.pk]))
    assert answer.status_code == ADMIN_POST[role]
