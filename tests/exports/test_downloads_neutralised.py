"""Every download of the service with players named like formulas (OWASP "CSV Injection"):
the score sheets (pages, API, ``manage.py sheet``), the league standings and hand results
(pages, API, ``manage.py export_standings``) and the comparisons (page, API,
``manage.py compare_rules``). No CSV cell a spreadsheet would run, no XLSX formula; the names
arrive as the text they are and the figures as numbers."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import openpyxl
import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs.models import ClubSession, Member, Season, Seat, Table
from clubs.recording import record_hand
from compare import runs
from compare.scope import resolve_scope
from scoring.engine import get_house_rule

NAMES = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)"]
GUEST = "=cmd|' /C calc'!A0"
RISKY = re.compile(r"^[=+\-@\t\r]")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


@pytest.fixture
def hostile(club, users, bmja_version):
    """A night of one table whose players are named like formulas, one of them a guest."""
    season = Season.objects.create(club=club, name="2026", start=dt.date(2026, 1, 1))
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 5),
                                         house_rule_version=bmja_version)
    table = Table.objects.create(session=session, number=1)
    for position, name in enumerate(NAMES):
        member = Member.objects.create(club=club, display_name=name) if position < 3 else None
        Seat.objects.create(table=table, position=position, starting_wind="ESWN"[position],
                            member=member, guest_name="" if member else GUEST)
    for winner in ("E", "S", "W", "N"):
        record_hand(table, {"winner": winner, "win_from": "wall", "seats": {
            w: {"score": 40 if w == winner else 8} for w in "ESWN"}}, users["scorer"])
        table.refresh_from_db()
    return {"season": season, "session": session, "table": table}


def check_csv(data: bytes, where: str) -> None:
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    cells = [c for row in rows for c in row]
    risky = [c for c in cells if RISKY.match(c) and not NUMBER.match(c)]
    assert not risky, f"{where}: cells a spreadsheet would run: {risky}"
    assert any(c == "'" + NAMES[0] for c in cells), f"{where}: the names are missing"


def check_xlsx(data: bytes, where: str) -> None:
    book = openpyxl.load_workbook(io.BytesIO(data))
    values = []
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{where}: a formula in {ws.title}!{cell.coordinate}"
                assert cell.hyperlink is None, f"{where}: a link in {ws.title}!{cell.coordinate}"
                values.append(cell.value)
    assert NAMES[0] in values, f"{where}: the names are missing"
    assert any(isinstance(v, int) and v < 0 for v in values), f"{where}: numbers became text"


def check(data: bytes, fmt: str, where: str) -> None:
    (check_csv if fmt == "csv" else check_xlsx)(data, where)


def body(response) -> bytes:
    assert response.status_code == 200, response.content[:300]
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_score_sheets(hostile, client_as, fmt, tmp_path):
    session, table = hostile["session"], hostile["table"]
    client = client_as("member")
    slug = session.club.slug
    urls = {
        "night's sheet": reverse("sheets:session-download", args=[slug, session.pk, fmt]),
        "table's sheet": reverse("sheets:table-download", args=[slug, session.pk, table.pk, fmt]),
        "sheet API (night)": f"/api/v1/sessions/{session.pk}/sheet/?format={fmt}",
        "sheet API (table)": f"/api/v1/tables/{table.pk}/sheet/?format={fmt}",
    }
    for where, url in urls.items():
        check(body(client.get(url)), fmt, where)
    out = tmp_path / f"night.{fmt}"
    call_command("sheet", str(session.pk), "--format", fmt, "--output", str(out))
    check(out.read_bytes(), fmt, "manage.py sheet")


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_league_standings_and_hand_results(hostile, club, client_as, fmt, tmp_path):
    season = hostile["season"]
    client = client_as("member")
    page = reverse("league-season", args=[club.slug, season.pk])
    urls = {
        "standings page": f"{page}?format={fmt}",
        "hand results page": f"{page}?format={fmt}&what=hands",
        "all-time page": reverse("league-all-time", args=[club.slug]) + f"?format={fmt}",
        "standings API": f"/api/v1/seasons/{season.pk}/standings/?format={fmt}",
        "hand results API": f"/api/v1/seasons/{season.pk}/hand-results/?format={fmt}",
        "all-time API": f"/api/v1/clubs/{club.slug}/standings/?format={fmt}",
    }
    for where, url in urls.items():
        check(body(client.get(url)), fmt, where)
    out = tmp_path / f"standings.{fmt}"
    call_command("export_standings", "--season", str(season.pk), "--format", fmt,
                 "--output", str(out))
    check(out.read_bytes(), fmt, "manage.py export_standings")


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_comparisons(hostile, users, client_as, fmt, tmp_path):
    scope = resolve_scope({"session": hostile["session"].pk}, users["member"])
    comparison = runs.start(scope, [get_house_rule("bmja"), get_house_rule("guide")],
                            users["member"], background=False)
    client = client_as("member")
    urls = {
        "comparison page": reverse("comparison-export", args=[comparison.pk, fmt]),
        "comparison API": f"/api/v1/comparisons/{comparison.pk}/export/?as={fmt}",
    }
    for where, url in urls.items():
        check(body(client.get(url)), fmt, where)
    out = tmp_path / f"compare.{fmt}"
    call_command("compare_rules", "--session", str(hostile["session"].pk),
                 "--rules", "bmja,guide", "--format", fmt, "--output", str(out))
    check(out.read_bytes(), fmt, "manage.py compare_rules")
