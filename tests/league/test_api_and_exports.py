"""The standings API (JSON, CSV, XLSX), league rules and snapshots over the API, the
export_standings command, and every export read back to the page's numbers (issue #17)."""

from __future__ import annotations

import csv
import io
import json

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from clubs.models import HandResult
from league.models import rules_of
from league.queries import standings
from tests.league.test_pages import played  # noqa: F401  the same two nights

pytestmark = pytest.mark.django_db
NUMBERS = ("name", "nights", "hands", "mahjongs", "given", "net", "table_points", "score")
CSV_NAMES = {"name": "player", "mahjongs": "mah_jongs", "given": "given_away"}


def api(users, role):
    client = APIClient()
    if users[role]:
        client.force_authenticate(users[role])
    return client


def page_numbers(season):
    return [tuple(getattr(r, k) for k in NUMBERS)
            for r in standings(rules_of(season), season=season).rows()]


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def from_records(records):
    def value(v, k):
        if k == "name":
            return v
        return float(v) if k in ("table_points", "score") else int(v)

    return [tuple(value(r[CSV_NAMES.get(k, k)], k) for k in NUMBERS) for r in records]


def test_json_csv_and_xlsx_round_trip_to_the_page(users, played):  # noqa: F811
    client = api(users, "member")
    path = f"/api/v1/seasons/{played.pk}/standings/"
    expected = page_numbers(played)
    data = client.get(path).json()
    assert [tuple(r[k] for k in NUMBERS) for r in data["rows"]] == expected
    assert data["calculation"][0] == "Ranked by net points summed over nights."
    answer = client.get(path, {"format": "csv"})
    assert answer["Content-Type"].startswith("text/csv")
    assert from_records(csv.DictReader(io.StringIO(body(answer).decode()))) == expected
    answer = client.get(path, {"format": "xlsx"})
    book = openpyxl.load_workbook(io.BytesIO(body(answer)), read_only=True)
    rows = list(book["Standings"].iter_rows(values_only=True))
    assert from_records([dict(zip(rows[0], r, strict=True)) for r in rows[1:]]) == expected
    assert [r[0] for r in book["Calculation"].iter_rows(values_only=True)][1] == \
        data["calculation"][0]


def test_the_page_downloads_the_same_numbers(client_as, club, played):  # noqa: F811
    member = client_as("member")
    path = f"/clubs/{club.slug}/league/{played.pk}/"
    expected = page_numbers(played)
    answer = member.get(path, {"format": "json"})
    assert [tuple(r[k] for k in NUMBERS) for r in json.loads(body(answer))["rows"]] == expected
    answer = member.get(path, {"format": "csv"})
    assert 'filename="jade-2026-standings.csv"' in answer["Content-Disposition"]
    assert from_records(csv.DictReader(io.StringIO(body(answer).decode()))) == expected


@pytest.mark.parametrize("query", [{}, {"as_of": "2026-03-06"}])
def test_the_standings_json_is_the_same_from_the_page_the_api_and_the_command(
        client_as, club, played, users, tmp_path, query):  # noqa: F811
    """One document everywhere (issue #25): the page's JSON download is the API's answer, byte
    for byte, filters included; export_standings writes the same."""
    page = client_as("member").get(f"/clubs/{club.slug}/league/{played.pk}/",
                                   {**query, "format": "json"})
    assert page.status_code == 200
    assert 'filename="jade-2026-standings.json"' in page["Content-Disposition"]
    from_api = api(users, "member").get(f"/api/v1/seasons/{played.pk}/standings/", query)
    assert body(page) == from_api.content
    assert json.loads(body(page))["filters"] == query
    if not query:
        out = tmp_path / "standings.json"
        call_command("export_standings", "--season", str(played.pk), "--format", "json",
                     "--output", str(out))
        assert out.read_bytes() == from_api.content


