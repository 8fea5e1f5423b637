"""Every club API endpoint for the five kinds of visitor the issue names: the club's admin, a
scorer, a member, an outsider (admin of another club) and an anonymous visitor.

Objects of a club a user cannot see answer 404 to anyone, anonymous visitors too (their
existence is not leaked); seeing without the role for a change answers 403; an anonymous list
or create is told to log in (403: session authentication comes first, so DRF answers 403
rather than 401).
"""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from clubs.models import AuditEntry, ClubSession, Hand, Member, Season
from clubs.recording import record_hand

pytestmark = pytest.mark.django_db

ROLES = ("admin", "scorer", "member", "outsider", "anonymous")


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api_as(users):
    def make(role: str) -> APIClient:
        client = APIClient()
        if users[role] is not None:
            client.force_authenticate(users[role])
        return client

    return make


def quick_hand(table_id: int, winner: str = "E") -> dict:
    return {
        "table": table_id,
        "winner": winner,
        "win_from": "wall",
        "seats": {w: {"score": s} for w, s in zip("ESWN", (40, 8, 4, 0), strict=True)},
    }


@pytest.fixture
def recorded(table, users):
    entry = quick_hand(table.pk)
    del entry["table"]
    return record_hand(table, entry, users["scorer"])


def expect(role: str, **codes: int) -> int:
    return codes[role]


@pytest.mark.parametrize("role", ROLES)
def test_read_club(api_as, club, role):
    answer = api_as(role).get(f"/api/v1/clubs/{club.slug}/")
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )
    if answer.status_code == 200:
        assert answer.json()["role"] == role


@pytest.mark.parametrize("role", ROLES)
def test_change_club(api_as, club, role):
    answer = api_as(role).patch(f"/api/v1/clubs/{club.slug}/", {"published": True}, format="json")
    assert answer.status_code == expect(
        role, admin=200, scorer=403, member=403, outsider=404, anonymous=404
    )
    club.refresh_from_db()
    assert club.published == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_list_clubs_shows_own_clubs_only(api_as, club, other_club, role):
    answer = api_as(role).get("/api/v1/clubs/")
    if role == "anonymous":
        assert answer.status_code == 200 and answer.json()["results"] == []
        return
    slugs = {c["slug"] for c in answer.json()["results"]}
    assert slugs == ({"far"} if role == "outsider" else {"jade"})


@pytest.mark.parametrize("role", ROLES)
def test_members_list_and_add(api_as, club, role):
    client = api_as(role)
    listed = client.get("/api/v1/members/", {"club": club.slug})
    assert listed.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=200, anonymous=403
    )
    if role == "outsider":
        assert listed.json()["results"] == []
    added = client.post(
        "/api/v1/members/", {"club": club.slug, "display_name": "Newcomer"}, format="json"
    )
    # An outsider naming the club gets "no such club": 400 on the field, no existence leaked.
    assert added.status_code == expect(
        role, admin=201, scorer=403, member=403, outsider=400, anonymous=403
    ), added.json()
    assert Member.objects.filter(display_name="Newcomer").exists() == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_member_detail_and_change(api_as, players, role):
    alice = players[0]
    client = api_as(role)
    read = client.get(f"/api/v1/members/{alice.pk}/")
    assert read.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )
    changed = client.patch(f"/api/v1/members/{alice.pk}/", {"active": False}, format="json")
    assert changed.status_code == expect(
        role, admin=200, scorer=403, member=403, outsider=404, anonymous=404
    )


@pytest.mark.parametrize("role", ROLES)
def test_seasons(api_as, club, role):
    client = api_as(role)
    made = client.post(
        "/api/v1/seasons/",
        {"club": club.slug, "name": "Winter 2026", "start": "2026-10-01"},
        format="json",
    )
    assert made.status_code == expect(
        role, admin=201, scorer=403, member=403, outsider=400, anonymous=403
    )
    season = Season.objects.create(club=club, name="Spring", start=dt.date(2026, 3, 1))
    read = client.get(f"/api/v1/seasons/{season.pk}/")
    assert read.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )


