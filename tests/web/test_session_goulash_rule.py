"""A session freezes the goulash rule its house rule names, however it is started: the page
(tests/web/test_pages_club.py), the REST API and the admin. Rule README: 000 (west-wind-goulash)
is usable as the goulash rule of a session; bmja-west-wind names it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubs.models import ClubSession, HouseRuleRecord, HouseRuleVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def names_a_missing_rule(club, bmja_version) -> HouseRuleVersion:
    """A club's house rule whose goulash rule the club does not have."""
    record = HouseRuleRecord.objects.create(slug="jade-odd", name="Jade odd", club=club,
                                            based_on=bmja_version.record)
    return HouseRuleVersion.objects.create(
        record=record, number=1, data={**bmja_version.data, "goulash_rule": "nowhere"}
    )


def _post_session(api, club, **fields):
    return api.post("/api/v1/sessions/", {"club": club.slug, "date": "2026-12-01", **fields},
                    format="json")


def test_api_freezes_the_goulash_rule_the_house_rule_names(scorer_api, club,
                                                           house_rule_versions):
    """000 as the goulash rule of a session started through the API under bmja-west-wind."""
    answer = _post_session(scorer_api, club,
                           house_rule_version=house_rule_versions["bmja-west-wind"].pk)
    assert answer.status_code == 201, answer.json()
    frozen = house_rule_versions["west-wind-goulash"]
    assert answer.json()["goulash_rule_version"] == frozen.pk
    assert ClubSession.objects.get(pk=answer.json()["id"]).goulash_rule_version == frozen


def test_api_a_chosen_goulash_rule_wins(scorer_api, club, house_rule_versions):
    answer = _post_session(scorer_api, club,
                           house_rule_version=house_rule_versions["bmja-west-wind"].pk,
                           goulash_rule_version=house_rule_versions["bmja"].pk)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["goulash_rule_version"] == house_rule_versions["bmja"].pk


def test_api_a_house_rule_naming_no_goulash_rule_freezes_none(scorer_api, club, bmja_version):
    answer = _post_session(scorer_api, club, house_rule_version=bmja_version.pk)
    assert answer.status_code == 201, answer.json()
    assert answer.json()["goulash_rule_version"] is None


def test_api_editing_a_session_leaves_its_goulash_rule_alone(scorer_api, club,
                                                             house_rule_versions):
    """An existing night keeps the rules its hands were scored under."""
    session = ClubSession.objects.create(
        club=club, date=dt.date(2026, 11, 20),
        house_rule_version=house_rule_versions["bmja-west-wind"],
    )
    answer = scorer_api.patch(f"/api/v1/sessions/{session.pk}/", {"notes": "late start"},
                              format="json")
    assert answer.status_code == 200, answer.json()
    session.refresh_from_db()
    assert session.goulash_rule_version is None


def test_api_a_goulash_rule_the_club_lacks_is_a_400_on_the_field(scorer_api, club,
                                                                 names_a_missing_rule):
    answer = _post_session(scorer_api, club, house_rule_version=names_a_missing_rule.pk)
    assert answer.status_code == 400
    message = answer.json()["goulash_rule_version"][0]
    assert "'nowhere'" in message and "choose a goulash rule" in message
    assert not ClubSession.objects.exists()


def test_admin_freezes_the_goulash_rule_the_house_rule_names(admin_client, club,
                                                             house_rule_versions):
    """000 as the goulash rule of a session added in the Django admin under bmja-west-wind."""
    response = admin_client.post(reverse("admin:clubs_clubsession_add"), {
        "club": club.pk,
        "date": "2026-12-02",
        "house_rule_version": house_rule_versions["bmja-west-wind"].pk,
        "goulash_rule_version": "",
        "notes": "",
        "status": "open",
        "tables-TOTAL_FORMS": "0",
        "tables-INITIAL_FORMS": "0",
        "tables-MIN_NUM_FORMS": "0",
        "tables-MAX_NUM_FORMS": "1000",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    session = ClubSession.objects.get(date=dt.date(2026, 12, 2))
    assert session.goulash_rule_version == house_rule_versions["west-wind-goulash"]


def test_admin_a_goulash_rule_the_club_lacks_is_shown_on_the_field(admin_client, club,
                                                                   names_a_missing_rule):
    response = admin_client.post(reverse("admin:clubs_clubsession_add"), {
        "club": club.pk, "date": "2026-12-02", "house_rule_version": names_a_missing_rule.pk,
        "goulash_rule_version": "", "notes": "", "status": "open",
        "tables-TOTAL_FORMS": "0", "tables-INITIAL_FORMS": "0",
        "tables-MIN_NUM_FORMS": "0", "tables-MAX_NUM_FORMS": "1000",
    })
    assert response.status_code == 200
    assert "goulash_rule_version" in response.context["adminform"].form.errors
    assert not ClubSession.objects.exists()
