"""The club API is described by the OpenAPI schema (drf-spectacular) without warnings."""

from __future__ import annotations

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

CLUB_PATHS = [
    "/api/v1/clubs/", "/api/v1/members/", "/api/v1/seasons/", "/api/v1/sessions/",
    "/api/v1/sessions/{id}/totals/", "/api/v1/tables/", "/api/v1/tables/{id}/state/",
    "/api/v1/tables/{id}/swap-seats/", "/api/v1/hands/", "/api/v1/hands/preview/",
    "/api/v1/hands/{id}/void/", "/api/v1/audit-entries/",
]


@pytest.mark.django_db
def test_schema_lists_club_endpoints_without_warnings(capsys):
    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in CLUB_PATHS:
        assert path in schema["paths"], path
    record = schema["paths"]["/api/v1/hands/"]["post"]
    assert set(record["responses"]) >= {"201", "400", "409"}
    printed = capsys.readouterr().err
    ours = [line for line in printed.splitlines()
            if "clubs/" in line or "Club" in line or "Hand" in line or "Table" in line]
    assert not ours, ours


@pytest.mark.django_db
def test_schema_and_interactive_docs_are_served(client):
    schema = client.get("/api/v1/schema/")
    assert schema.status_code == 200 and b"/api/v1/hands/" in schema.content
    assert client.get("/api/v1/docs/").status_code == 200


@pytest.mark.django_db
def test_schema_documents_a_club_delete_refused_for_its_history():
    """DELETE /api/v1/clubs/{slug}/ answers 409 with a sentence under non_field_errors when the
    club's history keeps it: the served schema says so, with the answer's shape."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    responses = schema["paths"]["/api/v1/clubs/{slug}/"]["delete"]["responses"]
    assert set(responses) >= {"204", "403", "409"}, responses
    conflict = responses["409"]
    assert "history" in conflict["description"]
    ref = conflict["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    body = schema["components"]["schemas"][ref]
    assert body["required"] == ["non_field_errors"]
    assert body["properties"]["non_field_errors"]["items"]["type"] == "string"
