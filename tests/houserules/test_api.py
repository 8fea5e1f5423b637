"""``/api/v1/house-rules/`` and ``POST /api/v1/score`` with every house rule: 200, 400, 403."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.models import Club, Member
from houserules.copies import create_copy
from scoring.engine import builtin_house_rules
from tests.houserules.conftest import hand

URL = "/api/v1/house-rules/"


@pytest.fixture
def club(db):
    return Club.objects.create(name="Four Winds Club", slug="four-winds")


@pytest.fixture
def people(club):
    made = {}
    for role in ("admin", "scorer", "member"):
        user = get_user_model().objects.create_user(username=f"{role}-hr", password="pw-tiles-42")
        Member.objects.create(club=club, user=user, display_name=role, role=role)
        made[role] = user
    made["outsider"] = get_user_model().objects.create_user(username="out-hr", password="pw-42x")
    return made


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


COPY = {"club": "four-winds", "base": "guide", "slug": "four-winds-guide",
        "name": "Four Winds guide", "overrides": {"scoring": {"limit": 3000}}}


def test_anyone_lists_the_built_in_house_rules_with_their_tables(db):
    response = client_for().get(URL)
    assert response.status_code == 200
    rows = {row["slug"]: row for row in response.json()["results"]}
    assert set(builtin_house_rules()) <= set(rows)
    guide = rows["guide"]
    assert guide["builtin"] is True and guide["club"] is None and guide["version"] == 1
    assert guide["rule"]["scoring"]["limit"] == 2000
    assert guide["rule"]["payment"]["scheme"] == "winner_table"
    codes = {item["code"] for item in guide["rule"]["items"]}
    assert {"mahjong", "dragon_pung_concealed", "one_suit_only", "thirteen_orphans"} <= codes


def test_read_one_house_rule_by_slug(db):
    response = client_for().get(f"{URL}west-wind-goulash/")
    assert response.status_code == 200
    body = response.json()
    assert body["rule"]["scoring"]["go_out_minimum"] == [["doubles", 3]]
    assert body["versions"][0]["number"] == 1
    assert client_for().get(f"{URL}no-such-rule/").status_code == 404


def test_a_club_admin_creates_a_copy(people):
    response = client_for(people["admin"]).post(URL, COPY, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["slug"], body["club"], body["based_on"], body["version"]) == (
        "four-winds-guide", "four-winds", "guide", 1)
    assert body["rule"]["scoring"]["limit"] == 3000
    assert body["overrides"] == {"scoring": {"limit": 3000}}


@pytest.mark.parametrize("role", ["scorer", "member", "outsider"])
def test_only_club_admins_create_copies(people, role):
    response = client_for(people[role]).post(URL, COPY, format="json")
    if role == "outsider":
        assert response.status_code == 400  # a club one does not belong to does not exist
        assert "club" in response.json()
    else:
        assert response.status_code == 403


def test_anonymous_cannot_create(db, club):
    assert client_for().post(URL, COPY, format="json").status_code in (401, 403)


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        ({"scoring": {"limit": -1}}, "scoring.limit"),
        ({"items": {"no_such_item": None}}, "items.no_such_item"),
        ({"rotation": {"scheme": 3, "dice": 2}}, "rotation.dice"),
        ({"scoring": {"go_out_minimum": [["points"]]}}, "scoring.go_out_minimum"),
        ({"payment": {"points_to_payment": "double it"}}, "payment.points_to_payment"),
    ],
)
def test_invalid_overrides_get_400_with_field_paths(people, overrides, path):
    response = client_for(people["admin"]).post(URL, {**COPY, "overrides": overrides},
                                                format="json")
    assert response.status_code == 400
    errors = response.json()["overrides"]
    assert path in errors
    assert all(isinstance(message, str) and message for message in errors[path])


def test_a_taken_slug_gets_400(people):
    response = client_for(people["admin"]).post(URL, {**COPY, "slug": "bmja"}, format="json")
    assert response.status_code == 400
    assert "slug" in response.json()


def test_patch_makes_a_new_version(people, club):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide", {}, people["admin"])
    admin = client_for(people["admin"])
    response = admin.patch(f"{URL}four-winds-guide/",
                           {"overrides": {"scoring": {"limit": 1500}}}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["version"] == 2
    assert [v["number"] for v in body["versions"]] == [2, 1]
    old = admin.get(f"{URL}four-winds-guide/versions/1/").json()
    assert old["rule"]["scoring"]["limit"] == 2000
    assert admin.get(f"{URL}four-winds-guide/versions/9/").status_code == 404


def test_patch_needs_the_admin_role_and_never_touches_built_ins(people, club):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide", {}, people["admin"])
    change = {"overrides": {"scoring": {"limit": 1500}}}
    assert client_for(people["scorer"]).patch(f"{URL}four-winds-guide/", change,
                                              format="json").status_code == 403
    assert client_for(people["admin"]).patch(f"{URL}guide/", change,
                                             format="json").status_code == 403


def test_patch_with_invalid_overrides_gets_400(people, club):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide", {}, people["admin"])
    response = client_for(people["admin"]).patch(
        f"{URL}four-winds-guide/", {"overrides": {"scoring": {"limit": 0}}}, format="json")
    assert response.status_code == 400
    assert "scoring.limit" in response.json()["overrides"]


def test_unpublished_copies_are_seen_by_members_only(people, club):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide", {}, people["admin"])
    assert client_for(people["member"]).get(f"{URL}four-winds-guide/").status_code == 200
    assert client_for(people["outsider"]).get(f"{URL}four-winds-guide/").status_code == 404
    assert client_for().get(f"{URL}four-winds-guide/").status_code == 404
    club.published = True
    club.save()
    assert client_for().get(f"{URL}four-winds-guide/").status_code == 200


def test_list_filters_by_club_and_built_in(people, club):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide", {}, people["admin"])
    member = client_for(people["member"])
    ours = member.get(URL, {"club": "four-winds"}).json()["results"]
    assert [row["slug"] for row in ours] == ["four-winds-guide"]
    builtin = member.get(URL, {"builtin": "true"}).json()["results"]
    assert {row["slug"] for row in builtin} == set(builtin_house_rules())
    copies = member.get(URL, {"builtin": "false"}).json()["results"]
    assert [row["slug"] for row in copies] == ["four-winds-guide"]
    assert client_for().get(URL, {"club": "four-winds"}).json()["results"] == []


# -- every house rule through POST /api/v1/score --------------------------------------------

ALL_PUNGS = hand("pung b1, pung c8, pung d3, pung dr", "d7 d7", win="d7 discard", bonus="f3")


@pytest.mark.parametrize("slug", sorted(builtin_house_rules()))
def test_every_built_in_house_rule_is_accepted_by_the_score_api(db, slug):
    response = client_for().post("/api/v1/score", {**ALL_PUNGS, "rules": slug}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["score"] > 0


def test_a_club_copy_is_reachable_by_its_slug_in_the_score_api(people, club):
    create_copy(club, "guide", "four-winds-guide", "Four Winds guide",
                {"items": {"dragon_pung_melded": {"points": 40}}}, people["admin"])
    data = hand("chow b1, chow c5, chow d3, pung dr", "d7 d7", win="d7 discard",
                rules="four-winds-guide")
    response = client_for(people["member"]).post("/api/v1/score", data, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["points"] == 60  # 20 + 40 for the club's melded dragon pong
