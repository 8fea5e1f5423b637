"""``POST /api/v1/settle`` exactly as shared/contract/README.md describes: the body, the answer,
400 with DRF field paths for bad input (a hand's own problems under ``hands.<seat>``)."""

from __future__ import annotations

import json

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.conftest import load_example

from .test_worked_examples import contract_settle_answer

URL = "/api/v1/settle"
pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient(enforce_csrf_checks=True)


def post(api, body):
    return api.post(URL, data=json.dumps(body), content_type="application/json")


def practice_hand(index: int) -> dict:
    """004 Sheet 19's hand as the contract's hand JSON (sets given arranged)."""
    hand = load_example("bmja-scoring-practice.json")["hands"][index]
    pair = next(m for m in hand["melds"] if m["kind"] == "pair")
    return {"melds": hand["melds"], "concealed": [], "bonus": hand["bonus"],
            "win": {"tile": pair["tile"], "from": hand["win_from"],
                    "last_discard": hand.get("last_discard", False)}}


def contract_body(s_hand) -> dict:
    return {"rules": "bmja", "prevailing_wind": "E",
            "hands": {"E": {"score": 12}, "S": s_hand, "W": {"score": 36}, "N": {"score": 0}},
            "winner": "S", "discarder": "W", "draw": False, "goulash": False, "pot": 0}


def test_contract_example_with_quick_scores(api):
    response = post(api, contract_body({"score": 864}))
    assert response.status_code == 200, response.content
    assert response.json() == contract_settle_answer()


def test_contract_example_with_the_winners_full_hand_scored(api):
    """004 Sheet 19 hand 1 scores 864 (54 points, 4 doubles): the same settlement follows."""
    response = post(api, contract_body(practice_hand(0)))
    assert response.status_code == 200, response.content
    assert response.json() == contract_settle_answer()


def test_full_hands_kongs_pay_chips_in_balsall_common(api):
    """003 p.3: a hidden kong declared in a full hand earns 3 chips from each other player."""
    hand = {"melds": [{"kind": "kong", "tile": "dr", "concealed": True}],
            "concealed": ["b1", "b1", "b1", "b2", "b3", "b4", "c5", "c6", "c7", "d9", "d9"],
            "win": {"tile": "d9", "from": "wall"}}
    body = {"rules": "balsall-common", "hands": {"E": {"score": 0}, "S": hand,
            "W": {"score": 0}, "N": {"score": 0}}, "winner": "S"}
    response = post(api, body)
    assert response.status_code == 200, response.content
    chips = [p for p in response.json()["payments"] if p["why"].startswith("hidden kong")]
    assert [(p["from"], p["amount"]) for p in chips] == [("E", 3), ("W", 3), ("N", 3)]


def test_quick_entry_kongs_and_pot(api):
    body = {"rules": "balsall-common", "goulash": True, "pot": 0,
            "hands": {"E": {"score": 0, "kongs": ["claimed"]}, "S": {"score": 6},
                      "W": {"score": 0}, "N": {"score": 0}},
            "winner": "S", "discarder": "N"}
    response = post(api, body)
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["pot"] == 0
    assert answer["net"] == {"E": 1, "S": 13, "W": -7, "N": -7}
    assert sum(answer["net"].values()) == 0


def test_guide_dealer_and_win_from(api):
    body = {"rules": "guide", "hands": {s: {"score": 100 if s == "S" else 0} for s in "ESWN"},
            "winner": "S", "win_from": "wall", "dealer": "E"}
    response = post(api, body)
    assert response.status_code == 200, response.content
    assert response.json()["net"] == {"E": -200, "S": 400, "W": -100, "N": -100}


def test_two_players_use_001_game_for_two(api):
    """001 'The game for 2 players': no East doubling, a lower-scoring winner pays the
    difference."""
    body = {"rules": "bmja", "hands": {"E": {"score": 500}, "W": {"score": 200}},
            "winner": "W", "discarder": "E"}
    response = post(api, body)
    assert response.status_code == 200, response.content
    assert response.json()["net"] == {"E": 100, "W": -100}


def test_penalties_in_the_body(api):
    body = {"rules": "bmja", "hands": {s: {"score": 0} for s in "ESWN"}, "draw": True,
            "penalties": [{"kind": "false_mahjong", "offender": "N"}]}
    response = post(api, body)
    assert response.status_code == 200, response.content
    assert response.json()["net"] == {"E": 500, "S": 500, "W": 500, "N": -1500}


