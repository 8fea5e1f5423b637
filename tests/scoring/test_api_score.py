"""``POST /api/v1/score`` as shared/contract/README.md fixes it: the request is the contract's
hand, the answer its fields, invalid input 400 with DRF field paths, never a 500."""

from __future__ import annotations

import json

import pytest
from django.urls import include, path
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.conftest import load_example

URL = "/api/v1/score"

# The contract's example hand ("A hand") without its chow: as printed it holds six sets
# (17 tiles), which the engine rightly refuses.
CONTRACT_HAND = {
    "rules": "bmja",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "mahjong": True,
    "melds": [
        {"kind": "pung", "tile": "b1", "concealed": False},
        {"kind": "kong", "tile": "b9", "concealed": False},
        {"kind": "kong", "tile": "dr", "concealed": True},
    ],
    "concealed": ["b6", "b6", "b6", "we", "we"],
    "bonus": ["f2", "s2"],
    "win": {"tile": "we", "from": "discard", "last_wall_tile": False, "last_discard": False,
            "robbed_kong": False, "kong_replacement": False, "original_call": False},
    "goulash": False,
    "fishing": False,
}


@pytest.fixture
def api():
    # CSRF checks on, as a browser would have them: the calculator must not need a token.
    return APIClient(enforce_csrf_checks=True)


def post(api, body, **extra):
    return api.post(URL, data=json.dumps(body), content_type="application/json", **extra)


def test_contract_example_hand_is_scored_with_the_contracts_fields(api):
    """004 Sheet 14: 20 + 4 (b1) + 16 (b9) + 32 (dr concealed) + 4 (b6 concealed) + 2 (pair
    of the round's wind) + 8 (two flowers) = 86; Sheet 17: dragons, own flower, own season,
    clean, no chows = 5 doubles; 86 x 32 = 2752."""
    response = post(api, CONTRACT_HAND)
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["points"], body["doubles"], body["score"], body["limit"]) == (86, 5, 2752, None)
    assert {"name", "points", "doubles"} <= set(body["items"][0])
    names = {item["name"] for item in body["items"]}
    assert "Going Mah Jong" in names and "Pung/kong of dragons" in names
    assert sum(item["points"] for item in body["items"]) == 86
    assert {"kind": "kong", "tile": "dr", "concealed": True} in body["arrangement"]
    assert {"kind": "pung", "tile": "b6", "concealed": True} in body["arrangement"]
    assert body["rules"] == "bmja" and body["mahjong"] is True


def test_sheet_19_hand_1_through_the_api(api):
    example = load_example("bmja-scoring-practice.json")["hands"][0]
    hand = {
        "rules": "bmja", "seat_wind": "S", "prevailing_wind": "E", "mahjong": True,
        "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                  {"kind": "kong", "tile": "b9"}],
        "concealed": ["b6", "b6", "b6", "we", "we"], "bonus": example["bonus"],
        "win": {"tile": "we", "from": example["win_from"]},
    }
    body = post(api, hand).json()
    expected = example["expected"]
    assert (body["points"], body["doubles"], body["score"]) == (
        expected["points"], expected["doubles"], expected["score"])


def test_rules_default_to_bmja(api):
    body = {k: v for k, v in CONTRACT_HAND.items() if k != "rules"}
    response = post(api, body)
    assert response.status_code == 200 and response.json()["rules"] == "bmja"


def test_a_losing_hand_is_scored_too(api):
    hand = {"seat_wind": "W", "prevailing_wind": "E", "mahjong": False,
            "melds": [{"kind": "pung", "tile": "dg"}],
            "concealed": ["c1", "c1", "c1", "d5", "d6", "b2", "b2", "ww", "ww", "b9"]}
    body = post(api, hand).json()
    # pung dg 4, concealed pung c1 8, pair of own wind 2 = 14; dragons double: 28.
    assert (body["points"], body["doubles"], body["score"]) == (14, 1, 28)
    assert body["mahjong"] is False and sorted(body["loose"]) == ["b9", "d5", "d6"]


