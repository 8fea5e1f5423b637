"""The members API's actions as each role, another club's admin and anonymous; refusals are
400s with the field and the sentence."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from clubs.models import AuditEntry, ClubSession, Member, Seat
from tests.members.conftest import seat_table
from tests.web.conftest import ROLES


@pytest.fixture
def api_as(users):
    def make(role):
        client = APIClient()
        if users[role] is not None:
            client.force_authenticate(users[role])
        return client
    return make


@pytest.fixture
def guest_night(club, members, bmja_version):
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 4, 2),
                                         house_rule_version=bmja_version)
    return seat_table(session, 1, [*members[:3], "Yan Li"])


# Outsiders (another club's admin) are told the club is not one of theirs: they learn nothing
# of it; anonymous visitors are asked to log in.
GUESTS = {"admin": 200, "scorer": 200, "member": 200, "outsider": 400, "anonymous": 403}
CHANGE = {"admin": 200, "scorer": 403, "member": 403, "outsider": 400, "anonymous": 403}
MERGE = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.mark.parametrize("role", ROLES)
def test_guests_by_role(api_as, club, guest_night, role):
    answer = api_as(role).get("/api/v1/members/guests/", {"club": club.slug})
    assert answer.status_code == GUESTS[role]
    if answer.status_code == 200:
        assert answer.json() == [{"name": "Yan Li", "seats": 1, "last": "2026-04-02"}]


@pytest.mark.parametrize("role", ROLES)
def test_from_guest_by_role(api_as, club, guest_night, role):
    answer = api_as(role).post("/api/v1/members/from-guest/",
                               {"club": club.slug, "guest_name": "yan li"}, format="json")
    assert answer.status_code == CHANGE[role], answer.content
    made = Member.objects.filter(club=club, display_name="Yan Li").first()
    assert (made is not None) == (role == "admin")
    if made:
        body = answer.json()
        assert body["member"] == made.pk and body["hands"] == 0
        assert body["seats"] == [Seat.objects.get(member=made).pk]
        assert body["note"].startswith("The guest Yan Li is now the member Yan Li")


@pytest.mark.parametrize("role", ROLES)
def test_merge_by_role(api_as, club, members, role):
    keep, dup = members[8], members[9]
    answer = api_as(role).post(f"/api/v1/members/{keep.pk}/merge/", {"duplicate": dup.pk},
                               format="json")
    assert answer.status_code == MERGE[role], answer.content
    assert Member.objects.filter(pk=dup.pk).exists() == (role != "admin")


@pytest.mark.parametrize("role", ROLES)
def test_undo_by_role(api_as, club, members, role):
    alice = members[0]
    entry = AuditEntry.objects.create(club=club, action="update", object_type="member",
                                      object_id=str(alice.pk), before={"display_name": "Al"},
                                      after={"display_name": "Alice"})
    answer = api_as(role).post("/api/v1/members/undo/", {"entry": entry.pk}, format="json")
    assert answer.status_code == CHANGE[role], answer.content
    alice.refresh_from_db()
    assert (alice.display_name == "Al") == (role == "admin")


def test_refusals_are_400_with_the_field(api_as, club, members, guest_night, other_club):
    admin = api_as("admin")
    answer = admin.post("/api/v1/members/from-guest/",
                        {"club": club.slug, "guest_name": "Yan Li", "member": members[0].pk},
                        format="json")
    assert answer.status_code == 400
    assert "both played at table 1 on 2 April 2026" in answer.json()["member"][0]
    stranger = Member.objects.create(club=other_club, display_name="Stranger")
    answer = admin.post("/api/v1/members/from-guest/",
                        {"club": club.slug, "guest_name": "Yan Li", "member": stranger.pk},
                        format="json")
    assert answer.status_code == 400 and "member" in answer.json()
    answer = admin.post(f"/api/v1/members/{members[0].pk}/merge/",
                        {"duplicate": stranger.pk}, format="json")
    assert answer.status_code == 400 and "duplicate" in answer.json()
    answer = admin.post("/api/v1/members/from-guest/",
                        {"club": club.slug, "guest_name": "Nobody"}, format="json")
    assert answer.json() == {"guest_name": ["No guest called 'Nobody' played at Jade Dragon "
                                            "Club."]}
    answer = admin.post("/api/v1/members/undo/", {"entry": 999999}, format="json")
    assert answer.status_code == 400 and "entry" in answer.json()


def test_merge_then_undo_through_the_api(api_as, club, members, guest_night):
    admin = api_as("admin")
    move = admin.post(f"/api/v1/members/{members[8].pk}/merge/",
                      {"duplicate": members[0].pk}, format="json").json()
    assert move["sessions"] == [guest_night.session_id]
    answer = admin.post("/api/v1/members/undo/", {"entry": move["audit_entry"]}, format="json")
    assert answer.status_code == 200 and answer.json()["action"] == "restore"
    assert Member.objects.get(pk=members[0].pk).display_name == "Alice"
    again = admin.post("/api/v1/members/undo/", {"entry": move["audit_entry"]}, format="json")
    assert again.json() == {"entry": ["This was undone already."]}


def test_api_rename_keeps_an_admin_and_the_states(api_as, club, users):
    me = Member.objects.get(user=users["admin"])
    answer = api_as("admin").patch(f"/api/v1/members/{me.pk}/", {"role": "member"},
                                   format="json")
    assert answer.status_code == 400 and "only admin" in answer.json()["role"][0]