@pytest.mark.parametrize("change, field", [
    ({"winner": "X"}, "winner"),
    ({"discarder": "S"}, "discarder"),
    ({"draw": True}, "draw"),
    ({"winner": None}, "winner"),
    ({"win_from": "wall"}, "discarder"),
    ({"pot": 50}, "pot"),
    ({"rules": "no-such-rules"}, "rules"),
    ({"penalties": [{"kind": "fine", "offender": "E"}]}, "penalties"),
    ({"hands": {"E": {"score": 1}, "S": {"score": 2}, "W": {"score": -3}, "N": {"score": 0}}},
     "hands"),
])
def test_impossible_combinations_are_400_with_the_field_named(api, change, field):
    body = contract_body({"score": 864}) | change
    response = post(api, body)
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_invalid_full_hand_errors_nested_under_the_seat(api):
    hand = practice_hand(0) | {"concealed": ["b6", "b6"]}
    response = post(api, contract_body(hand))
    assert response.status_code == 400
    messages = response.json()["hands"]["S"]["concealed"]
    assert any("A fifth b6" in m for m in messages)


def test_a_shape_the_house_rule_does_not_have_is_400_on_the_seat(api):
    """Issue #11: mixed seven pairs are no Mah Jong under bmja (004 Sheet 22 has only All Pair
    Honours): the winner's hand is refused on its seat's path, nothing is settled."""
    tiles = "we we d2 d2 b9 b9 dg dg dr dr ws ws ww ww".split()
    hand = {"melds": [], "concealed": tiles, "bonus": [],
            "win": {"tile": "ww", "from": "wall"}}
    response = post(api, contract_body(hand))
    assert response.status_code == 400, response.content
    [message] = response.json()["hands"]["S"]["concealed"]
    assert message.startswith("Not a valid Mah Jong under this house rule")
    assert "seven pairs" in message and "All Pair Honours" in message


def test_only_the_winners_full_hand_is_mahjong(api):
    body = contract_body({"score": 864})
    body["hands"]["W"] = practice_hand(0) | {"mahjong": True}
    response = post(api, body)
    assert response.status_code == 400
    assert "Only the winner" in response.json()["hands"]["W"]["mahjong"][0]


@pytest.mark.parametrize("body", [[1, 2], "text", {"hands": "E"}, {"hands": {"E": 5}},
                                  {"hands": {"Q": {"score": 1}}}])
def test_malformed_bodies_are_400_never_500(api, body):
    response = post(api, body)
    assert response.status_code == 400, response.content


def test_settle_is_in_the_openapi_schema():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/v1/settle"]["post"]
    assert operation["operationId"] == "settle_hand"
    assert "200" in operation["responses"] and "400" in operation["responses"]


def test_five_players_four_hands_listed_001_game_for_5(api):
    body = {"rules": "bmja", "players": 5, "hands": {s: {"score": 0} for s in "ESWN"},
            "winner": "N", "win_from": "wall"}
    body["hands"]["N"] = {"score": 100}
    response = post(api, body)
    assert response.status_code == 200, response.content
    assert response.json()["net"] == {"E": -200, "S": -100, "W": -100, "N": 400}


def test_kitty_bouquet_and_clean_hand_via_the_api_000(api):
    """000: the kitty after a draw, a bouquet from all but the Mah Jong player, a count for a
    clean hand."""
    body = {"rules": "west-wind-goulash", "goulash": True, "after_draw": True,
            "hands": {"E": {"score": 0}, "S": {"score": 100},
                      "W": {"score": 64, "bonus": ["f1", "f2", "f3", "f4"]}, "N": {"score": 0}},
            "winner": "S", "discarder": "N", "clean_hands": ["W"]}
    response = post(api, body)
    assert response.status_code == 200, response.content
    answer = response.json()
    whys = {p["why"] for p in answer["payments"]}
    assert {"kitty: 500 each", "takes the pot", "count for a clean hand; East pays double",
            "bouquet; the Mah Jong player does not pay"} <= whys
    assert answer["pot"] == 0
    assert sum(answer["net"].values()) == 0


def test_unknown_win_from_is_400(api):
    response = post(api, contract_body({"score": 864}) | {"win_from": "sky"})
    assert response.status_code == 400
    assert "not a way to win" in response.json()["win_from"][0]