def test_the_all_time_json_is_the_same_from_the_page_and_the_api(
        client_as, club, played, users):  # noqa: F811
    page = client_as("member").get(f"/clubs/{club.slug}/league/all-time/", {"format": "json"})
    assert body(page) == api(users, "member").get(f"/api/v1/clubs/{club.slug}/standings/").content


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json"])
def test_hand_results_export_sums_to_the_standings(client_as, club, played, users, fmt):  # noqa: F811
    answer = api(users, "member").get(f"/api/v1/seasons/{played.pk}/hand-results/",
                                      {"format": fmt})
    raw = body(answer)
    if fmt == "csv":
        records = list(csv.DictReader(io.StringIO(raw.decode())))
    elif fmt == "json":
        records = json.loads(raw)["Hand results"]
    else:
        rows = list(openpyxl.load_workbook(io.BytesIO(raw), read_only=True).active
                    .iter_rows(values_only=True))
        records = [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]
    assert len(records) == HandResult.objects.filter(season=played).count()
    totals: dict = {}
    for r in records:
        name = r["player"]
        t = totals.setdefault(name, [0, 0, 0, 0])
        t[0] += 1
        t[1] += int(r["net"])
        t[2] += int(r["mah_jong"])
        t[3] += int(r["gave"])
    page = {r.name: [r.hands, r.net, r.mahjongs, r.given]
            for r in standings(rules_of(played), season=played).rows() if r.hands}
    assert totals == page


def test_the_export_command_writes_xlsx_and_says_what_is_wrong(tmp_path, played):  # noqa: F811
    out = tmp_path / "standings.xlsx"
    call_command("export_standings", "--season", str(played.pk), "--format", "xlsx",
                 "--output", str(out))
    rows = list(openpyxl.load_workbook(out, read_only=True)["Standings"]
                .iter_rows(values_only=True))
    assert from_records([dict(zip(rows[0], r, strict=True)) for r in rows[1:]]) == \
        page_numbers(played)
    with pytest.raises(CommandError, match="is not known: use one of csv, xlsx, json"):
        call_command("export_standings", "--season", str(played.pk), "--format", "pdf",
                     "--output", str(out))
    with pytest.raises(CommandError, match="There is no season 999"):
        call_command("export_standings", "--season", "999", "--format", "csv",
                     "--output", str(out))
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("export_standings", "--season", str(played.pk), "--format", "csv",
                     "--output", str(tmp_path / "missing" / "x.csv"))


@pytest.mark.parametrize(("role", "published", "status"), [
    ("anonymous", False, 404), ("outsider", False, 404), ("anonymous", True, 200),
    ("member", False, 200),
])
def test_who_reads_standings_over_the_api(users, club, played, role, published, status):  # noqa: F811
    club.published = published
    club.save()
    assert api(users, role).get(f"/api/v1/seasons/{played.pk}/standings/").status_code == status


def test_bad_query_parameters_are_400_with_their_field(users, played):  # noqa: F811
    client = api(users, "member")
    path = f"/api/v1/seasons/{played.pk}/standings/"
    answer = client.get(path, {"format": "pdf"})
    assert answer.status_code == 400 and "format" in answer.json()
    answer = client.get(path, {"as_of": "yesterday", "table": "x"})
    assert answer.status_code == 400 and {"as_of", "table"} <= set(answer.json())


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("scorer", 403),
                                              ("admin", 200), ("anonymous", 404)])
def test_only_admins_change_league_rules_over_the_api(users, played, role, status):  # noqa: F811
    answer = api(users, role).put(f"/api/v1/seasons/{played.pk}/league-rules/",
                                  {"preset": "table-points-half", "min_nights": 2},
                                  format="json")
    assert answer.status_code == status
    if status == 200:
        assert answer.json()["points"] == "4-2-1-0.5" and answer.json()["min_nights"] == 2
        data = api(users, "member").get(f"/api/v1/seasons/{played.pk}/standings/").json()
        assert data["rules"]["measure"] == "table_points" and data["required_nights"] == 2


def test_league_rules_errors_name_the_field(users, played):  # noqa: F811
    answer = api(users, "admin").put(f"/api/v1/seasons/{played.pk}/league-rules/",
                                     {"combine": "best", "tie_breaks": ["luck"]}, format="json")
    assert answer.status_code == 400
    assert set(answer.json()) == {"tie_breaks"} or "best_n" in answer.json()
    answer = api(users, "admin").put(f"/api/v1/seasons/{played.pk}/league-rules/",
                                     {"combine": "best"}, format="json")
    assert answer.status_code == 400 and "best_n" in answer.json()


