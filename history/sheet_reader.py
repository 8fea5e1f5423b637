"""Reading a results spreadsheet (CSV or XLSX) into plain rows: the header's cells, then each
row as {header: text or date} with its line number as the club sees it in the file.

openpyxl reads XLSX (read-only mode, values not formulas); the csv module reads CSV, sniffing
comma, semicolon or tab, in UTF-8 (with or without a byte-order mark) or, failing that, the
Windows code page spreadsheets often save in."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass

MAX_ROWS = 200_000
MAX_BYTES = 20 * 1024 * 1024


class SheetError(ValueError):
    """The file cannot be read as a results sheet; the message says why."""


@dataclass(frozen=True)
class Row:
    line: int
    cells: dict  # header -> str, or a date/datetime read from an XLSX date cell


def _text(value) -> str | dt.date:
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def read_rows(data: bytes, filename: str = "") -> tuple[list[str], list[Row]]:
    if len(data) > MAX_BYTES:
        raise SheetError(f"The file is {len(data) // 1024 // 1024} MB; at most 20 MB is read.")
    if data[:4] == b"PK\x03\x04" or filename.lower().endswith(".xlsx"):
        grid = _xlsx(data)
    else:
        grid = _csv(data)
    header_at = next((i for i, cells in enumerate(grid) if any(_text(c) for c in cells)), None)
    if header_at is None:
        raise SheetError("The file has no rows.")
    headers = [str(_text(c)) for c in grid[header_at]]
    if len(set(h for h in headers if h)) != len([h for h in headers if h]):
        raise SheetError("Two columns have the same heading: give each column its own name.")
    rows = []
    for index, cells in enumerate(grid[header_at + 1:], start=header_at + 2):
        values = {h: _text(c) for h, c in zip(headers, cells, strict=False) if h}
        if not any(values.values()):
            continue
        rows.append(Row(index, values))
        if len(rows) > MAX_ROWS:
            raise SheetError(f"More than {MAX_ROWS} rows: split the file by season.")
    return [h for h in headers if h], rows


def _xlsx(data: bytes) -> list[list]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a file that is not a workbook
        raise SheetError(f"This is not an XLSX workbook openpyxl can read ({exc.__class__.__name__}).") from exc
    sheet = book.worksheets[0]
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def _csv(data: bytes) -> list[list]:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - cp1252 decodes nearly anything
        raise SheetError("The file is neither UTF-8 nor Windows text.")
    if "\x00" in text:
        raise SheetError("This is not a CSV text file: save the sheet as CSV or XLSX.")
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    return list(csv.reader(io.StringIO(text), dialect))
