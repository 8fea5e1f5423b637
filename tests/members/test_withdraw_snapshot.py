"""Withdrawing published standings: gone from the pages and the API, kept in the audit trail,
published again as they were; as each role."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import AuditEntry, Season
from league.models import Snapshot
from league.withdrawing import publish_snapshot
from tests.web.conftest import ROLES


@pytest.fixture
def snapshot(club, users):
    season = Season.objects.create(club=club, name="Spring", start=dt.date(2026, 3, 1),
                                   end=dt.date(2026, 5, 31))
    return publish_snapshot(season, users["admin"], dt.date(2026, 4, 30), "April")


PAGE = {"admin": 302, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
# The league API answers 404 for a private club's season to anyone outside it, signed in or not.
API = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.mark.parametrize("role", ROLES)
def test_withdraw_page_by_role(client_as, club, snapshot, role):
    answer = client_as(role).post(reverse("league-withdraw",
                                          args=[club.slug, snapshot.season_id, snapshot.pk]))
    assert answer.status_code == PAGE[role]
    assert Snapshot.objects.filter(pk=snapshot.pk).exists() == (role != "admin")


@pytest.mark.parametrize("role", ROLES)
def test_withdraw_api_by_role(users, snapshot, role):
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    answer = client.delete(f"/api/v1/seasons/{snapshot.season_id}/snapshots/{snapshot.pk}/",
                           {"reason": "wrong date"}, format="json")
    assert answer.status_code == API[role], answer.content
    assert Snapshot.objects.filter(pk=snapshot.pk).exists() == (role != "admin")
    listed = client.get(f"/api/v1/seasons/{snapshot.season_id}/snapshots/withdrawn/")
    assert listed.status_code == (200 if role == "admin" else API[role])


def test_withdrawn_is_kept_and_published_again(client_as, club, snapshot, users):
    client = client_as("admin")
    season_url = reverse("league-season", args=[club.slug, snapshot.season_id])
    frozen = snapshot.data
    client.post(reverse("league-withdraw", args=[club.slug, snapshot.season_id, snapshot.pk]))
    assert client.get(reverse("league-snapshot", args=[club.slug, snapshot.season_id,
                                                       snapshot.pk])).status_code == 404
    entry = AuditEntry.objects.get(object_type="snapshot", action="delete")
    assert entry.before["data"] == frozen and entry.before["note"] == "April"
    page = client.get(season_url).content.decode()
    assert "Withdrawn" in page and "Publish again" in page
    member_page = client_as("member").get(season_url).content.decode()
    assert "Publish again" not in member_page and "As of 30 Apr 2026" not in member_page
    answer = client_as("admin").post(reverse("league-republish",
                                             args=[club.slug, snapshot.season_id, entry.pk]))
    assert answer.status_code == 302
    again = Snapshot.objects.get(pk=snapshot.pk)
    assert again.data == frozen and again.published == snapshot.published
    assert "Publish again" not in client_as("admin").get(season_url).content.decode()


def test_republish_over_the_api(users, snapshot):
    client = APIClient()
    client.force_authenticate(users["admin"])
    base = f"/api/v1/seasons/{snapshot.season_id}/snapshots/"
    entry = client.delete(f"{base}{snapshot.pk}/").json()["entry"]
    assert client.get(base).json() == []
    answer = client.post(f"{base}withdrawn/", {"entry": entry}, format="json")
    assert answer.status_code == 201 and answer.json()["id"] == snapshot.pk
    again = client.post(f"{base}withdrawn/", {"entry": entry}, format="json")
    assert again.status_code == 400 and "entry" in again.json()
