"""Front page, club home and session page: who may see them, start a session, add a table.

Roles as issue 6 sets them: club admin and scorer open sessions and tables, members read,
outsiders from another club see nothing (404), anonymous visitors are sent to log in unless the
club publishes its sessions.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, ClubSession, Seat, Table

pytestmark = pytest.mark.django_db

READ_EXPECTED = {"admin": 200, "scorer": 200, "member": 200, "outsider": 404, "anonymous": 404}


def test_front_page_lists_the_users_clubs_or_offers_to_log_in(client_as, club, other_club):
    page = client_as("member").get("/").content.decode()
    assert "Jade Dragon Club" in page and "Far Away Club" not in page


def test_front_page_for_an_anonymous_visitor_has_a_login_link(client, club):
    page = client.get("/").content.decode()
    assert reverse("login") in page and "Jade Dragon Club" not in page


def test_front_page_lists_published_clubs_to_anyone(client, club):
    club.published = True
    club.save()
    assert "Jade Dragon Club" in client.get("/").content.decode()


def test_login_page_logs_a_member_in(client, users):
    response = client.post(
        reverse("login"), {"username": "member-user", "password": "tiles-and-winds-42"}
    )
    assert response.status_code == 302
    assert "Jade Dragon Club" in client.get("/").content.decode()


def test_login_page_says_what_is_wrong_with_a_bad_password(client, users):
    response = client.post(reverse("login"), {"username": "member-user", "password": "nope"})
    assert response.status_code == 200
    # accounts.forms.LoginForm's refusal: it names the email the page asks for (468b9a5)
    assert "do not match a login" in response.content.decode()


@pytest.mark.parametrize("role", READ_EXPECTED)
def test_club_home_by_role(client_as, club, club_session, role):
    response = client_as(role).get(reverse("club", args=[club.slug]))
    assert response.status_code == READ_EXPECTED[role]
    if role == "anonymous":  # the private club reads as none; the 404 offers to log in
        assert f'{reverse("login")}?next=/clubs/{club.slug}/' in response.content.decode()
    if response.status_code == 200:
        page = response.content.decode()
        assert "20 Nov 2026" in page
        assert ("Start the session" in page) == (role in ("admin", "scorer"))


@pytest.mark.parametrize("role", READ_EXPECTED)
def test_session_page_by_role(client_as, club, club_session, table, role):
    response = client_as(role).get(reverse("session", args=[club.slug, club_session.pk]))
    assert response.status_code == READ_EXPECTED[role]
    if response.status_code == 200:
        page = response.content.decode()
        assert "Table 1" in page and "Alice" in page
        assert ("Add the table" in page) == (role in ("admin", "scorer"))


@pytest.mark.parametrize("role", ["member", "outsider", "anonymous"])
def test_a_published_club_is_readable_by_anyone_but_not_changeable(
    client_as, club, club_session, role
):
    club.published = True
    club.save()
    client = client_as(role)
    assert client.get(reverse("club", args=[club.slug])).status_code == 200
    assert client.get(reverse("session", args=[club.slug, club_session.pk])).status_code == 200
    response = client.post(reverse("start-session", args=[club.slug]), {"date": "2026-11-21"})
    assert response.status_code == (302 if role == "anonymous" else 403)
    assert ClubSession.objects.count() == 1


def test_a_session_of_another_club_is_not_found_under_this_club(
    client_as, club, other_club, club_session
):
    response = client_as("outsider").get(reverse("session", args=[other_club.slug, club_session.pk]))
    assert response.status_code == 404


START_EXPECTED = {"admin": 302, "scorer": 302, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.mark.parametrize("role", START_EXPECTED)
def test_start_session_by_role(client_as, club, bmja_version, users, role):
    response = client_as(role).post(
        reverse("start-session", args=[club.slug]),
        {"date": "2026-11-21", "house_rule_version": bmja_version.pk},
    )
    assert response.status_code == START_EXPECTED[role]
    created = ClubSession.objects.filter(club=club, date=dt.date(2026, 11, 21))
    assert created.exists() == (role in ("admin", "scorer"))
    if created.exists():
        assert response["Location"] == reverse("session", args=[club.slug, created.get().pk])
        assert AuditEntry.objects.filter(object_type="clubsession", user=users[role]).exists()


def test_start_session_with_bad_input_shows_field_errors_and_saves_nothing(client_as, club):
    response = client_as("scorer").post(
        reverse("start-session", args=[club.slug]), {"date": "not a date", "house_rule_version": 999}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert set(form.errors) == {"date", "house_rule_version"}
    assert not ClubSession.objects.exists()


def test_a_house_rule_of_another_club_cannot_be_chosen(client_as, club, other_club, bmja_version):
    from clubs.models import HouseRuleRecord, HouseRuleVersion

    theirs = HouseRuleRecord.objects.create(slug="far-rules", name="Far rules", club=other_club)
    version = HouseRuleVersion.objects.create(record=theirs, number=1, data=bmja_version.data)
    response = client_as("admin").post(
        reverse("start-session", args=[club.slug]),
        {"date": "2026-11-21", "house_rule_version": version.pk},
    )
    assert response.status_code == 400
    assert "house_rule_version" in response.context["form"].errors


def _seating(players, **extra):
    data = {f"{wind}_member": member.pk for wind, member in zip("ESWN", players, strict=False)}
    data.update(extra)
    return data


ADD_TABLE_EXPECTED = {"admin": 302, "scorer": 302, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.mark.parametrize("role", ADD_TABLE_EXPECTED)
def test_add_table_by_role(client_as, club, club_session, players, role):
    response = client_as(role).post(
        reverse("add-table", args=[club.slug, club_session.pk]), _seating(players)
    )
    assert response.status_code == ADD_TABLE_EXPECTED[role]
    assert Table.objects.exists() == (role in ("admin", "scorer"))


def test_add_table_seats_members_and_guests_with_their_starting_winds(
    client_as, club, club_session, players
):
    data = _seating(players[:3], N_guest="Visiting Vera")
    response = client_as("scorer").post(reverse("add-table", args=[club.slug, club_session.pk]), data)
    table = Table.objects.get()
    assert response["Location"] == reverse("table", args=[club.slug, club_session.pk, table.pk])
    seats = [(s.position, s.name, s.starting_wind) for s in Seat.objects.order_by("position")]
    assert seats == [(0, "Alice", "E"), (1, "Bob", "S"), (2, "Carol", "W"), (3, "Visiting Vera", "N")]


@pytest.mark.parametrize(
    ("data_of", "field", "fragment"),
    [
        (lambda p: _seating(p[:3]), "__all__", "seat 4 (you seated 3)"),
        (lambda p: _seating([p[0], p[0], p[1], p[2]]), "S_member", "Alice already sits East"),
        (lambda p: _seating(p, E_guest="Someone"), "E_guest", "East is Alice"),
    ],
)
def test_add_table_with_a_wrong_seating_says_what_to_mend(
    client_as, club, club_session, players, data_of, field, fragment
):
    response = client_as("scorer").post(
        reverse("add-table", args=[club.slug, club_session.pk]), data_of(players)
    )
    assert response.status_code == 400
    assert fragment in " ".join(response.context["seating_form"].errors[field])
    assert not Table.objects.exists()


def test_a_member_of_another_club_cannot_be_seated(client_as, club, other_club, club_session, players):
    from clubs.models import Member

    stranger = Member.objects.create(club=other_club, display_name="Stranger")
    data = _seating([stranger, *players[1:]])
    response = client_as("scorer").post(reverse("add-table", args=[club.slug, club_session.pk]), data)
    assert response.status_code == 400
    assert "E_member" in response.context["seating_form"].errors


CLOSE_EXPECTED = {"admin": 302, "scorer": 302, "member": 403, "outsider": 404, "anonymous": 404}


@pytest.mark.parametrize("role", CLOSE_EXPECTED)
def test_closing_a_session_by_role(client_as, club, club_session, role):
    url = reverse("session-status", args=[club.slug, club_session.pk])
    response = client_as(role).post(url, {"action": "close"})
    assert response.status_code == CLOSE_EXPECTED[role]
    club_session.refresh_from_db()
    assert club_session.is_open == (role not in ("admin", "scorer"))


@pytest.mark.parametrize(("role", "code"), [("admin", 302), ("scorer", 403), ("member", 403)])
def test_only_a_club_admin_reopens_a_closed_session(client_as, club, club_session, role, code):
    club_session.status = "closed"
    club_session.save()
    url = reverse("session-status", args=[club.slug, club_session.pk])
    assert client_as(role).post(url, {"action": "reopen"}).status_code == code
    club_session.refresh_from_db()
    assert club_session.is_open == (role == "admin")
    if role == "admin":
        entry = AuditEntry.objects.get(object_type="clubsession", action="reopen")
        assert (entry.before, entry.after) == ({"status": "closed"}, {"status": "open"})


@pytest.mark.parametrize("action", ["", "open", "delete"])
def test_an_unknown_session_status_action_is_a_400_and_changes_nothing(
    client_as, club, club_session, action
):
    url = reverse("session-status", args=[club.slug, club_session.pk])
    response = client_as("admin").post(url, {"action": action})
    assert response.status_code == 400
    assert "action=close" in response.content.decode()
    club_session.refresh_from_db()
    assert club_session.is_open
    assert not AuditEntry.objects.filter(object_type="clubsession").exists()


@pytest.mark.parametrize(
    ("role", "sees_jade", "sees_far"),
    [
        ("admin", True, False),
        ("scorer", True, False),
        ("member", True, False),
        ("outsider", False, True),
        ("anonymous", False, False),
    ],
)
def test_front_page_by_role_lists_only_the_users_own_clubs(
    client_as, club, other_club, role, sees_jade, sees_far
):
    response = client_as(role).get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert ("Jade Dragon Club" in page) == sees_jade
    assert ("Far Away Club" in page) == sees_far


def test_a_house_rule_that_names_its_goulash_rule_gets_it_frozen_with_the_session(
    client_as, club, house_rule_versions
):
    """000 is used as the goulash rule of a session (rule README); bmja-west-wind names it."""
    response = client_as("scorer").post(
        reverse("start-session", args=[club.slug]),
        {"date": "2026-11-21", "house_rule_version": house_rule_versions["bmja-west-wind"].pk},
    )
    assert response.status_code == 302
    session = ClubSession.objects.get(date=dt.date(2026, 11, 21))
    assert session.goulash_rule_version == house_rule_versions["west-wind-goulash"]


def test_a_chosen_goulash_rule_wins_over_the_one_the_house_rule_names(
    client_as, club, house_rule_versions
):
    response = client_as("scorer").post(
        reverse("start-session", args=[club.slug]),
        {
            "date": "2026-11-21",
            "house_rule_version": house_rule_versions["bmja-west-wind"].pk,
            "goulash_rule_version": house_rule_versions["bmja"].pk,
        },
    )
    assert response.status_code == 302
    assert ClubSession.objects.get().goulash_rule_version == house_rule_versions["bmja"]


def _session_under(club, version):
    return ClubSession.objects.create(club=club, date=dt.date(2026, 11, 20), house_rule_version=version)


def test_a_two_player_table_is_seated_east_and_west(client_as, club, players, house_rule_versions):
    """001: the game for two; the settlement engine seats them East and West."""
    session = _session_under(club, house_rule_versions["bmja-2-players"])
    url = reverse("add-table", args=[club.slug, session.pk])
    page = client_as("scorer").get(reverse("session", args=[club.slug, session.pk])).content.decode()
    assert 'name="E_member"' in page and 'name="W_member"' in page and 'name="S_member"' not in page
    response = client_as("scorer").post(url, {"E_member": players[0].pk, "W_member": players[1].pk})
    assert response.status_code == 302
    assert sorted(Seat.objects.values_list("starting_wind", flat=True)) == ["E", "W"]


def test_a_five_player_table_seats_one_to_sit_out_first(client_as, club, players, house_rule_versions):
    """001: the fifth player (the 'dreamer') sits out; the record page asks only the four in play."""
    session = _session_under(club, house_rule_versions["bmja-5-players"])
    data = _seating(players, out_guest="Erin")
    client = client_as("scorer")
    response = client.post(reverse("add-table", args=[club.slug, session.pk]), data)
    assert response.status_code == 302
    erin = Seat.objects.get(guest_name="Erin")
    assert erin.starting_wind == ""
    table = Table.objects.get()
    record = client.get(reverse("record-hand", args=[club.slug, session.pk, table.pk]))
    assert [f.seat.name for f in record.context["seat_forms"]] == ["Alice", "Bob", "Carol", "David"]
    page = client.get(reverse("table", args=[club.slug, session.pk, table.pk])).content.decode()
    assert "Erin" in page and "Out" in page
