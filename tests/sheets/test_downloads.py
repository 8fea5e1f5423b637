"""The downloads carry the sheets' figures: the PDF's text read back with pypdf, the XLSX opened
with openpyxl, the CSV read back row for row (issue #15)."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict

import openpyxl
import pytest
from django.urls import reverse
from pypdf import PdfReader

from sheets.data import session_sheet
from sheets.tabular import HAND_COLUMNS
from tests.sheets.nights import generated_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, house_rule_versions, users):
    return generated_session(club, house_rule_versions, "balsall-common", users["scorer"],
                             tables=2, hands=14)


def download(client, session, fmt, table=None, **params):
    if table is None:
        url = reverse("sheets:session-download", args=[session.club.slug, session.pk, fmt])
    else:
        url = reverse("sheets:table-download", args=[session.club.slug, session.pk, table, fmt])
    response = client.get(url, params)
    assert response.status_code == 200, response.content[:300]
    return response, b"".join(response.streaming_content)


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_pdf_carries_every_players_final_total_and_the_night(night, client_as):
    client = client_as("member")
    response, data = download(client, night, "pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'attachment; filename="jade-2026-11-21-score-sheets.pdf"')
    pages, text = pdf_text(data)
    totals = {p["name"]: p["total"] for p in night.player_totals()}
    # Two sheets of twelve hands for each of four players at two tables, two sheets to a page
    # of A4 as 004 prints its template, then the summary.
    assert pages == 2 * 4 * 2 // 2 + 1
    sheet = session_sheet(night)
    for page_text in PdfReader(io.BytesIO(data)).pages:
        words = page_text.extract_text()
        # The club, the date, the house rule and its version on every page.
        assert "Jade Dragon Club" in words and "Sat 21 Nov 2026" in words
        assert f"{sheet.rule_name} (v{sheet.rule_version})" in words
    summary = PdfReader(io.BytesIO(data)).pages[-1].extract_text()
    assert "The night's final totals" in summary
    lines = summary.splitlines()
    for name, total in totals.items():
        # Place, player, table, hands, final total: a row is a line as pypdf reads it.
        row = next(line for line in lines if re.match(rf"\d+=? {re.escape(name)} ", line))
        assert row.split()[-1] == f"{total:,}"
    assert "Final totals:" in text and "Receive" in text and "Pay" in text
    assert "Hand 3: Void: misdeal: 14 tiles dealt" in text


def test_the_tally_pdf_of_one_table_ends_on_the_final_tallies(club, house_rule_versions, users,
                                                               client_as):
    session = generated_session(club, house_rule_versions, "guide", users["scorer"], hands=10)
    table = session.tables.get()
    _, data = download(client_as("member"), session, "pdf", table.pk)
    pages, text = pdf_text(data)
    assert pages == 1 and "Winning" in text and "Prevailing" in text
    lines = text.splitlines()
    final = next(line for line in lines if line.startswith("Final ")).split()  # the foot row
    for p in session.player_totals():
        assert f"{2000 + p['total']:,}" in final and f"{p['total']:+,}" in final


def test_the_xlsx_sums_to_the_session_totals(night, client_as):
    response, data = download(client_as("member"), night, "xlsx")
    assert response["Content-Disposition"].endswith('.xlsx"')
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    assert book.sheetnames == ["Hands", "Final totals"]
    rows = list(book["Hands"].iter_rows(values_only=True))
    assert list(rows[0]) == HAND_COLUMNS
    col = {name: i for i, name in enumerate(HAND_COLUMNS)}
    nets = defaultdict(int)
    for row in rows[1:]:
        nets[row[col["Player"]]] += row[col["Net"]]
    totals = {p["name"]: p["total"] for p in night.player_totals()}
    assert dict(nets) == totals
    # 14 hands x 4 seats x 2 tables
    assert len(rows) - 1 == 14 * 4 * 2
    summary = list(book["Final totals"].iter_rows(values_only=True))
    assert list(summary[0]) == ["Place", "Shared", "Player", "Table", "Hands", "Final total"]
    assert {r[2]: r[5] for r in summary[1:]} == totals
    # Places and table numbers are numbers, so the spreadsheet sorts them as numbers.
    assert all(isinstance(r[0], int) and isinstance(r[3], int) for r in summary[1:])
    assert [r[0] for r in summary[1:]] == sorted(r[0] for r in summary[1:])
    assert all(isinstance(row[col["Table"]], int) and isinstance(row[col["Hand"]], int)
               for row in rows[1:])
    places = {r[2]: r[0] for r in summary[1:]}
    for row in rows[1:]:
        assert row[col["Night's place"]] == places[row[col["Player"]]]
        assert row[col["Night's final total"]] == totals[row[col["Player"]]]


def test_the_csv_round_trips_to_the_stored_figures(night, client_as):
    response, data = download(client_as("member"), night, "csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
    sheet = session_sheet(night)
    expected = []
    for table in sheet.tables:
        for hand in table.hands:
            for p in table.players:
                expected.append((str(table.number), str(hand.number), p.name,
                                 str(hand.net.get(p.seat_id, 0)), str(hand.after[p.seat_id])))
    assert [(r["Table"], r["Hand"], r["Player"], r["Net"], r["Running total"])
            for r in rows] == expected
    # Every row's receipts less payments (opponents and the pot) is its net.
    for r in rows:
        got = sum(int(r[f"Received from {n}"] or 0) - int(r[f"Paid to {n}"] or 0)
                  for n in range(1, 5))
        got += int(r["Received from pot/kitty"]) - int(r["Paid to pot/kitty"])
        assert got == int(r["Net"])
    # Each row carries its player's final total and place for the night, as the summary has.
    for standing in sheet.standings:
        mine = [r for r in rows if r["Player"] == standing.name]
        assert {(r["Night's final total"], r["Night's place"], r["Place shared"])
                for r in mine} == {(str(standing.total), standing.place.rstrip("="),
                                    "yes" if standing.place.endswith("=") else "")}
    void = [r for r in rows if r["Hand"] == "3"]
    assert {r["How the hand ended"] for r in void} == {"Void: misdeal: 14 tiles dealt"}
    assert {r["Counted"] for r in void} == {"no"}


def test_blank_sheets_have_the_names_date_and_winds_filled_in(night, client_as):
    client = client_as("member")
    table = night.tables.get(number=1)
    _, data = download(client, night, "pdf", table.pk, blank=1)
    pages, text = pdf_text(data)
    assert pages == 2  # one sheet for each player, two to a page
    for name in ("Alice 1", "Bob 1", "Carol 1", "David 1"):
        assert f"Name: {name}" in text
    assert "Date: 21 Nov 2026" in text and "Wind of the Round: East" in text
    assert "1,234" not in text and "Final totals:" in text
    _, tally = download(client, night, "pdf", table.pk, blank=1, layout="tally")
    pages, text = pdf_text(tally)
    assert pages == 1 and "Player: Alice 1" in text and "East" in text


def test_unknown_formats_and_layouts_are_refused_with_a_sentence(night, client_as):
    client = client_as("member")
    url = reverse("sheets:session-download", args=[night.club.slug, night.pk, "docx"])
    response = client.get(url)
    assert response.status_code == 400
    assert "'docx' is not a download format of the score sheets: use one of pdf, csv, xlsx." \
        in response.content.decode()
    page = reverse("sheets:session", args=[night.club.slug, night.pk])
    response = client.get(page, {"layout": "ledger"})
    assert response.status_code == 400 and "use per_player" in response.content.decode()
    response = client.get(page, {"blank": "maybe"})
    assert response.status_code == 400 and "blank=1" in response.content.decode()


def test_a_night_without_hands_or_tables_still_prints(club, club_session, client_as):
    """A session with no table yet, and a table with no hand yet: pages, not errors."""
    client = client_as("member")
    for blank in (0, 1):
        for fmt in ("pdf", "csv", "xlsx"):
            _, data = download(client, club_session, fmt, blank=blank)
            assert data
    from tests.sheets.nights import make_table

    table = make_table(club_session, 1, 4)
    _, data = download(client, club_session, "pdf", table.pk)
    pages, text = pdf_text(data)
    assert pages == 2 and "Final totals:" in text  # four empty sheets, two to a page
