""""discarder": "unknown" on ``POST /api/v1/settle``, as the hands API takes it: a hand won on
another player's tile whose discarder nobody remembers, settled by the reading documented in
``settlements/engine/__init__.py`` (nobody is charged as the discarder; every loser pays the
winner as the house rule makes everyone pay). Any other discarder is a 400 that says what to
send."""

from __future__ import annotations

import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

URL = "/api/v1/settle"
pytestmark = pytest.mark.django_db
SCORES = {"E": {"score": 8}, "S": {"score": 64}, "W": {"score": 0}, "N": {"score": 16}}


@pytest.fixture
def api():
    return APIClient(enforce_csrf_checks=True)


def settle(api, **body):
    body = {"rules": "bmja", "hands": SCORES, "winner": "S", **body}
    return api.post(URL, data=json.dumps(body), content_type="application/json")


def test_under_bmja_unknown_pays_as_any_named_discarder(api):
    answer = settle(api, discarder="unknown")
    assert answer.status_code == 200, answer.content
    # Everyone pays South 64 (East double), the losers settle their differences: what the
    # hands API records for the same hand (tests/web/test_discarder_unknown.py).
    assert answer.json()["net"] == {"E": -128, "S": 256, "W": -96, "N": -32}
    named = settle(api, discarder="W")
    assert named.json()["payments"] == answer.json()["payments"]


@pytest.mark.parametrize("rules", ["guide", "balsall-common"])
def test_where_the_discarder_pays_more_every_loser_pays_as_self_drawn(api, rules):
    hands = {s: {"score": 100 if s == "S" else 0} for s in "ESWN"}
    unknown = settle(api, rules=rules, hands=hands, discarder="unknown")
    assert unknown.status_code == 200, unknown.content
    drawn = settle(api, rules=rules, hands=hands, win_from="wall")
    named = settle(api, rules=rules, hands=hands, discarder="W")
    assert unknown.json()["net"] == drawn.json()["net"]
    assert unknown.json()["net"] != named.json()["net"]
    assert any("discarder unknown" in p["why"] for p in unknown.json()["payments"])


def test_a_robbed_kong_with_the_discarder_unknown(api):
    answer = settle(api, discarder="unknown", win_from="robbed_kong")
    assert answer.status_code == 200, answer.content
    assert answer.json()["net"] == {"E": -128, "S": 256, "W": -96, "N": -32}


@pytest.mark.parametrize("body", [
    {"discarder": "unknown", "win_from": "wall"},
    {"discarder": "unknown", "win_from": "kong_box"},
    {"discarder": "unknown", "winner": None, "draw": True},
])
def test_unknown_only_for_a_tile_another_player_gave(api, body):
    answer = settle(api, **body)
    assert answer.status_code == 400, answer.content
    assert "discarder" in answer.json()


@pytest.mark.parametrize("bad", ["nobody", "Unknown", "X", "", 3, ["W"], {"seat": "W"}])
def test_other_discarders_are_a_clear_400(api, bad):
    answer = settle(api, discarder=bad)
    assert answer.status_code == 400, answer.content
    [message] = answer.json()["discarder"]
    assert "is not a discarder" in message and "'unknown'" in message and "E, S, W, N" in message


def test_the_schema_lists_unknown_among_the_discarders():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    body = schema["paths"]["/api/v1/settle"]["post"]["requestBody"]["content"]
    ref = body["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    discarder = schema["components"]["schemas"][ref]["properties"]["discarder"]
    enum_ref = next(part["$ref"] for part in discarder.get("oneOf", discarder.get("allOf", []))
                    if "$ref" in part).rsplit("/", 1)[1]
    assert "unknown" in schema["components"]["schemas"][enum_ref]["enum"]
    assert "unknown" in discarder["description"]
