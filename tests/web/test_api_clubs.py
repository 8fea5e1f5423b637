"""Club records through the API: changes are audited, closed sessions take no more hands,
another club's house rules and seasons cannot be borrowed, tables are seated correctly."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import AuditEntry, HouseRuleRecord, Season

pytestmark = pytest.mark.django_db


def test_member_change_leaves_an_audit_entry(admin_api, players, users):
    alice = players[0]
    answer = admin_api.patch(f"/api/v1/members/{alice.pk}/", {"role": "scorer"}, format="json")
    assert answer.status_code == 200
    entry = AuditEntry.objects.get(object_type="member", object_id=str(alice.pk))
    assert entry.user == users["admin"] and entry.action == "update"
    assert entry.before["role"] == "member" and entry.after["role"] == "scorer"


def test_deleting_a_session_is_audited_with_what_it_was(admin_api, club_session):
    assert admin_api.delete(f"/api/v1/sessions/{club_session.pk}/").status_code == 204
    entry = AuditEntry.objects.get(action="delete", object_type="clubsession")
    assert entry.before["date"] == "2026-11-20"


def test_closed_session_takes_no_more_hands(admin_api, club_session, table):
    admin_api.patch(f"/api/v1/sessions/{club_session.pk}/", {"status": "closed"}, format="json")
    answer = admin_api.post("/api/v1/hands/", {
        "table": table.pk, "winner": "E", "win_from": "wall",
        "seats": {w: {"score": 10} for w in "ESWN"},
    }, format="json")
    assert answer.status_code == 400
    assert "closed" in answer.json()["non_field_errors"][0]


def test_another_clubs_house_rule_or_season_cannot_be_used(admin_api, club, other_club,
                                                           bmja_version):
    theirs = HouseRuleRecord.objects.create(slug="far-rules", name="Far rules", club=other_club)
    answer = admin_api.patch(f"/api/v1/clubs/{club.slug}/", {"default_house_rule": theirs.pk},
                             format="json")
    assert answer.status_code == 400 and "default_house_rule" in answer.json()
    season = Season.objects.create(club=other_club, name="Far season", start=dt.date(2026, 1, 1))
    answer = admin_api.post("/api/v1/sessions/", {
        "club": club.slug, "date": "2026-12-01", "house_rule_version": bmja_version.pk,
        "season": season.pk,
    }, format="json")
    assert answer.status_code == 400 and "season" in answer.json()


@pytest.mark.parametrize(
    ("seats", "field"),
    [
        ([{"guest_name": "A", "starting_wind": "E"}] * 3, "seats"),
        ([{"guest_name": f"P{i}", "starting_wind": "E"} for i in range(4)], "seats"),
        ([{"starting_wind": w} for w in "ESWN"], "seats"),
    ],
)
def test_bad_seating_is_refused_with_the_field(admin_api, club_session, seats, field):
    answer = admin_api.post("/api/v1/tables/", {"session": club_session.pk, "seats": seats},
                            format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()


def test_a_table_gets_the_next_number(admin_api, club_session, table):
    seats = [{"guest_name": f"Guest {w}", "starting_wind": w} for w in "ESWN"]
    answer = admin_api.post("/api/v1/tables/", {"session": club_session.pk, "seats": seats},
                            format="json")
    assert answer.status_code == 201 and answer.json()["number"] == 2


@pytest.mark.parametrize("kind", ["members", "seasons", "sessions"])
def test_nothing_moves_to_another_club(admin_api, club, other_club, players, club_session, kind):
    """A club admin cannot move a member, season or session to another (here published)
    club, where they have no role: 400 on club, and it stays."""
    other_club.published = True
    other_club.save()
    season = Season.objects.create(club=club, name="Winter", start=dt.date(2026, 1, 1))
    obj = {"members": players[0], "seasons": season, "sessions": club_session}[kind]
    answer = admin_api.patch(f"/api/v1/{kind}/{obj.pk}/", {"club": other_club.slug},
                             format="json")
    assert answer.status_code == 400 and "another club" in answer.json()["club"][0]
    obj.refresh_from_db()
    assert obj.club == club


def test_a_session_names_its_house_rule_by_slug_and_version(admin_api, club, other_club,
                                                           house_rule_versions):
    """A client needs no version id: the slug (the newest version) or the slug and a version
    number; another club's rule is unknown, and a version that does not exist says which do."""
    bmja = house_rule_versions["bmja"]
    answer = admin_api.post("/api/v1/sessions/", {
        "club": club.slug, "date": "2026-12-01", "house_rule": "bmja"}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["house_rule_version"] == bmja.pk and body["house_rule"] == "bmja"
    assert body["house_rule_version_number"] == bmja.number
    answer = admin_api.post("/api/v1/sessions/", {
        "club": club.slug, "date": "2026-12-02", "house_rule": "guide",
        "house_rule_version_number": house_rule_versions["guide"].number,
        "goulash_rule": "west-wind-goulash"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["goulash_rule"] == "west-wind-goulash"

    HouseRuleRecord.objects.create(slug="far-rules", name="Far rules", club=other_club)
    for body, field in (({"house_rule": "far-rules"}, "house_rule"),
                        ({"house_rule": "bmja", "house_rule_version_number": 999},
                         "house_rule_version_number"),
                        ({}, "house_rule")):
        answer = admin_api.post("/api/v1/sessions/", {
            "club": club.slug, "date": "2026-12-03", **body}, format="json")
        assert answer.status_code == 400 and field in answer.json(), answer.json()


def _root_api(django_user_model):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(django_user_model.objects.create_superuser("root", "r@example.com",
                                                                      "pw"))
    return api


def test_the_service_deletes_a_club_and_keeps_an_entry_of_it(club, users, django_user_model):
    """A superuser's delete of a club answered 500 (the audit entry named the club just
    deleted); now 204, and the service's entry of it names no club."""
    from clubs.models import Club

    answer = _root_api(django_user_model).delete(f"/api/v1/clubs/{club.slug}/")
    assert answer.status_code == 204, answer.content
    assert not Club.objects.filter(pk=club.pk).exists()
    entry = AuditEntry.objects.get(object_type="club", object_id=str(club.pk))
    assert entry.club is None and entry.action == "delete" and entry.before["slug"] == club.slug


def test_a_club_with_kept_history_is_refused_in_words(club, table, django_user_model):
    """Members who sat at a table keep the club (PROTECT): a 409 with a sentence, not a 500."""
    answer = _root_api(django_user_model).delete(f"/api/v1/clubs/{club.slug}/")
    assert answer.status_code == 409, answer.content
    assert "cannot be deleted whole" in answer.json()["non_field_errors"][0]
    assert club.__class__.objects.filter(pk=club.pk).exists()
