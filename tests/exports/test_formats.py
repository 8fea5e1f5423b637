"""The export formats: each renders the same sheets to the same values, streams a generator of
rows without reading it twice, and an unknown format is a sentence naming the known ones."""

import csv
import datetime
import io
import json

import openpyxl
import pytest

import exports
from exports import Sheet, UnknownFormat, get_exporter
from exports.xlsx_format import worksheet_name

COLUMNS = ["player", "hands", "net"]
ROWS = [["Alice", 12, 340], ["Bob", 12, -120], ["Chloë", 11, None]]


def sheets(rows=None):
    return [Sheet("Standings", COLUMNS, iter(rows or ROWS)), Sheet("Nights", ["n"], iter([[1]]))]


def rendered(fmt, given):
    return b"".join(get_exporter(fmt).render(given))


def test_csv_one_sheet_is_a_plain_table():
    text = rendered("csv", [Sheet("Standings", COLUMNS, iter(ROWS))]).decode()
    assert list(csv.reader(io.StringIO(text))) == [
        COLUMNS, ["Alice", "12", "340"], ["Bob", "12", "-120"], ["Chloë", "11", ""]]


def test_csv_several_sheets_each_under_its_title():
    rows = list(csv.reader(io.StringIO(rendered("csv", sheets()).decode())))
    assert rows[0] == ["Standings"] and rows[1] == COLUMNS
    assert rows[5:] == [[], ["Nights"], ["n"], ["1"]]


def test_json_is_one_object_of_lists_by_title():
    data = json.loads(rendered("json", sheets()))
    assert data["Standings"][2] == {"player": "Chloë", "hands": 11, "net": None}
    assert data["Nights"] == [{"n": 1}]


def test_xlsx_opens_with_the_same_values():
    book = openpyxl.load_workbook(io.BytesIO(rendered("xlsx", sheets())))
    assert book.sheetnames == ["Standings", "Nights"]
    values = [list(r) for r in book["Standings"].iter_rows(values_only=True)]
    assert values[0] == COLUMNS and values[1] == ["Alice", 12, 340]
    assert values[3][:2] == ["Chloë", 11]


def test_a_long_generator_streams_in_chunks():
    many = ([i, i, -i] for i in range(2_000))
    chunks = list(get_exporter("csv").render([Sheet("big", COLUMNS, many)]))
    assert len(chunks) > 2
    assert b"".join(chunks).count(b"\n") == 2_001


def test_worksheet_names_follow_excels_limits():
    taken = set()
    assert worksheet_name("Table 1: night of 3/4", taken) == "Table 1- night of 3-4"
    assert worksheet_name("x" * 40, taken) == "x" * 31
    assert worksheet_name("x" * 40, taken) == "x" * 27 + " (2)"


def test_unknown_format_names_the_known_ones():
    with pytest.raises(UnknownFormat, match="use one of csv, json, xlsx"):
        get_exporter("ods")


def test_download_is_an_attachment(settings):
    response = exports.download(sheets(), "csv", "Demo club 2026 standings")
    assert response["Content-Disposition"] == (
        'attachment; filename="demo-club-2026-standings.csv"')
    assert b"".join(response.streaming_content).startswith(b"Standings")


def test_xlsx_writes_date_columns_as_dates_and_leaves_text_as_text():
    """A date column's dates (a date or ISO text from the database) are date cells shown as
    yyyy-mm-dd; other columns' text that looks like a date stays text (typed by a member)."""
    rows = [[datetime.date(2026, 11, 26), "2026-01-02"], ["2026-11-27", "x"], [None, ""]]
    book = openpyxl.load_workbook(io.BytesIO(rendered("xlsx", [
        Sheet("Nights", ["date", "name"], iter(rows), date_columns=frozenset({"date"}))])))
    sheet = book["Nights"]
    assert sheet["A2"].value == datetime.datetime(2026, 11, 26)
    assert sheet["A2"].number_format == "yyyy-mm-dd"
    assert sheet["A3"].value == datetime.datetime(2026, 11, 27)
    assert sheet["B2"].value == "2026-01-02" and sheet["A4"].value is None
    # CSV keeps the ISO text.
    text = rendered("csv", [Sheet("Nights", ["date"], iter([[datetime.date(2026, 11, 26)]]),
                                  date_columns=frozenset({"date"}))]).decode()
    assert text.splitlines()[1] == "2026-11-26"
