"""Issue #13, server errors: each input that answered 500 now gets a 400 (or a capped page)
with a message saying what to send instead."""

from __future__ import annotations

import json

import pytest

from clubs.models import AuditEntry

DEEP = "[" * 1000 + "]" * 1000
JSON_ENDPOINTS = ["/api/v1/score", "/api/v1/settle", "/api/v1/hands/", "/api/v1/hands/preview/",
                  "/api/v1/sessions/", "/api/v1/house-rules/", "/api/v1/members/"]


@pytest.mark.parametrize("url", JSON_ENDPOINTS)
@pytest.mark.parametrize("depth", [1000, 100_000])
def test_json_nested_a_thousand_deep_is_a_400(api_as, table, url, depth, settings):
    settings.DEBUG = False
    body = "[" * depth + "]" * depth
    response = api_as("admin").post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert "nests deeper than" in response.json()["detail"]


def test_json_nested_a_thousand_deep_is_a_400_for_a_visitor_too(api_as, db):
    response = api_as("anonymous").post("/api/v1/score", DEEP, content_type="application/json")
    assert response.status_code == 400


@pytest.mark.parametrize("role", ["anonymous", "admin"])
@pytest.mark.parametrize("url", ["/api/v1/house-rules/", "/api/v1/hands/", "/api/v1/clubs/"])
def test_a_huge_limit_and_offset_are_capped(api_as, table, role, url):
    response = api_as(role).get(url, {"limit": "9" * 20})
    assert response.status_code in (200, 401)
    if response.status_code == 200:
        assert len(response.json()["results"]) <= 500
    far = api_as(role).get(url, {"limit": "5", "offset": "9" * 20})
    assert far.status_code in (200, 401)
    if far.status_code == 200:
        assert far.json()["results"] == []


def test_the_audit_trail_takes_no_post(api_as, club):
    before = AuditEntry.objects.count()
    response = api_as("admin").post("/api/v1/audit-entries/", {"club": club.slug},
                                    format="json")
    assert response.status_code == 405
    assert AuditEntry.objects.count() == before


def test_the_schema_documents_no_audit_post(api_as, db):
    schema = api_as("anonymous").get("/api/v1/schema/", {"format": "json"}).json()
    assert "post" not in schema["paths"]["/api/v1/audit-entries/"]


FULL = {"melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                  {"kind": "kong", "tile": "b9"}], "concealed": ["b6", "b6", "b6", "we", "we"]}


@pytest.mark.parametrize("win", [[1], "x", 5, True])
@pytest.mark.parametrize("url", ["/api/v1/hands/", "/api/v1/hands/preview/"])
def test_win_not_an_object_is_a_400_on_its_path(api_as, table, win, url):
    body = {"table": table.pk, "winner": "E", "discarder": "S",
            "seats": {"E": {**FULL, "win": win}, "S": {"score": 0}, "W": {"score": 0},
                      "N": {"score": 0}}}
    response = api_as("scorer").post(url, body, format="json")
    assert response.status_code == 400
    assert "is an object" in response.json()["seats"]["E"]["win"][0]


def test_an_oversize_api_body_gets_json(api_as, db):
    body = json.dumps({"notes": "x" * 3_000_000})
    response = api_as("admin").post("/api/v1/sessions/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert "at most" in response.json()["detail"]