def test_admins_publish_snapshots_over_the_api(users, played):  # noqa: F811
    path = f"/api/v1/seasons/{played.pk}/snapshots/"
    assert api(users, "member").post(path, {}, format="json").status_code == 403
    answer = api(users, "admin").post(path, {"as_of": "2026-03-31", "note": "March"},
                                      format="json")
    assert answer.status_code == 201
    listed = api(users, "member").get(path).json()
    assert listed[0]["as_of"] == "2026-03-31" and listed[0]["standings"]["rows"]


def test_all_time_standings_over_the_api(users, club, played):  # noqa: F811
    data = api(users, "member").get(f"/api/v1/clubs/{club.slug}/standings/").json()
    assert sum(r["hands"] for r in data["rows"]) == HandResult.objects.filter(
        club=club).count()


def test_the_schema_documents_the_standings_and_their_formats(users):
    client = api(users, "member")
    schema = client.get("/api/v1/schema/", {"format": "json"})
    doc = json.loads(body(schema))
    op = doc["paths"]["/api/v1/seasons/{season_id}/standings/"]["get"]
    assert {"application/json", "text/csv"} <= set(op["responses"]["200"]["content"])
    assert {"format", "as_of", "start", "end", "house_rule", "table"} <= {
        p["name"] for p in op["parameters"]}


def test_the_page_downloads_every_hand_result_as_xlsx(client_as, club, played):  # noqa: F811
    answer = client_as("member").get(f"/clubs/{club.slug}/league/{played.pk}/",
                                     {"what": "hands", "format": "xlsx"})
    assert 'filename="jade-2026-hands.xlsx"' in answer["Content-Disposition"]
    rows = list(openpyxl.load_workbook(io.BytesIO(body(answer)), read_only=True).active
                .iter_rows(values_only=True))
    assert len(rows) - 1 == HandResult.objects.filter(season=played).count()
    assert sum(r[rows[0].index("net")] for r in rows[1:]) == 0


def test_refresh_league_rebuilds_the_summary(played):  # noqa: F811
    from league.models import NightResult

    before = sorted(NightResult.objects.values_list("seat_id", "net", "place", "points_zero"))
    NightResult.objects.all().delete()
    out = io.StringIO()
    call_command("refresh_league", stdout=out)
    assert "Refreshed 3 tables." in out.getvalue()
    assert sorted(NightResult.objects.values_list("seat_id", "net", "place", "points_zero")) \
        == before


def test_the_xlsx_keeps_places_as_numbers_and_says_a_tie_apart(users, played):  # noqa: F811
    """A spreadsheet sorts "10" after "2" only when they are numbers (issue #25): the place is
    a number, a shared place ("2=" on the page) is "yes" under "shared"."""
    client = api(users, "member")
    data = client.get(f"/api/v1/seasons/{played.pk}/standings/").json()
    answer = client.get(f"/api/v1/seasons/{played.pk}/standings/", {"format": "xlsx"})
    rows = list(openpyxl.load_workbook(io.BytesIO(body(answer)), read_only=True)["Standings"]
                .iter_rows(values_only=True))
    col = {name: i for i, name in enumerate(rows[0])}
    got = [(r[col["player"]], r[col["place"]], r[col["shared"]]) for r in rows[1:]]
    assert got == [(r["name"], r["place"], "yes" if r["place"] and r["shared"] else None)
                   for r in data["rows"]]
    assert all(isinstance(place, int) for _, place, _ in got if place is not None)


def test_the_hand_results_workbook_has_real_dates(played):  # noqa: F811
    """The night's date is a date cell (yyyy-mm-dd), so a spreadsheet sorts it as a date."""
    import datetime

    from exports import get_exporter
    from league.export_sheets import hands_sheet

    data = b"".join(get_exporter("xlsx").render([hands_sheet(played)]))
    sheet = openpyxl.load_workbook(io.BytesIO(data))["Hand results"]
    first = sheet["A2"]
    night = HandResult.objects.filter(season=played).order_by("session__date").first()
    assert first.value == datetime.datetime.combine(night.session.date, datetime.time())
    assert first.number_format == "yyyy-mm-dd"
