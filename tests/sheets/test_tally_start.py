"""002's tally sheet under a house rule that starts at 0 (bmja): the starting tally (2,000 for
tally sticks) is a choice of the sheet, on the page, the downloads, the API and the command,
and moves the running totals only (issue #25)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from sheets.build import SheetRequest
from sheets.data import session_sheet
from tests.sheets.nights import generated_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, house_rule_versions, users):
    return generated_session(club, house_rule_versions, "bmja", users["scorer"], hands=8)


def test_the_start_moves_the_running_totals_and_nothing_else(night):
    ours = session_sheet(night, "tally")
    sticks = session_sheet(night, "tally", start=2000)
    assert ours.tables[0].start == 0 and sticks.tables[0].start == 2000
    for a, b in zip(ours.tables[0].hands, sticks.tables[0].hands, strict=True):
        assert b.net == a.net and b.transfers == a.transfers
        assert b.before == {s: v + 2000 for s, v in a.before.items()}
        assert b.after == {s: v + 2000 for s, v in a.after.items()}
    assert [(s.name, s.total) for s in sticks.standings] == [
        (s.name, s.total) for s in ours.standings]
    page = SheetRequest(night, layout="tally", start=2000).document().pages[0]
    assert dict(page.fields)["Starting tally"] == "2,000 (this sheet's; the house rule starts at 0)"
    final = page.rows[-1]
    table = sticks.tables[0]
    for p in table.players:
        assert f"{2000 + table.final(p.seat_id):,}" in final.cells


def test_the_page_offers_the_start_and_the_downloads_keep_it(night, client_as):
    client = client_as("member")
    url = reverse("sheets:session", args=[night.club.slug, night.pk])
    page = client.get(url, {"layout": "tally"}).content.decode()
    assert 'id="sheet-start"' in page and 'name="start"' in page and 'value="0"' in page
    page = client.get(url, {"layout": "tally", "start": "2000"}).content.decode()
    assert "start=2000" in page and "2,000 (this sheet&#x27;s" in page
    assert 'value="2000"' in page
    assert 'id="sheet-start"' not in client.get(url, {"layout": "per_player"}).content.decode()
    download = reverse("sheets:session-download", args=[night.club.slug, night.pk, "csv"])
    response = client.get(download, {"layout": "tally", "start": "2000"})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    first = [r for r in rows if r["Hand"] == "1"]
    assert all(int(r["Running total"]) == 2000 + int(r["Net"]) for r in first)
    bad = client.get(url, {"layout": "tally", "start": "lots"})
    assert bad.status_code == 400 and "is not a starting tally" in bad.content.decode()


def test_the_api_and_the_command_take_the_start(night, users, tmp_path):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(users["member"])
    answer = api.get(f"/api/v1/sessions/{night.pk}/sheet/", {"layout": "tally", "start": 2000})
    assert answer.status_code == 200
    assert answer.json()["tables"][0]["starting_tally"] == 2000
    bad = api.get(f"/api/v1/sessions/{night.pk}/sheet/", {"start": "-5"})
    assert bad.status_code == 400 and "start" in bad.json()
    out = tmp_path / "sheet.csv"
    call_command("sheet", str(night.pk), "--format", "csv", "--layout", "tally", "--start",
                 "2000", "-o", str(out))
    assert "2000" in out.read_text()
    with pytest.raises(CommandError, match="is not a starting tally"):
        call_command("sheet", str(night.pk), "--start", "two thousand", "-o", str(out))
