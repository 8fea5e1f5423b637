"""XLSX with XlsxWriter in constant-memory mode: each row is flushed to a temporary file as it is
written, so a season of hand results costs the memory of one row. A workbook is a zip whose
directory comes last, so the finished file is streamed from disk afterwards.

Text is written as string cells, never as formulas or links: XlsxWriter would otherwise turn a
name such as ``=HYPERLINK("http://x","y")`` into a live formula (``strings_to_formulas``) and
``http://...`` into a link (``strings_to_urls``). Both options are off, and each text cell is
written with ``write_string`` so no later default can bring them back (OWASP "CSV
Injection"; ``exports.cells``)."""

from __future__ import annotations

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
            taken: set[str] = set()
            for sheet in sheets:
                ws = workbook.add_worksheet(worksheet_name(sheet.title, taken))
                for c, name in enumerate(sheet.columns):
                    ws.write_string(0, c, str(name), bold)
                ws.freeze_panes(1, 0)
                for r, row in enumerate(sheet.rows, 1):
                    for c, value in enumerate(row):
                        _write(ws, r, c, value)
            workbook.close()
            out.seek(0)
            while chunk := out.read(CHUNK):
                yield chunk


def _write(ws, row: int, col: int, value) -> None:
    """One cell: text as a string cell (never a formula), nothing as an empty cell, numbers and
    dates as themselves."""
    if value is None or value == "":
        return  # an empty cell; constant-memory mode writes nothing for it
    if isinstance(value, str):
        ws.write_string(row, col, value)
    else:
        ws.write(row, col, value)
