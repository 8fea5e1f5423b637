"""Answers that a client generated from the OpenAPI schema must read (#21): the standings
(season and all time) carry the league rules' ``description`` the schema marks required, and
a comparison's exports answer in the content types the schema names. Real ids of the demo
club, each answer checked by schemathesis against the schema."""

from __future__ import annotations

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)

from accounts.tokens import issue
from clubs.demo import load_demo_club
from clubs.models import ClubSession
from compare import runs
from compare.scope import resolve_scope
from scoring.engine import get_house_rule

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def demo(db):
    club = load_demo_club()
    session = ClubSession.objects.get(club=club)
    scorer = get_user_model().objects.get(username="demo-scorer")
    comparison = runs.start(resolve_scope({"session": session.pk}, scorer),
                            [get_house_rule("bmja"), get_house_rule("guide")], scorer,
                            background=False)
    return {"club": club, "season": session.season, "comparison": comparison,
            "headers": {"Authorization": f"Token {issue(scorer, 'schema answers')[1]}"}}


@pytest.fixture
def connection_kept():
    """As Django's test client does: the test's transaction holds the connection, which the end
    of each request through the WSGI application would otherwise close (PostgreSQL: "the
    connection is closed", which the service rightly answers as a 503)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def answer(schema, path, params, query, headers):
    case = schema[path]["GET"].Case(path_parameters=params, query=query)
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)
    return response


def test_standings_and_comparison_exports_match_the_schema(demo, connection_kept):
    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    headers = demo["headers"]
    season = {"season_id": demo["season"].pk}
    body = answer(schema, "/api/v1/seasons/{season_id}/standings/", season, {}, headers).json()
    assert body["rules"]["description"]
    body = answer(schema, "/api/v1/clubs/{slug}/standings/", {"slug": demo["club"].slug}, {},
                  headers).json()
    assert body["rules"]["description"]
    for fmt, content_type in (("csv", "text/csv"), ("xlsx", "spreadsheetml"),
                              ("json", "application/json")):
        response = answer(schema, "/api/v1/comparisons/{id}/export/",
                          {"id": str(demo["comparison"].pk)}, {"as": fmt}, headers)
        assert content_type in str(response.headers.get("content-type"))


def test_a_clubs_guests_answer_as_the_schema_says(demo, connection_kept):
    """A list, unpaginated: the schema said a page of guests (``PaginatedGuestList``)."""
    from config.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    body = answer(schema, "/api/v1/members/guests/", {}, {"club": demo["club"].slug},
                  demo["headers"]).json()
    assert isinstance(body, list)


def test_a_club_delete_refused_answers_as_the_schema_says(demo, connection_kept):
    """The service's delete of a club whose nights and seated members keep it: a 409 the
    schema documents (status and body), not an undocumented answer."""
    from schemathesis.checks import status_code_conformance

    from config.wsgi import application

    root = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    headers = {"Authorization": f"Token {issue(root, 'schema answers')[1]}"}
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    case = schema["/api/v1/clubs/{slug}/"]["DELETE"].Case(
        path_parameters={"slug": demo["club"].slug})
    response = case.call(headers=headers)
    assert response.status_code == 409, response.text
    case.validate_response(response, checks=[*CHECKS, status_code_conformance],
                           headers=headers)
    assert "cannot be deleted whole" in response.json()["non_field_errors"][0]
