"""The sheets in the API: every format by ?format= or the Accept header, the same permissions as
the session, clear 400s, and the OpenAPI schema documenting it."""

from __future__ import annotations

import io

import openpyxl
import pytest
from pypdf import PdfReader
from rest_framework.test import APIClient

from clubs.models import Club
from tests.sheets.nights import generated_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, house_rule_versions, users):
    return generated_session(club, house_rule_versions, "bmja", users["scorer"], hands=6)


def api_as(users, role):
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    return client


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_json_carries_the_stored_figures_and_the_standings(night, users):
    answer = api_as(users, "member").get(f"/api/v1/sessions/{night.pk}/sheet/")
    assert answer.status_code == 200
    data = answer.json()
    assert data["layout"] == "per_player" and data["session"] == night.pk
    assert data["heading"].startswith("Jade Dragon Club · Sat 21 Nov 2026 · BMJA")
    totals = {p["name"]: p["total"] for p in night.player_totals()}
    assert {s["name"]: s["total"] for s in data["standings"]} == totals
    table = data["tables"][0]
    assert {p["name"]: p["final_total"] for p in table["players"]} == totals
    for hand in table["hands"]:
        moved = {}
        for t in hand["transfers"]:
            moved[t["payee"]] = moved.get(t["payee"], 0) + t["amount"]
            moved[t["payer"]] = moved.get(t["payer"], 0) - t["amount"]
        assert {k: v for k, v in moved.items() if v} == {k: v for k, v in hand["net"].items()
                                                         if v}


@pytest.mark.parametrize(("fmt", "content_type"), [
    ("pdf", "application/pdf"), ("csv", "text/csv"),
    ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")])
def test_each_format_by_query_or_accept_header(night, users, fmt, content_type):
    client = api_as(users, "member")
    table = night.tables.get()
    by_query = client.get(f"/api/v1/tables/{table.pk}/sheet/", {"format": fmt})
    by_header = client.get(f"/api/v1/sessions/{night.pk}/sheet/", HTTP_ACCEPT=content_type)
    for answer in (by_query, by_header):
        assert answer.status_code == 200
        assert answer["Content-Type"].startswith(content_type)
        assert answer["Content-Disposition"].endswith(f'.{fmt}"')
    data = body(by_query)
    if fmt == "pdf":
        assert "Final totals:" in PdfReader(io.BytesIO(data)).pages[0].extract_text()
    elif fmt == "xlsx":
        assert openpyxl.load_workbook(io.BytesIO(data)).sheetnames == ["Hands", "Final totals"]
    else:
        assert data.decode().startswith("Table,Hand,Prevailing wind,Seat wind,Player")


def test_blank_and_layout(night, users):
    client = api_as(users, "scorer")
    answer = client.get(f"/api/v1/sessions/{night.pk}/sheet/",
                        {"format": "pdf", "layout": "tally", "blank": "true"})
    text = PdfReader(io.BytesIO(body(answer))).pages[0].extract_text()
    assert "Winning" in text and "Player: Alice 1" in text
    assert answer["Content-Disposition"].endswith('-blank.pdf"')


def test_bad_parameters_are_400_with_field_paths(night, users):
    client = api_as(users, "member")
    url = f"/api/v1/sessions/{night.pk}/sheet/"
    answer = client.get(url, {"format": "docx"})
    assert answer.status_code == 400
    assert "is not a format of the score sheets" in answer.json()["format"][0]
    answer = client.get(url, {"format": "pdf", "layout": "ledger"})
    assert answer.status_code == 400 and answer["Content-Type"] == "application/json"
    assert "use per_player" in answer.json()["layout"][0]
    assert client.get(url, {"blank": "perhaps"}).status_code == 400


@pytest.mark.parametrize(("role", "status"), [
    ("admin", 200), ("member", 200), ("outsider", 404), ("anonymous", 404)])
def test_the_same_permissions_as_the_session(night, users, role, status):
    client = api_as(users, role)
    table = night.tables.get()
    assert client.get(f"/api/v1/sessions/{night.pk}/").status_code == status
    for url in (f"/api/v1/sessions/{night.pk}/sheet/", f"/api/v1/tables/{table.pk}/sheet/"):
        assert client.get(url).status_code == status
        assert client.get(url, {"format": "pdf"}).status_code == status


def test_a_published_club_is_open_to_anyone(night, users):
    Club.objects.filter(pk=night.club_id).update(published=True)
    answer = APIClient().get(f"/api/v1/sessions/{night.pk}/sheet/", {"format": "csv"})
    assert answer.status_code == 200


def test_the_schema_documents_the_sheet_actions(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/v1/sessions/{id}/sheet/", "/api/v1/tables/{id}/sheet/"):
        op = schema["paths"][path]["get"]
        assert {p["name"] for p in op["parameters"]} >= {"format", "layout", "blank"}
        assert set(op["responses"]["200"]["content"]) == {
            "application/json", "application/pdf", "text/csv",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def test_a_scorer_picks_the_sessions_sheet(night, users):
    url = f"/api/v1/sessions/{night.pk}/sheet-layout/"
    answer = api_as(users, "scorer").post(url, {"layout": "tally"}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"session": night.pk, "layout": "tally",
                             "house_rule_layout": "per_player", "picked": True}
    sheet = api_as(users, "member").get(f"/api/v1/sessions/{night.pk}/sheet/").json()
    assert sheet["layout"] == "tally"
    answer = api_as(users, "scorer").post(url, {"layout": None}, format="json")
    assert answer.json()["layout"] == "per_player" and not answer.json()["picked"]


def test_picking_a_sheet_needs_a_scorer_and_a_known_sheet(night, users):
    url = f"/api/v1/sessions/{night.pk}/sheet-layout/"
    assert api_as(users, "member").post(url, {"layout": "tally"}, format="json"
                                        ).status_code == 403
    assert api_as(users, "outsider").post(url, {"layout": "tally"}, format="json"
                                          ).status_code == 404
    answer = api_as(users, "scorer").post(url, {"layout": "ledger"}, format="json")
    assert answer.status_code == 400 and "layout" in answer.json()
