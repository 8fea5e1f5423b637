"""POST /api/v1/compare and /api/v1/compare/settle (issue #16 part 2): each rule's answer is
what /score or /settle answers for it, differences list exactly the differing items, and
private rules follow the house-rule API's visibility."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.api import EXAMPLE_HAND
from settlements.api import EXAMPLE_BODY

FOUR = ["bmja", "guide", "balsall-common", "west-wind-goulash"]


@pytest.fixture
def api():
    return APIClient(enforce_csrf_checks=True)


@pytest.mark.django_db
def test_each_rule_answers_what_score_answers(api):
    """004 Sheet 19 hand 1: bmja 864, guide 2000 at its limit, balsall-common 7,
    west-wind-goulash 1728 (the issue's figures)."""
    answer = api.post("/api/v1/compare", {**EXAMPLE_HAND, "rules": FOUR}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["rules"] == FOUR
    for slug in FOUR:
        alone = api.post("/api/v1/score", {**EXAMPLE_HAND, "rules": slug}, format="json")
        assert body["answers"][slug] == {"valid": True, "result": alone.json()}
    scores = {slug: body["answers"][slug]["result"]["score"] for slug in FOUR}
    assert scores == {"bmja": 864, "guide": 2000, "balsall-common": 7, "west-wind-goulash": 1728}


@pytest.mark.django_db
def test_differences_list_exactly_the_differing_items(api):
    body = api.post("/api/v1/compare", {**EXAMPLE_HAND, "rules": ["bmja", "guide"]},
                    format="json").json()
    lines = {slug: {x["code"]: (x["points"], x["doubles"], x["count"])
                    for x in body["answers"][slug]["result"]["items"]} for slug in ("bmja", "guide")}
    expected = {code for code in lines["bmja"].keys() | lines["guide"].keys()
                if lines["bmja"].get(code) != lines["guide"].get(code)}
    assert {d["code"] for d in body["differences"]} == expected
    assert expected
    same = api.post("/api/v1/compare", {**EXAMPLE_HAND, "rules": ["bmja", "bmja-west-wind"]},
                    format="json").json()
    assert all(d["values"]["bmja"] != d["values"]["bmja-west-wind"] for d in same["differences"])


@pytest.mark.django_db
def test_a_rule_that_refuses_the_hand_gives_its_400_reason(api):
    """A hand with two chows: bmja allows one (004), the guide any number."""
    hand = {"rules": "guide", "seat_wind": "S", "prevailing_wind": "E", "mahjong": True,
            "melds": [{"kind": "chow", "tile": "b1"}, {"kind": "chow", "tile": "c1"},
                      {"kind": "pung", "tile": "d5"}],
            "concealed": ["dr", "dr", "dr", "we", "we"], "win": {"tile": "we", "from": "discard"}}
    body = api.post("/api/v1/compare", {**hand, "rules": ["bmja", "guide"]}, format="json").json()
    alone = api.post("/api/v1/score", {**hand, "rules": "bmja"}, format="json")
    assert alone.status_code == 400
    assert body["answers"]["bmja"] == {"valid": False, "errors": alone.json()}
    assert body["answers"]["guide"]["valid"] is True


@pytest.mark.django_db
def test_bad_requests_say_what_to_mend(api):
    bad = api.post("/api/v1/compare", {**EXAMPLE_HAND, "rules": ["bmja", "nope"]}, format="json")
    assert bad.status_code == 400
    assert "Unknown house rule 'nope'" in bad.json()["rules"]["1"][0]
    empty = api.post("/api/v1/compare", {**EXAMPLE_HAND, "rules": []}, format="json")
    assert empty.status_code == 400 and "rules" in empty.json()
    broken = api.post("/api/v1/compare", {**EXAMPLE_HAND, "concealed": ["x9"], "rules": ["bmja"]},
                      format="json")
    assert broken.status_code == 400 and "concealed" in broken.json()
    assert api.post("/api/v1/compare", [1, 2], format="json").status_code == 400


@pytest.mark.django_db
def test_settle_under_each_rule_equals_settle(api):
    rules = ["bmja", "guide", "balsall-common"]
    body = api.post("/api/v1/compare/settle", {**EXAMPLE_BODY, "rules": rules}, format="json")
    assert body.status_code == 200, body.json()
    body = body.json()
    nets = {}
    for slug in rules:
        alone = api.post("/api/v1/settle", {**EXAMPLE_BODY, "rules": slug}, format="json")
        if alone.status_code == 200:
            assert body["answers"][slug] == {"valid": True, "result": alone.json()}
            nets[slug] = alone.json()["net"]
        else:
            assert body["answers"][slug] == {"valid": False, "errors": alone.json()}
    for values in body["differences"]["net"].values():
        assert len(set(values.values())) > 1
    for seat in "ESWN":
        if len({n.get(seat) for n in nets.values()}) > 1:
            assert seat in body["differences"]["net"]


def test_an_outsider_cannot_name_another_clubs_private_rule(api, outsider_club, demo):
    hand = {**EXAMPLE_HAND, "rules": ["bmja", "far-secret"]}
    anonymous = api.post("/api/v1/compare", hand, format="json")
    assert anonymous.status_code == 400
    assert "Unknown house rule 'far-secret'" in anonymous.json()["rules"]["1"][0]
    assert "far-secret" not in anonymous.json()["rules"]["1"][0].split(";")[1]
    insider = APIClient()
    insider.force_authenticate(outsider_club["user"])
    mine = insider.post("/api/v1/compare", hand, format="json")
    assert mine.status_code == 200, mine.json()
    assert mine.json()["answers"]["far-secret"]["result"]["rules"] == "far-secret"
    rules = api.get("/api/v1/house-rules/compare/?rules=bmja,far-secret")
    assert rules.status_code == 400
    # The house-rule API hides it from the same outsider: the same visibility.
    assert api.get("/api/v1/house-rules/far-secret/").status_code == 404