@pytest.mark.parametrize("role", ROLES)
def test_sessions_open_and_delete(api_as, club, bmja_version, club_session, role):
    client = api_as(role)
    opened = client.post(
        "/api/v1/sessions/",
        {"club": club.slug, "date": "2026-11-27", "house_rule_version": bmja_version.pk},
        format="json",
    )
    assert opened.status_code == expect(
        role, admin=201, scorer=201, member=403, outsider=400, anonymous=403
    )
    read = client.get(f"/api/v1/sessions/{club_session.pk}/")
    assert read.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )
    deleted = client.delete(f"/api/v1/sessions/{club_session.pk}/")
    assert deleted.status_code == expect(
        role, admin=204, scorer=403, member=403, outsider=404, anonymous=404
    )
    assert ClubSession.objects.filter(pk=club_session.pk).exists() == (role != "admin")


@pytest.mark.parametrize("role", ROLES)
def test_add_table_with_seats(api_as, club_session, players, role):
    body = {
        "session": club_session.pk,
        "seats": [
            {"member": players[0].pk, "starting_wind": "E"},
            {"member": players[1].pk, "starting_wind": "S"},
            {"guest_name": "Visiting Vera", "starting_wind": "W"},
            {"member": players[2].pk, "starting_wind": "N"},
        ],
    }
    answer = api_as(role).post("/api/v1/tables/", body, format="json")
    assert answer.status_code == expect(
        role, admin=201, scorer=201, member=403, outsider=400, anonymous=403
    ), answer.json()
    if answer.status_code == 201:
        assert [s["name"] for s in answer.json()["seats"]] == [
            "Alice", "Bob", "Visiting Vera", "Carol"
        ]


@pytest.mark.parametrize("role", ROLES)
def test_table_state(api_as, table, recorded, role):
    answer = api_as(role).get(f"/api/v1/tables/{table.pk}/state/")
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )
    if answer.status_code == 200:
        state = answer.json()
        assert len(state["hands"]) == 1
        # East (Alice) won from the wall: 40 from each, East receives double... of 40 each.
        assert sum(state["totals"].values()) == 0


@pytest.mark.parametrize("role", ROLES)
def test_record_hand(api_as, table, role):
    answer = api_as(role).post("/api/v1/hands/", quick_hand(table.pk), format="json")
    assert answer.status_code == expect(
        role, admin=201, scorer=201, member=403, outsider=400, anonymous=403
    )
    assert Hand.objects.filter(table=table).count() == (1 if role in ("admin", "scorer") else 0)
    if answer.status_code == 201:
        hand = answer.json()
        assert hand["number"] == 1
        assert {s["wind"]: s["net"] for s in hand["seats"]}["E"] > 0
        assert hand["payments"]


@pytest.mark.parametrize("role", ROLES)
def test_preview_hand(api_as, table, role):
    answer = api_as(role).post("/api/v1/hands/preview/", quick_hand(table.pk), format="json")
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=403, outsider=400, anonymous=403
    )
    assert not Hand.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_read_hand(api_as, recorded, role):
    answer = api_as(role).get(f"/api/v1/hands/{recorded.pk}/")
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )


@pytest.mark.parametrize("role", ROLES)
def test_correct_hand(api_as, recorded, role):
    answer = api_as(role).patch(
        f"/api/v1/hands/{recorded.pk}/", {"seats": {"E": {"score": 44}}}, format="json"
    )
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=403, outsider=404, anonymous=404
    )
    recorded.refresh_from_db()
    east = recorded.entries.get(seat_wind="E").data
    assert east == ({"score": 44} if role in ("admin", "scorer") else {"score": 40})


@pytest.mark.parametrize("role", ROLES)
def test_void_hand(api_as, recorded, role):
    answer = api_as(role).post(
        f"/api/v1/hands/{recorded.pk}/void/", {"reason": "entered twice"}, format="json"
    )
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=403, outsider=404, anonymous=404
    )
    recorded.refresh_from_db()
    assert recorded.voided == (role in ("admin", "scorer"))


