"""Mending a night's mistakes from the pages and the API, as each role: deleting an empty night
or a table with no counted hand, voiding a table's hands, re-seating, and undoing each."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs import mending
from clubs.models import AuditEntry, ClubSession, Hand, HandResult, Seat, Table
from door.models import CheckIn
from league.models import NightResult
from league.summary import refresh_all
from tests.members.conftest import play_hands, seat_table
from tests.web.conftest import ROLES

PAGE_ADMIN = {"admin": 302, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
PAGE_RECORD = {"admin": 302, "scorer": 302, "member": 403, "outsider": 404, "anonymous": 404}
API_ADMIN = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}


def api(users, role):
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    return client


@pytest.fixture
def night(club, bmja_version):
    return ClubSession.objects.create(club=club, date=dt.date(2026, 10, 1),
                                      house_rule_version=bmja_version)


@pytest.fixture
def played(night, members, users):
    table = seat_table(night, 1, members[:4])
    play_hands(table, users["scorer"], random.Random(3), 4)
    return table


@pytest.fixture
def empty(night, members):
    return seat_table(night, 2, members[4:8])


def in_step():
    stored = sorted(NightResult.objects.values_list("seat_id", "member_id", "guest_name", "net",
                                                    "counted"))
    refresh_all()
    assert sorted(NightResult.objects.values_list("seat_id", "member_id", "guest_name", "net",
                                                  "counted")) == stored


@pytest.mark.parametrize("role", ROLES)
def test_delete_an_empty_table_by_role(client_as, club, night, empty, role):
    answer = client_as(role).post(reverse("delete-table", args=[club.slug, night.pk, empty.pk]))
    assert answer.status_code == PAGE_ADMIN[role]
    assert Table.objects.filter(pk=empty.pk).exists() == (role != "admin")


def test_a_table_with_counted_hands_is_not_deleted(client_as, club, night, played):
    answer = client_as("admin").post(reverse("delete-table", args=[club.slug, night.pk,
                                                                   played.pk]), follow=True)
    assert "has 4 counted hands: void them first" in answer.content.decode()
    assert Table.objects.filter(pk=played.pk).exists()


def test_void_every_hand_then_delete_and_undo(client_as, club, night, played, users):
    client = client_as("admin")
    client.post(reverse("void-table", args=[club.slug, night.pk, played.pk]),
                {"reason": "started by mistake"})
    assert not Hand.objects.filter(table=played, voided=False).exists()
    assert not HandResult.objects.filter(seat__table=played).exists()
    assert not NightResult.objects.filter(table=played, counted=True).exists()
    in_step()
    entry = AuditEntry.objects.get(object_type="table", action="void")
    assert entry.note == "Every hand of table 1 voided (4): started by mistake"
    client.post(reverse("undo-mending", args=[club.slug, entry.pk]))
    assert Hand.objects.filter(table=played, voided=False).count() == 4
    assert NightResult.objects.filter(table=played, counted=True).count() == 4
    in_step()
    # Voided again, the table can go; its voided hands go with it (that is not undone).
    mending.void_table(played, user=users["admin"])
    answer = client.post(reverse("delete-table", args=[club.slug, night.pk, played.pk]))
    assert answer.status_code == 302 and not Table.objects.filter(pk=played.pk).exists()
    gone = AuditEntry.objects.get(object_type="table", action="delete")
    assert len(gone.before["hands"]) == 4 and not mending.undoable(gone)


def test_an_empty_table_deleted_and_put_back(client_as, club, night, empty):
    client = client_as("admin")
    seats = list(Seat.objects.filter(table=empty).values_list("pk", "member_id"))
    client.post(reverse("delete-table", args=[club.slug, night.pk, empty.pk]))
    page = client.get(reverse("mended", args=[club.slug])).content.decode()
    assert "Table 2 of 1 Oct 2026 deleted." in page and "Undo" in page
    entry = AuditEntry.objects.get(object_type="table", action="delete")
    client.post(reverse("undo-mending", args=[club.slug, entry.pk]))
    assert list(Seat.objects.filter(table_id=empty.pk).values_list("pk", "member_id")) == seats


@pytest.mark.parametrize("role", ROLES)
def test_delete_an_empty_night_by_role(client_as, club, night, empty, role):
    answer = client_as(role).post(reverse("delete-session", args=[club.slug, night.pk]))
    assert answer.status_code == PAGE_ADMIN[role]
    assert ClubSession.objects.filter(pk=night.pk).exists() == (role != "admin")


def test_a_night_with_hands_or_check_ins_is_not_deleted(client_as, club, night, played,
                                                        members):
    client = client_as("admin")
    answer = client.post(reverse("delete-session", args=[club.slug, night.pk]), follow=True)
    assert "This night has hands recorded" in answer.content.decode()
    other = ClubSession.objects.create(club=club, date=dt.date(2026, 10, 8),
                                       house_rule_version=night.house_rule_version)
    CheckIn.objects.create(session=other, member=members[0])
    answer = client.post(reverse("delete-session", args=[club.slug, other.pk]), follow=True)
    assert "This night has 1 check-in at the door" in answer.content.decode()
    assert ClubSession.objects.filter(pk=other.pk).exists()


def test_an_empty_night_deleted_and_put_back(client_as, club, night, empty):
    client = client_as("admin")
    client.post(reverse("delete-session", args=[club.slug, night.pk]))
    assert not ClubSession.objects.filter(pk=night.pk).exists()
    entry = AuditEntry.objects.get(object_type="clubsession", action="delete")
    client.post(reverse("undo-mending", args=[club.slug, entry.pk]))
    assert ClubSession.objects.get(pk=night.pk).tables.get().seats.count() == 4


@pytest.mark.parametrize("role", ROLES)
def test_reseat_by_role(client_as, club, night, played, members, role):
    client = client_as(role)
    url = reverse("mend-table", args=[club.slug, night.pk, played.pk])
    assert client.get(url).status_code == {**PAGE_RECORD, "admin": 200, "scorer": 200}[role]
    form = {f"member_{i}": m.pk for i, m in enumerate(members[:4])}
    form["member_1"] = ""
    form["guest_1"] = "Walk-in Wendy"
    answer = client.post(reverse("reseat-table", args=[club.slug, night.pk, played.pk]), form)
    assert answer.status_code == PAGE_RECORD[role]
    seat = Seat.objects.get(table=played, position=1)
    assert (seat.guest_name == "Walk-in Wendy") == (role in ("admin", "scorer"))


def test_reseat_moves_results_and_names_and_undo(client_as, club, night, played, members,
                                                 users):
    client = client_as("admin")
    form = {f"member_{i}": m.pk for i, m in enumerate(members[:4])}
    form["member_2"] = members[9].pk
    client.post(reverse("reseat-table", args=[club.slug, night.pk, played.pk]), form)
    seat = Seat.objects.get(table=played, position=2)
    assert seat.member == members[9]
    assert set(HandResult.objects.filter(seat=seat).values_list("member_id", flat=True)) == {
        members[9].pk}
    played.refresh_from_db()
    assert played.state["seats"][2][1] == members[9].display_name
    in_step()
    entry = AuditEntry.objects.get(object_type="table", action="update")
    assert entry.note == f"Table 1 re-seated: Carol → {members[9].display_name}."
    client.post(reverse("undo-mending", args=[club.slug, entry.pk]))
    seat.refresh_from_db()
    assert seat.member == members[2]
    in_step()


def test_reseat_refusals(client_as, club, night, played, empty, members):
    client = client_as("admin")
    form = {f"member_{i}": m.pk for i, m in enumerate(members[:4])}
    form["member_0"] = members[5].pk  # sits at table 2 tonight
    answer = client.post(reverse("reseat-table", args=[club.slug, night.pk, played.pk]), form)
    assert answer.status_code == 400
    assert "already sits at table 2 tonight" in answer.content.decode()
    form["member_0"] = members[1].pk  # twice at this table
    answer = client.post(reverse("reseat-table", args=[club.slug, night.pk, played.pk]), form)
    assert "already sits at this table" in answer.content.decode()


def test_winds_change_only_before_the_first_hand(admin_api, club, night, played, empty):
    answer = admin_api.post(f"/api/v1/tables/{played.pk}/reseat/", {"seats": [
        {"position": 0, "starting_wind": "S"}, {"position": 1, "starting_wind": "E"}]},
        format="json")
    assert answer.status_code == 400
    assert "Hands were played from these winds" in str(answer.json()["seats"])
    answer = admin_api.post(f"/api/v1/tables/{empty.pk}/reseat/", {"seats": [
        {"position": 0, "starting_wind": "S"}, {"position": 1, "starting_wind": "E"}]},
        format="json")
    assert answer.status_code == 200, answer.content
    assert dict(Seat.objects.filter(table=empty).values_list("position", "starting_wind")) == {
        0: "S", 1: "E", 2: "W", 3: "N"}


@pytest.mark.parametrize("role", ROLES)
def test_api_void_delete_undo_by_role(users, club, night, played, empty, role):
    client = api(users, role)
    answer = client.post(f"/api/v1/tables/{played.pk}/void-hands/", {"reason": "oops"},
                         format="json")
    assert answer.status_code == API_ADMIN[role]
    deleted = client.delete(f"/api/v1/tables/{empty.pk}/")
    assert deleted.status_code == {**API_ADMIN, "admin": 204}[role]
    if role == "admin":
        entry = AuditEntry.objects.get(object_type="table", action="delete")
        back = client.post("/api/v1/tables/undo/", {"entry": entry.pk}, format="json")
        assert back.status_code == 200 and Table.objects.filter(pk=empty.pk).exists()
        refused = client.delete(f"/api/v1/sessions/{night.pk}/")
        assert refused.status_code == 400
        assert "This night has hands recorded" in refused.json()["non_field_errors"][0]


@pytest.fixture
def twice(night, members, users):
    """Table 1 played 3 hands; table 3 was started again for the same four (seated in another
    order) and 2 more hands recorded there."""
    first = seat_table(night, 1, members[:4])
    play_hands(first, users["scorer"], random.Random(8), 3)
    again = seat_table(night, 3, ["x", "y", "z", "w"])
    again.seats.all().delete()
    for position, member in enumerate([members[1], members[0], members[3], members[2]]):
        Seat.objects.create(table=again, member=member, position=position,
                            starting_wind="ESWN"[position])
    play_hands(again, users["scorer"], random.Random(9), 2)
    return first, again


def test_move_the_hands_of_a_table_started_twice_and_undo(client_as, club, night, twice):
    from clubs.table_state import build_table_state

    first, again = twice
    moving = list(Hand.objects.filter(table=again).order_by("number").values_list("pk",
                                                                                  flat=True))
    client = client_as("admin")
    page = client.get(reverse("mend-table", args=[club.slug, night.pk, again.pk]))
    assert "Move the hands" in page.content.decode()
    answer = client.post(reverse("move-hands", args=[club.slug, night.pk, again.pk]),
                         {"target": first.pk})
    assert answer.status_code == 302
    assert list(Hand.objects.filter(table=first).order_by("number").values_list(
        "number", flat=True)) == [1, 2, 3, 4, 5]
    assert list(Hand.objects.filter(pk__in=moving).order_by("number").values_list(
        "number", flat=True)) == [4, 5]
    for hand in Hand.objects.filter(pk__in=moving):
        assert hand.dealer.table_id == first.pk
        assert {e.seat.table_id for e in hand.entries.all()} == {first.pk}
    first.refresh_from_db()
    assert first.state == build_table_state(first).snapshot(first.state["rev"])
    assert not Hand.objects.filter(table=again).exists()
    in_step()
    entry = AuditEntry.objects.get(object_type="table", object_id=str(again.pk),
                                   action="update")
    assert entry.note == "The 2 hands of table 3 moved to table 1 (hands 4 to 5)."
    client.post(reverse("undo-mending", args=[club.slug, entry.pk]))
    assert list(Hand.objects.filter(table=again).order_by("number").values_list(
        "pk", flat=True)) == moving
    assert Hand.objects.filter(table=first).count() == 3
    in_step()


def test_moving_refused_to_other_players(admin_api, club, night, played, empty):
    answer = admin_api.post(f"/api/v1/tables/{played.pk}/move-hands/", {"target": empty.pk},
                            format="json")
    assert answer.status_code == 400
    assert answer.json()["target"][0].startswith("Alice, Bob, Carol, David do not sit at "
                                                 "table 2")


@pytest.mark.parametrize("role", ROLES)
def test_move_hands_api_by_role(users, club, night, twice, role):
    first, again = twice
    answer = api(users, role).post(f"/api/v1/tables/{again.pk}/move-hands/",
                                   {"target": first.pk}, format="json")
    assert answer.status_code == API_ADMIN[role], answer.content
    assert Hand.objects.filter(table=first).count() == (5 if role == "admin" else 3)


@pytest.mark.parametrize("role", ROLES)
def test_move_hands_page_by_role(client_as, club, night, twice, role):
    first, again = twice
    answer = client_as(role).post(reverse("move-hands", args=[club.slug, night.pk, again.pk]),
                                  {"target": first.pk})
    assert answer.status_code == PAGE_ADMIN[role]
    assert Hand.objects.filter(table=first).count() == (5 if role == "admin" else 3)


def test_nothing_to_undo_for_a_table_deleted_with_voided_hands(client_as, club, night, played,
                                                              users):
    mending.void_table(played, user=users["admin"])
    client = client_as("admin")
    answer = client.post(reverse("delete-table", args=[club.slug, night.pk, played.pk]),
                         follow=True)
    page = answer.content.decode()
    assert "It stays in the club&#x27;s records." in page and "Undo" not in page
