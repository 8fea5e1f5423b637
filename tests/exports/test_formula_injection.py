"""Formula injection (OWASP "CSV Injection"): a member or guest may be named like a formula, and
a club's published standings are public, so every CSV cell that a spreadsheet would read as a
formula starts with a quote, and every XLSX text cell is a string, never a formula or a link.
Numbers stay numbers. The downloads of each feature are checked in
tests/exports/test_downloads_neutralised.py."""

import csv
import io

import openpyxl
import pytest

from exports import EXPORTERS, Sheet, get_exporter
from exports.cells import csv_text

HOSTILE = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tTAB", "\rCR",
           "=1+1"]


def rendered(fmt, given):
    return b"".join(get_exporter(fmt).render(given))


def sheet():
    rows = [[name, 12, -120, None] for name in HOSTILE] + [["http://example.com", 1.5, 0, ""]]
    return [Sheet("=Standings", ["=player", "hands", "net", "note"], iter(rows))]


@pytest.mark.parametrize("name", HOSTILE)
def test_csv_text_quotes_what_a_spreadsheet_would_run(name):
    assert csv_text(name) == "'" + name.replace("\r", "\n")
    assert csv_text("Alice") == "Alice" and csv_text("3=") == "3="
    assert csv_text(-120) == -120 and csv_text(None) is None


def test_csv_cells_open_as_text_and_numbers_stay_numbers():
    rows = list(csv.reader(io.StringIO(rendered("csv", sheet()).decode(), newline="")))
    assert rows[0] == ["'=player", "hands", "net", "note"]
    assert [r[0] for r in rows[1:len(HOSTILE) + 1]] == [csv_text(n) for n in HOSTILE]
    assert len(rows) == len(HOSTILE) + 2  # a carriage return in a name ends no row
    assert all(r[1:3] == ["12", "-120"] for r in rows[1:len(HOSTILE) + 1])
    assert rows[-1] == ["http://example.com", "1.5", "0", ""]
    several = rendered("csv", sheet() + [Sheet("+Nights", ["n"], iter([[1]]))]).decode()
    assert several.startswith("'=Standings\n") and "\n'+Nights\n" in several


def test_xlsx_text_is_string_cells_never_formulas_or_links():
    data = rendered("xlsx", sheet())
    book = openpyxl.load_workbook(io.BytesIO(data))
    ws = book.worksheets[0]
    assert ws["A1"].value == "=player" and ws["A1"].data_type == "s"
    for row, name in enumerate(HOSTILE, 2):
        cell = ws.cell(row, 1)
        # openpyxl reads a carriage return back as XML's escape for it.
        assert (cell.value.replace("_x000D_", "\r"), cell.data_type) == (name, "s")
        assert (ws.cell(row, 2).value, ws.cell(row, 3).value) == (12, -120)
        assert ws.cell(row, 2).data_type == "n"
    link = ws.cell(len(HOSTILE) + 2, 1)
    assert link.value == "http://example.com" and link.hyperlink is None
    # No formula anywhere in the file's XML, and no hyperlink relationship.
    with __import__("zipfile").ZipFile(io.BytesIO(data)) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
        assert "<f>" not in xml and "<f " not in xml and "hyperlink" not in xml


def test_every_tabular_format_is_covered():
    """A new spreadsheet format must be added to the cases above (JSON carries no formulas)."""
    assert set(EXPORTERS) == {"csv", "xlsx", "json"}
