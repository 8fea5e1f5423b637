"""XLSX with XlsxWriter in constant-memory mode: each row is flushed to a temporary file as it is
written, so a season of hand results costs the memory of one row. A workbook is a zip whose
directory comes last, so the finished file is streamed from disk afterwards.

Text is written as string cells, never as formulas or links: XlsxWriter would otherwise turn a
name such as ``=HYPERLINK("http://x","y")`` into a live formula (``strings_to_formulas``) and
``http://...`` into a link (``strings_to_urls``). Both options are off, and each text cell is
written with ``write_string`` so no later default can bring them back (OWASP "CSV
Injection"; ``exports.cells``)."""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from collections.abc import Iterator

import xlsxwriter

from exports.registry import Sheet, register

CHUNK = 64 * 1024
# Worksheet names: at most 31 characters, none of []:*?/\ (Excel's own limits).
_BAD_NAME = re.compile(r"[\[\]:*?/\\]")


def worksheet_name(title: str, taken: set[str]) -> str:
    base = _BAD_NAME.sub("-", title).strip("'")[:31] or "Sheet"
    name, n = base, 2
    while name.lower() in taken:
        suffix = f" ({n})"
        name, n = base[: 31 - len(suffix)] + suffix, n + 1
    taken.add(name.lower())
    return name


@register("xlsx")
class XlsxExporter:
    content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    extension = "xlsx"

    def render(self, sheets: list[Sheet]) -> Iterator[bytes]:
        with tempfile.TemporaryFile(suffix=".xlsx") as out:
            workbook = xlsxwriter.Workbook(out, {
                "constant_memory": True, "in_memory": False,
                "strings_to_formulas": False, "strings_to_urls": False,
                "strings_to_numbers": False,
            })
            bold = workbook.add_format({"bold": True})
            # A date is a date cell (a number shown as one), so a spreadsheet sorts and filters
            # it as a date, not as text.
            day = workbook.add_format({"num_format": "yyyy-mm-dd"})
            taken: set[str] = set()
            for sheet in sheets:
                ws = workbook.add_worksheet(worksheet_name(sheet.title, taken))
                dates = {c for c, name in enumerate(sheet.columns) if name in sheet.date_columns}
                for c, name in enumerate(sheet.columns):
                    ws.write_string(0, c, str(name), bold)
                    if c in dates:
                        ws.set_column(c, c, 11)  # wide enough for yyyy-mm-dd
                ws.freeze_panes(1, 0)
                for r, row in enumerate(sheet.rows, 1):
                    for c, value in enumerate(row):
                        if c in dates and (when := _date(value)) is not None:
                            ws.write_datetime(r, c, when, day)
                        else:
                            _write(ws, r, c, value)
            workbook.close()
            out.seek(0)
            while chunk := out.read(CHUNK):
                yield chunk


def _date(value) -> dt.date | None:
    """A date column's value as a date (None: not one, written as it is)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _write(ws, row: int, col: int, value) -> None:
    """One cell: text as a string cell (never a formula), nothing as an empty cell, numbers and
    dates as themselves."""
    if value is None or value == "":
        return  # an empty cell; constant-memory mode writes nothing for it
    if isinstance(value, str):
        ws.write_string(row, col, value)
    else:
        ws.write(row, col, value)
