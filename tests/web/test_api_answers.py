"""The club API's answers are rendered by the serializers that document them (one definition of
each answer): a recorded hand answers what reading it back answers, and no answer carries a
field its schema does not list, nor leaves out one it marks required."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from clubs.models import HandEntry
from tests.web.test_api_hands import balsall_table, contract_body  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def quick_with_extras(table_id: int) -> dict:
    """Quick entries carrying kongs and flowers (003 pays for both)."""
    return {
        "table": table_id, "winner": "S", "win_from": "wall",
        "seats": {"E": {"score": 0, "kongs": ["concealed"], "bonus": ["f1"]},
                  "S": {"score": 3, "bonus": ["s2"]}, "W": {"score": 0}, "N": {"score": 0}},
    }


def test_a_quick_entry_with_kongs_or_flowers_is_quick_in_every_answer(scorer_api,
                                                                      balsall_table):  # noqa: F811
    """Issue #21: POST answered "full" for these while the stored entry and GET said "quick"."""
    body = quick_with_extras(balsall_table.pk)
    preview = scorer_api.post("/api/v1/hands/preview/", body, format="json")
    assert preview.status_code == 200, preview.json()
    answer = scorer_api.post("/api/v1/hands/", body, format="json")
    assert answer.status_code == 201, answer.json()
    recorded = answer.json()
    assert {s["wind"]: s["kind"] for s in recorded["seats"]} == dict.fromkeys("ESWN", "quick")
    assert {s["wind"]: s["kind"] for s in preview.json()["seats"]} == dict.fromkeys("ESWN",
                                                                                     "quick")
    assert set(HandEntry.objects.filter(hand_id=recorded["id"]).values_list("kind", flat=True)) \
        == {"quick"}
    assert scorer_api.get(f"/api/v1/hands/{recorded['id']}/").json() == recorded


def test_recording_answers_what_reading_the_hand_back_answers(scorer_api, table):
    answer = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    assert scorer_api.get(f"/api/v1/hands/{answer['id']}/").json() == answer
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    # The table's state lists each hand without the id its client saved it under.
    assert state["hands"] == [{k: v for k, v in answer.items() if k != "client_id"}]
    preview = scorer_api.post("/api/v1/hands/preview/", contract_body(table.pk),
                              format="json").json()
    assert preview["id"] is None and preview["number"] == 2


# -- every answer against its schema ----------------------------------------------------------


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    with django_db_blocker.unblock():
        return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if "allOf" in node and len(node["allOf"]) == 1:
        return _resolve(schema, node["allOf"][0])
    return node


def undocumented(schema: dict, node: dict, value, path: str = "") -> list[str]:
    """Where ``value`` has a field ``node`` does not list, or lacks one it requires."""
    node = _resolve(schema, node)
    found: list[str] = []
    if isinstance(value, dict) and "properties" in node:
        listed = node["properties"]
        found += [f"{path}.{k}: not in the schema" for k in value if k not in listed]
        found += [f"{path}.{k}: required, missing" for k in node.get("required", ())
                  if k not in value]
        for key, item in value.items():
            if key in listed:
                found += undocumented(schema, listed[key], item, f"{path}.{key}")
    elif isinstance(value, dict) and isinstance(node.get("additionalProperties"), dict):
        for key, item in value.items():
            found += undocumented(schema, node["additionalProperties"], item, f"{path}.{key}")
    elif isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            found += undocumented(schema, node["items"], item, f"{path}.{i}")
    if value is None and not node.get("nullable") and node:
        found.append(f"{path}: null where the schema says it cannot be")
    return found


def answer_schema(schema: dict, path: str, method: str, status: str) -> dict:
    content = schema["paths"][path][method]["responses"][status]["content"]
    return content["application/json"]["schema"]


def test_the_hand_and_table_answers_are_the_documented_ones(schema, scorer_api, table,
                                                            club_session):
    body = contract_body(table.pk)
    recorded = scorer_api.post("/api/v1/hands/", body, format="json")
    hand_id = recorded.json()["id"]
    scorer_api.post(f"/api/v1/hands/{hand_id}/void/", {"reason": "misdeal", "voided": False},
                    format="json")
    answers = [
        ("/api/v1/hands/", "post", "201", recorded),
        ("/api/v1/hands/preview/", "post", "200",
         scorer_api.post("/api/v1/hands/preview/", body, format="json")),
        ("/api/v1/hands/{id}/", "get", "200", scorer_api.get(f"/api/v1/hands/{hand_id}/")),
        ("/api/v1/hands/{id}/", "patch", "200",
         scorer_api.patch(f"/api/v1/hands/{hand_id}/", {"note": "same"}, format="json")),
        ("/api/v1/tables/{id}/state/", "get", "200",
         scorer_api.get(f"/api/v1/tables/{table.pk}/state/")),
        ("/api/v1/sessions/{id}/totals/", "get", "200",
         scorer_api.get(f"/api/v1/sessions/{club_session.pk}/totals/")),
    ]
    for path, method, status, answer in answers:
        assert answer.status_code == int(status), (path, answer.content[:300])
        problems = undocumented(schema, answer_schema(schema, path, method, status),
                                answer.json())
        assert not problems, (path, method, problems)


def test_the_league_sheets_and_compare_answers_are_the_documented_ones(schema, db):
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from clubs.demo import load_demo_club
    from clubs.models import ClubSession, Table
    from scoring.api import EXAMPLE_HAND
    from settlements.api import EXAMPLE_BODY

    club = load_demo_club()
    session = ClubSession.objects.get(club=club)
    table = Table.objects.filter(session=session).first()
    season = session.season
    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username="demo-admin"))
    snapshot = api.post(f"/api/v1/seasons/{season.pk}/snapshots/", {"note": "x"}, format="json")
    answers = [
        ("/api/v1/seasons/{season_id}/standings/", "get", "200",
         api.get(f"/api/v1/seasons/{season.pk}/standings/", {"as_of": "2030-01-01"})),
        ("/api/v1/clubs/{slug}/standings/", "get", "200",
         api.get(f"/api/v1/clubs/{club.slug}/standings/")),
        ("/api/v1/seasons/{season_id}/snapshots/", "post", "201", snapshot),
        ("/api/v1/seasons/{season_id}/league-rules/", "get", "200",
         api.get(f"/api/v1/seasons/{season.pk}/league-rules/")),
        ("/api/v1/sessions/{id}/sheet/", "get", "200",
         api.get(f"/api/v1/sessions/{session.pk}/sheet/")),
        ("/api/v1/tables/{id}/sheet/", "get", "200", api.get(f"/api/v1/tables/{table.pk}/sheet/")),
        ("/api/v1/house-rules/compare/", "get", "200",
         api.get("/api/v1/house-rules/compare/", {"rules": "bmja,guide"})),
        ("/api/v1/compare", "post", "200",
         api.post("/api/v1/compare", {**EXAMPLE_HAND, "rules": ["bmja", "guide"]},
                  format="json")),
        ("/api/v1/compare/settle", "post", "200",
         api.post("/api/v1/compare/settle", {**EXAMPLE_BODY, "rules": ["bmja", "guide"]},
                  format="json")),
    ]
    for path, method, status, answer in answers:
        assert answer.status_code == int(status), (path, answer.content[:300])
        problems = undocumented(schema, answer_schema(schema, path, method, status),
                                answer.json())
        assert not problems, (path, method, problems)