@pytest.mark.django_db
def test_unknown_house_rule_is_a_400_naming_the_known_ones(api):
    response = post(api, {**CONTRACT_HAND, "rules": "x"})
    assert response.status_code == 400
    message = response.json()["rules"][0]
    assert message.startswith("Unknown house rule 'x'; choose one of: bmja")


def test_a_bad_tile_is_a_400_with_the_field_path(api):
    hand = {**CONTRACT_HAND, "melds": [{"kind": "pung", "tile": "x9"}, *CONTRACT_HAND["melds"][1:]]}
    response = post(api, hand)
    assert response.status_code == 400
    errors = response.json()
    assert "is not a tile" in errors["melds"][0]["tile"][0]


def test_a_fifth_copy_of_a_tile_is_a_400(api):
    hand = {**CONTRACT_HAND, "concealed": ["b9", "b9", "b6", "we", "we"]}
    response = post(api, hand)
    assert response.status_code == 400
    assert response.json()  # field paths to messages


def test_missing_winds_are_reported_by_field(api):
    response = post(api, {"mahjong": False})
    assert response.status_code == 400
    errors = response.json()
    assert "seat_wind" in errors and "prevailing_wind" in errors


@pytest.mark.parametrize("body", ["[1, 2]", '"hand"', "null", "{", "", "{\"seat_wind\": 5}"])
def test_malformed_bodies_are_400_never_500(api, body):
    response = api.post(URL, data=body, content_type="application/json")
    assert response.status_code == 400, response.content


def test_only_post_is_allowed(api):
    assert api.get(URL).status_code == 405


def test_the_endpoint_is_documented_in_the_api_schema():
    generator = SchemaGenerator(patterns=[path("api/v1/", include("scoring.urls"))])
    schema = generator.get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/score"]["post"]
    assert "requestBody" in operation and "200" in operation["responses"]
    assert "400" in operation["responses"]
    components = schema["components"]["schemas"]
    assert {"points", "doubles", "score", "limit", "items", "arrangement"} <= set(
        components["ScoreResult"]["properties"])
    assert "from" in components["Win"]["properties"]


@pytest.mark.django_db
def test_a_clubs_stored_house_rule_is_resolved_by_its_slug(api):
    """A club's copy (clubs' HouseRuleRecord, newest HouseRuleVersion) scores by its own
    items: here the East double of 004 Sheet 17 switched on."""
    from clubs.models import HouseRuleRecord, HouseRuleVersion
    from scoring.engine import get_house_rule

    rule = get_house_rule("bmja").derive("our-club", {"items": {"east": {"doubles": 1}}})
    record = HouseRuleRecord.objects.create(slug="our-club", name="Our club")
    HouseRuleVersion.objects.create(record=record, number=1, data=rule.to_dict())
    as_east = {**CONTRACT_HAND, "seat_wind": "E"}
    plain = post(api, as_east).json()
    club = post(api, {**as_east, "rules": "our-club"}).json()
    assert club["rules"] == "our-club"
    assert club["doubles"] == plain["doubles"] + 1
    assert "If you are East" in " ".join(item["name"] for item in club["items"])


@pytest.mark.django_db
def test_a_stored_house_rule_that_cannot_be_used_is_a_400_on_rules(api):
    from clubs.models import HouseRuleRecord, HouseRuleVersion
    from scoring.engine import get_house_rule

    data = get_house_rule("bmja").derive("broken", {}).to_dict()
    data["items"][1]["args"] = {"kind": 5}  # the exposed minor pung, 2 points
    record = HouseRuleRecord.objects.create(slug="broken", name="Broken")
    HouseRuleVersion.objects.create(record=record, number=1, data=data)
    response = post(api, {**CONTRACT_HAND, "rules": "broken"})
    assert response.status_code == 400
    assert "cannot be used" in response.json()["rules"][0]


@pytest.mark.django_db
def test_a_nul_in_the_house_rule_slug_is_a_400_naming_rules(api):
    """PostgreSQL refuses a NUL character in a query: a 400 that says so, not a 500."""
    response = post(api, {"rules": "bm\x00ja", "seat_wind": "E", "prevailing_wind": "E",
                          "mahjong": False, "concealed": ["b1"] * 3})
    assert response.status_code == 400 and "NUL character" in response.json()["detail"]
