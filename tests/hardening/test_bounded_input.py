"""Issue #13, bounded and exact input: every list in a hand bounded to what a game allows,
free text bounded, ids in ASCII digits, a clear word for a hand number far ahead, one guest
name once per table, and a schema that says what the API returns."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import Hand, Member
from clubs.text_limits import NOTES_MAX
from tests.houserules.conftest import hand

QUICK = {"E": {"score": 0}, "S": {"score": 0}, "W": {"score": 0}, "N": {"score": 0}}
PENALTY = {"kind": "false_naming", "offender": "S", "claimant": "E"}


def _wall_game(table, **more):
    return {"table": table.pk, "draw": True, "winner": None, "seats": QUICK, **more}


def test_ten_thousand_penalties_are_refused(api_as, table):
    body = _wall_game(table, facts={"penalties": [PENALTY] * 10_000})
    response = api_as("scorer").post("/api/v1/hands/", body, format="json")
    assert response.status_code == 400
    assert "At most 8 penalties" in response.json()["facts"]["penalties"][0]
    assert not Hand.objects.exists()


def test_a_few_penalties_are_fine(api_as, table):
    body = _wall_game(table, facts={"penalties": [PENALTY] * 2})
    assert api_as("scorer").post("/api/v1/hands/", body, format="json").status_code == 201


def test_settle_refuses_ten_thousand_penalties(api_as, db):
    body = {"rules": "bmja", "winner": "E", "discarder": "S", "hands": QUICK,
            "penalties": [PENALTY] * 10_000}
    response = api_as("anonymous").post("/api/v1/settle", body, format="json")
    assert response.status_code == 400
    assert "penalties" in response.json()


def test_a_quick_entry_holds_at_most_four_kongs_and_each_bonus_tile_once(api_as, table):
    seats = {**QUICK, "E": {"score": 10, "kongs": ["claimed"] * 5}, "S": {"score": 0,
             "bonus": ["f1", "f1"]}}
    response = api_as("scorer").post("/api/v1/hands/preview/", _wall_game(table, seats=seats),
                                     format="json")
    assert response.status_code == 400
    assert set(response.json()["seats"]) == {"E", "S"}


def test_a_score_request_with_ten_thousand_melds_is_refused(api_as, db):
    body = hand("pung b1", "b2 b2") | {"melds": [{"kind": "pung", "tile": "b1"}] * 10_000}
    response = api_as("anonymous").post("/api/v1/score", body, format="json")
    assert response.status_code == 400
    assert "melds" in response.json()


def test_session_notes_are_bounded_in_the_api(api_as, club, bmja_version):
    body = {"club": club.slug, "date": "2026-11-27", "house_rule_version": bmja_version.pk,
            "notes": "x" * 100_000}
    response = api_as("scorer").post("/api/v1/sessions/", body, format="json")
    assert response.status_code == 400
    assert f"{NOTES_MAX:,}" in response.json()["notes"][0]


def test_session_notes_are_bounded_on_the_page(client, users, club, bmja_version):
    client.force_login(users["scorer"])
    response = client.post(f"/clubs/{club.slug}/sessions/new/", {
        "date": "2026-11-27", "house_rule_version": bmja_version.pk, "notes": "x" * 100_000})
    assert response.status_code == 400  # the form again, with the error
    assert "at most" in response.content.decode().lower()
    assert not club.sessions.filter(date=dt.date(2026, 11, 27)).exists()


def test_a_house_rule_description_is_bounded(api_as, club):
    body = {"club": club.slug, "base": "guide", "slug": "jade-long", "name": "Long",
            "description": "x" * 100_000}
    response = api_as("admin").post("/api/v1/house-rules/", body, format="json")
    assert response.status_code == 400
    assert "description" in response.json()


@pytest.mark.parametrize("digits", ["٦", "６", "۶"])
def test_ids_are_ascii_digits_only(api_as, table, digits):
    body = {**_wall_game(table), "table": digits}
    response = api_as("scorer").post("/api/v1/hands/", body, format="json")
    assert response.status_code == 400 and "table" in response.json()
    assert api_as("scorer").get(f"/api/v1/tables/{digits}/").status_code == 404
    # A list filter that cannot be an id is a 400 naming it (clubs.api.id_filter, 71d2b74)
    listed = api_as("scorer").get("/api/v1/hands/", {"table": digits})
    assert listed.status_code == 400 and "table" in listed.json()


def test_a_hand_number_far_ahead_says_what_is_expected(api_as, table):
    response = api_as("scorer").post("/api/v1/hands/", _wall_game(table, number=40),
                                     format="json")
    assert response.status_code == 400
    assert "The next hand at this table is hand 1" in response.json()["number"][0]


@pytest.mark.parametrize("second", ["Visitor", " visitor "])
def test_one_guest_name_once_per_table_in_the_api(api_as, club_session, players, second):
    seats = [{"member": players[0].pk, "starting_wind": "E"},
             {"member": players[1].pk, "starting_wind": "S"},
             {"guest_name": "Visitor", "starting_wind": "W"},
             {"guest_name": second, "starting_wind": "N"}]
    response = api_as("scorer").post("/api/v1/tables/", {"session": club_session.pk,
                                                          "seats": seats}, format="json")
    assert response.status_code == 400
    assert "already has a seat" in response.json()["seats"][3]["guest_name"][0]


def test_one_guest_name_once_per_table_on_the_page(client, users, club, club_session, players):
    client.force_login(users["scorer"])
    page = client.get(f"/clubs/{club.slug}/sessions/{club_session.pk}/")
    keys = [key for key, _ in page.context["seating_form"].row_names]
    data = {f"{keys[0]}_member": players[0].pk, f"{keys[1]}_member": players[1].pk,
            f"{keys[2]}_guest": "Visitor", f"{keys[3]}_guest": "visitor"}
    response = client.post(f"/clubs/{club.slug}/sessions/{club_session.pk}/tables/new/", data)
    assert "already sits" in response.content.decode()
    assert not club_session.tables.exists()


def test_schema_allows_null_club_and_integer_payment_parties(api_as, db):
    schema = api_as("anonymous").get("/api/v1/schema/", {"format": "json"}).json()
    rule = schema["components"]["schemas"]["HouseRule"]["properties"]
    assert rule["club"].get("nullable") and rule["based_on"].get("nullable")
    payment = schema["components"]["schemas"]["TablePayment"]["properties"]
    assert {"type": "integer"} in payment["from"]["oneOf"]


def test_a_member_login_from_another_club_is_not_revealed(api_as, club, users):
    taken = api_as("admin").post("/api/v1/members/", {
        "club": club.slug, "display_name": "Spy", "username": users["outsider"].username},
        format="json")
    nobody = api_as("admin").post("/api/v1/members/", {
        "club": club.slug, "display_name": "Spy", "username": "no-such-login"}, format="json")
    assert taken.status_code == nobody.status_code == 400
    assert str(taken.json()).replace(users["outsider"].username, "X") == str(
        nobody.json()).replace("no-such-login", "X")
    assert not Member.objects.filter(club=club, user=users["outsider"]).exists()
