"""The members page and its forms: what each role may see and do, the sentences a refusal
gives, and the audit trail with undo."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import AuditEntry, Member, Seat, Table
from tests.members.conftest import seat_table
from tests.web.conftest import ROLES


def url(name, club, *args):
    return reverse(name, args=[club.slug, *args])


@pytest.fixture
def guest_night(club, members, bmja_version, users):
    import datetime as dt

    from clubs.models import ClubSession
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 4, 2),
                                         house_rule_version=bmja_version)
    return seat_table(session, 1, [*members[:3], "Yan Li"])


READ_CODES = {"admin": 200, "scorer": 200, "member": 200, "outsider": 404, "anonymous": 404}
WRITE_CODES = {"admin": 302, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.mark.parametrize("role", ROLES)
def test_members_page_by_role(client_as, club, members, role):
    answer = client_as(role).get(url("members", club))
    assert answer.status_code == READ_CODES[role]
    if role in ("admin",):
        assert b"Add a member" in answer.content and b"entered twice" in answer.content
    elif answer.status_code == 200:
        assert b"Alice" in answer.content and b"Add a member" not in answer.content


def test_published_club_members_page_is_for_members(client_as, club, members):
    club.published = True
    club.save()
    assert client_as("anonymous").get(url("members", club)).status_code == 302
    client = client_as("outsider")
    answer = client.get(url("members", club))
    assert answer.status_code == 403


@pytest.mark.parametrize("role", ROLES)
def test_add_member_by_role(client_as, club, role):
    answer = client_as(role).post(url("add-member", club), {"display_name": "Nora",
                                                             "role": "scorer"})
    assert answer.status_code == WRITE_CODES[role]
    assert Member.objects.filter(club=club, display_name="Nora").exists() == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_member_page_by_role(client_as, club, members, role):
    alice = members[0]
    assert client_as(role).get(url("member", club, alice.pk)).status_code == READ_CODES[role]
    answer = client_as(role).post(url("member", club, alice.pk),
                                  {"display_name": "Alice B", "role": "member", "active": "on"})
    assert answer.status_code == WRITE_CODES[role]
    alice.refresh_from_db()
    assert (alice.display_name == "Alice B") == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_guest_and_merge_and_undo_by_role(client_as, club, members, guest_night, role):
    client = client_as(role)
    answer = client.post(url("guest-to-member", club), {"guest_name": "Yan Li", "member": ""})
    assert answer.status_code == WRITE_CODES[role]
    made = Member.objects.filter(club=club, display_name="Yan Li").first()
    assert (made is not None) == (role == "admin")
    answer = client.post(url("merge-members", club),
                         {"keep": members[8].pk, "duplicate": members[9].pk})
    assert answer.status_code == WRITE_CODES[role]
    entry = AuditEntry.objects.create(club=club, action="update", object_type="member",
                                      object_id=str(members[0].pk),
                                      before={"display_name": "Al"},
                                      after={"display_name": "Alice"})
    answer = client.post(url("undo-member-change", club, entry.pk))
    assert answer.status_code == WRITE_CODES[role]


def test_add_refused_with_a_sentence(client_as, club, members):
    answer = client_as("admin").post(url("add-member", club), {"display_name": " alice ",
                                                                "role": "member"})
    assert answer.status_code == 400
    assert "already has a member called &#x27;Alice&#x27;" in answer.content.decode()


def test_last_admin_cannot_step_down(client_as, club, users):
    me = Member.objects.get(user=users["admin"])
    answer = client_as("admin").post(url("member", club, me.pk),
                                     {"display_name": me.display_name, "role": "member",
                                      "active": "on"})
    assert answer.status_code == 400 and b"only admin who can log in" in answer.content
    me.refresh_from_db()
    assert me.role == "admin"


def _shown(client, table) -> list[str]:
    """The names on the table page, the state API, the hand page and the night's sheet."""
    from rest_framework.test import APIClient

    session = table.session
    base = f"/clubs/{session.club.slug}/sessions/{session.pk}/"
    api = APIClient()
    api.force_login(User.objects.get(username="admin-user"))
    hand = table.hands.get()
    return ([
        client.get(f"{base}tables/{table.pk}/").content.decode(),
        client.get(f"{base}tables/{table.pk}/hands/{hand.pk}/").content.decode(),
        client.get(f"{base}sheet/").content.decode(),
        b"".join(client.get(f"{base}sheet.csv").streaming_content).decode(),
        json.dumps(api.get(f"/api/v1/tables/{table.pk}/state/").json())])


def test_a_rename_is_one_row_and_every_night_shows_the_name_now(client_as, club, members,
                                                                guest_night, users):
    """Old nights show the member's current name (a name is who they are, not what they were
    called that night); Table.state is not written again, whatever the number of nights."""
    from clubs.recording import record_hand
    record_hand(guest_night, {"winner": "E", "win_from": "wall",
                              "seats": {w: {"score": s} for w, s in zip("ESWN", (40, 8, 4, 0), strict=True)}},
                users["scorer"])
    alice = members[0]
    client = client_as("admin")
    state = Table.objects.get(pk=guest_night.pk).state
    with CaptureQueriesContext(connection) as queries:
        assert client.post(url("member", club, alice.pk), {"display_name": "Alice Brown",
                                                           "role": "member", "active": "on"}
                           ).status_code == 302
    assert not [q for q in queries.captured_queries
                if q["sql"].startswith("UPDATE") and "clubs_table" in q["sql"]
                and "clubs_tablewriter" not in q["sql"]]
    guest_night.refresh_from_db()
    assert guest_night.state == state
    for shown in _shown(client, guest_night):
        assert "Alice Brown" in shown and 'title="Alice"' not in shown
    entry = AuditEntry.objects.filter(object_type="member", object_id=str(alice.pk)).first()
    assert entry.note == "Alice renamed Alice Brown."
    page = client.get(url("members", club)).content.decode()
    assert "Alice renamed Alice Brown." in page and "Undo" in page
    assert client.post(url("undo-member-change", club, entry.pk)).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice"
    client.get(url("members", club))  # the undo's message shown
    assert [i for i, shown in enumerate(_shown(client, guest_night)) if "Alice Brown" in shown] == []


def test_guest_made_member_from_the_page_and_undone(client_as, club, members, guest_night):
    client = client_as("admin")
    page = client.get(url("members", club)).content.decode()
    assert "Yan Li" in page and "Make Yan Li a member" in page
    answer = client.post(url("guest-to-member", club), {"guest_name": "Yan Li", "member": "",
                                                        "new_name": "Yan Li Wong"})
    assert answer.status_code == 302
    yan = Member.objects.get(display_name="Yan Li Wong")
    assert Seat.objects.filter(member=yan).count() == 1
    entry = AuditEntry.objects.filter(object_type="member").first()
    assert client.post(url("undo-member-change", club, entry.pk)).status_code == 302
    assert not Member.objects.filter(display_name="Yan Li Wong").exists()
    assert Seat.objects.filter(guest_name="Yan Li").count() == 1
    # Undoing twice says so, and changes nothing.
    answer = client.post(url("undo-member-change", club, entry.pk), follow=True)
    assert "undone already" in answer.content.decode()


def test_merge_refused_on_one_night(client_as, club, members, guest_night):
    answer = client_as("admin").post(url("merge-members", club),
                                     {"keep": members[0].pk, "duplicate": members[1].pk})
    assert answer.status_code == 400
    assert "both played at table 1 on 2 April 2026" in answer.content.decode()
