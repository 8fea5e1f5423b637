"""What would corrupt the league is refused with a sentence: on the page a form error (400),
in the API a 400 with the field's path."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import ClubSession, Season, Table
from league.models import Snapshot
from league.withdrawing import PublishRefused, publish_snapshot
from tests.members.conftest import seat_table


@pytest.fixture
def admin_client(users):
    client = APIClient()
    client.force_authenticate(users["admin"])
    return client


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="Autumn", start=dt.date(2026, 9, 1),
                                 end=dt.date(2026, 11, 30))


def test_a_night_outside_its_season_is_refused_on_the_page(client_as, club, season,
                                                           bmja_version):
    answer = client_as("admin").post(reverse("start-session", args=[club.slug]), {
        "date": "2026-12-05", "season": season.pk, "house_rule_version": bmja_version.pk})
    assert answer.status_code == 400
    assert ("This night is dated 5 Dec 2026, outside the season Autumn (from 1 Sep 2026 to "
            "30 Nov 2026)") in answer.content.decode()
    assert not ClubSession.objects.exists()


def test_a_night_outside_its_season_is_refused_by_the_api(admin_client, club, season):
    answer = admin_client.post("/api/v1/sessions/", {
        "club": club.slug, "season": season.pk, "date": "2026-08-31", "house_rule": "bmja"},
        format="json")
    assert answer.status_code == 400
    assert answer.json()["date"][0].startswith("This night is dated 31 Aug 2026, outside")
    ok = admin_client.post("/api/v1/sessions/", {
        "club": club.slug, "season": season.pk, "date": "2026-09-01", "house_rule": "bmja"},
        format="json")
    assert ok.status_code == 201
    moved = admin_client.patch(f"/api/v1/sessions/{ok.json()['id']}/", {"date": "2026-12-01"},
                               format="json")
    assert moved.status_code == 400 and "date" in moved.json()


def test_a_season_cannot_shrink_past_its_nights(admin_client, club, season, bmja_version):
    ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 11, 20),
                               house_rule_version=bmja_version)
    answer = admin_client.patch(f"/api/v1/seasons/{season.pk}/", {"end": "2026-10-31"},
                                format="json")
    assert answer.status_code == 400
    assert answer.json()["end"][0].startswith("1 night of this season (the first on 20 Nov "
                                              "2026) would fall outside these dates")


def test_a_member_cannot_sit_at_two_tables_one_night(client_as, admin_client, club, members,
                                                     bmja_version, users):
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 10, 1),
                                         house_rule_version=bmja_version)
    seat_table(session, 1, members[:4])
    answer = admin_client.post("/api/v1/tables/", {"session": session.pk, "seats": [
        {"member": members[0].pk, "starting_wind": "E"},
        {"member": members[5].pk, "starting_wind": "S"},
        {"member": members[6].pk, "starting_wind": "W"},
        {"member": members[7].pk, "starting_wind": "N"}]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["seats"][0]["member"] == [
        "Alice already sits at table 1 tonight: a member has one seat a night (seat a guest, "
        "or mend that table first)."]
    page = client_as("scorer").post(
        reverse("add-table", args=[club.slug, session.pk]),
        {"E_member": members[0].pk, "S_member": members[5].pk, "W_member": members[6].pk,
         "N_member": members[7].pk})
    assert page.status_code == 400 and "Alice already sits at table 1 tonight" in \
        page.content.decode()
    assert Table.objects.filter(session=session).count() == 1


def test_snapshots_in_the_future_or_after_the_season_are_refused(admin_client, club, season,
                                                                 users, client_as):
    with pytest.raises(PublishRefused, match="still to come"):
        publish_snapshot(season, users["admin"], dt.date(2099, 1, 1))
    path = f"/api/v1/seasons/{season.pk}/snapshots/"
    answer = admin_client.post(path, {"as_of": "2099-01-01"}, format="json")
    assert answer.status_code == 400 and "still to come" in answer.json()["as_of"][0]
    old = Season.objects.create(club=club, name="Spring", start=dt.date(2026, 3, 1),
                                end=dt.date(2026, 5, 31))
    answer = admin_client.post(f"/api/v1/seasons/{old.pk}/snapshots/", {"as_of": "2026-06-15"},
                               format="json")
    assert answer.json() == {"as_of": ["The season Spring ended on 31 May 2026: publish its "
                                       "standings as of 31 May 2026 or earlier."]}
    page = client_as("admin").post(reverse("league-publish", args=[club.slug, old.pk]),
                                   {"as_of": "2026-06-15"})
    assert page.status_code == 400 and "ended on 31 May 2026" in page.content.decode()
    # Left empty, a season that is over is published as of its last day.
    answer = admin_client.post(f"/api/v1/seasons/{old.pk}/snapshots/", {}, format="json")
    assert answer.status_code == 201 and answer.json()["as_of"] == "2026-05-31"
    assert Snapshot.objects.count() == 1