@pytest.mark.parametrize("role", ROLES)
def test_swap_seats(api_as, table, recorded, role):
    a, b = table.seats.order_by("position")[:2]
    answer = api_as(role).post(
        f"/api/v1/tables/{table.pk}/swap-seats/",
        {"seat_a": a.pk, "seat_b": b.pk, "from_hand": 1},
        format="json",
    )
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=403, outsider=404, anonymous=404
    )


@pytest.mark.parametrize("role", ROLES)
def test_session_totals(api_as, club_session, recorded, role):
    answer = api_as(role).get(f"/api/v1/sessions/{club_session.pk}/totals/")
    assert answer.status_code == expect(
        role, admin=200, scorer=200, member=200, outsider=404, anonymous=404
    )
    if answer.status_code == 200:
        players = answer.json()["players"]
        assert players[0]["name"] == "Alice" and sum(p["total"] for p in players) == 0


@pytest.mark.parametrize("role", ROLES)
def test_audit_entries_for_club_admins_only(api_as, club, recorded, users, role):
    AuditEntry.objects.create(club=club, user=users["scorer"], action="void",
                              object_type="hand", object_id=str(recorded.pk))
    answer = api_as(role).get("/api/v1/audit-entries/")
    assert answer.status_code == expect(
        role, admin=200, scorer=403, member=403, outsider=200, anonymous=403
    )
    if answer.status_code == 200:
        # The other club's admin sees only their own club's trail.
        assert len(answer.json()["results"]) == (1 if role == "admin" else 0)


@pytest.mark.parametrize("role", ROLES)
def test_published_club_sessions_are_read_only_for_everyone(api_as, club, table, recorded, role):
    club.published = True
    club.save()
    client = api_as(role)
    assert client.get(f"/api/v1/tables/{table.pk}/state/").status_code == 200
    assert client.get(f"/api/v1/hands/{recorded.pk}/").status_code == 200
    changed = client.patch(
        f"/api/v1/hands/{recorded.pk}/", {"seats": {"E": {"score": 44}}}, format="json"
    )
    assert changed.status_code == expect(
        role, admin=200, scorer=200, member=403, outsider=403, anonymous=403
    )


def test_token_authentication(client, users, club):
    from accounts.tokens import issue

    _, key = issue(users["member"], "a script")
    answer = client.get(f"/api/v1/clubs/{club.slug}/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 200 and answer.json()["role"] == "member"


def test_a_token_that_is_no_one_s_is_refused_as_drf_refuses_it(client, club):
    answer = client.get(f"/api/v1/clubs/{club.slug}/", HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert answer.status_code == 403 and answer.json()["detail"] == "Invalid token."


def test_the_token_of_a_deactivated_user_is_refused(client, users, club):
    from accounts.tokens import issue

    _, key = issue(users["scorer"], "a script")
    users["scorer"].is_active = False
    users["scorer"].save()
    answer = client.get(f"/api/v1/clubs/{club.slug}/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 403 and answer.json()["detail"] == "User inactive or deleted."


def test_a_token_authenticates_the_whole_user(client, users, club):
    """The user read with the token is complete: a recorded hand names its scorer."""
    from accounts.tokens import issue

    _, key = issue(users["scorer"], "a script")
    answer = client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 200
    user = answer.wsgi_request.user
    assert (user.pk, user.username, user.is_active) == (
        users["scorer"].pk, users["scorer"].username, True)
    assert user.date_joined == users["scorer"].date_joined


LISTS = ["clubs", "members", "seasons", "sessions", "tables", "hands", "audit-entries"]


@pytest.mark.parametrize("name", LISTS)
@pytest.mark.parametrize("role", ROLES)
def test_every_list_answers_without_error(api_as, recorded, name, role):
    """Lists are scoped to the user's clubs: never a 500, never another club's rows."""
    answer = api_as(role).get(f"/api/v1/{name}/")
    assert answer.status_code in (200, 403)
    if answer.status_code == 200 and role in ("outsider", "anonymous"):
        theirs = [row for row in answer.json()["results"]
                  if row.get("club") == "jade" or row.get("slug") == "jade"
                  or row.get("session") == recorded.table.session_id
                  or row.get("table") == recorded.table_id]
        assert theirs == []
