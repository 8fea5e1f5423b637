"""Seasons from the league's pages and the API: start one with league rules from a preset,
change or close it, undo either; the current season chosen by date; as each role."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.league_guards import club_today
from clubs.models import AuditEntry, ClubSession, Season
from clubs.seasons import current_season
from league.models import SeasonLeague
from tests.web.conftest import ROLES

PAGE_READ = {"admin": 200, "scorer": 200, "member": 200, "outsider": 404, "anonymous": 404}
PAGE_WRITE = {"admin": 302, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
PAGE_ADMIN = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
API_WRITE = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="Spring", start=dt.date(2026, 3, 1))


@pytest.mark.parametrize("role", ROLES)
def test_league_home_by_role(client_as, club, season, role):
    answer = client_as(role).get(reverse("league", args=[club.slug]))
    assert answer.status_code == PAGE_READ[role]
    if answer.status_code == 200:
        page = answer.content.decode()
        assert "Spring" in page and "current" in page
        assert ("Start a season" in page) == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_start_a_season_by_role(client_as, club, role):
    answer = client_as(role).post(reverse("league-season-new", args=[club.slug]), {
        "name": "Autumn", "start": "2026-09-01", "end": "2026-12-31",
        "preset": "table-points"})
    assert answer.status_code == PAGE_WRITE[role]
    made = Season.objects.filter(club=club, name="Autumn").first()
    assert (made is not None) == (role == "admin")
    if made:
        league = SeasonLeague.objects.get(season=made)
        assert league.preset == "table-points" and league.measure == "table_points"
        notes = list(AuditEntry.objects.filter(club=club).values_list("note", flat=True))
        assert "Season Autumn started." in notes
        assert "League rules of Autumn: Table points 4/2/1/0." in notes


@pytest.mark.parametrize("role", ROLES)
def test_edit_close_undo_by_role(client_as, club, season, role):
    client = client_as(role)
    edit = reverse("league-season-edit", args=[club.slug, season.pk])
    assert client.get(edit).status_code == PAGE_ADMIN[role]
    answer = client.post(edit, {"name": "Spring 2026", "start": "2026-03-01", "end": ""})
    assert answer.status_code == PAGE_WRITE[role]
    answer = client.post(reverse("league-season-close", args=[club.slug, season.pk]))
    assert answer.status_code == PAGE_WRITE[role]
    season.refresh_from_db()
    assert (season.end == club_today(club)) == (role == "admin")
    entry = AuditEntry.objects.filter(object_type="season").first()
    if entry is not None:
        answer = client.post(reverse("league-season-undo", args=[club.slug, season.pk, entry.pk]))
        assert answer.status_code == PAGE_WRITE[role]
        season.refresh_from_db()
        assert season.end is None and season.name == "Spring 2026"


def test_starting_refused_with_sentences(client_as, club, season):
    client = client_as("admin")
    answer = client.post(reverse("league-season-new", args=[club.slug]), {
        "name": "spring", "start": "2026-09-01", "end": "2026-08-01", "preset": "net"})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "already has a season called &#x27;spring&#x27;" in page
    assert "A season ends on or after its start" in page


def test_a_season_cannot_shrink_past_its_nights_on_the_page(client_as, club, season,
                                                            bmja_version):
    ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 10),
                               house_rule_version=bmja_version)
    answer = client_as("admin").post(reverse("league-season-edit", args=[club.slug, season.pk]),
                                     {"name": "Spring", "start": "2026-03-15", "end": ""})
    assert answer.status_code == 400
    assert "1 night of this season (the first on 10 Mar 2026)" in answer.content.decode()


def test_the_current_season_is_chosen_by_date(club):
    old = Season.objects.create(club=club, name="2025", start=dt.date(2025, 1, 1),
                                end=dt.date(2025, 12, 31))
    new = Season.objects.create(club=club, name="2026", start=dt.date(2026, 1, 1))
    assert current_season(club, dt.date(2025, 6, 1)) == old
    assert current_season(club, dt.date(2026, 6, 1)) == new
    assert current_season(club, dt.date(2024, 6, 1)) is None


@pytest.mark.parametrize("role", ROLES)
def test_close_and_undo_over_the_api(users, club, season, role):
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    answer = client.post(f"/api/v1/seasons/{season.pk}/close/")
    assert answer.status_code == API_WRITE[role], answer.content
    if role == "admin":
        assert answer.json()["end"] == club_today(club).isoformat()
        again = client.post(f"/api/v1/seasons/{season.pk}/close/")
        assert again.status_code == 400 and "ended on" in again.json()["end"][0]
        entry = AuditEntry.objects.get(object_type="season", action="close")
        back = client.post(f"/api/v1/seasons/{season.pk}/undo/", {"entry": entry.pk},
                           format="json")
        assert back.status_code == 200 and back.json()["end"] is None
