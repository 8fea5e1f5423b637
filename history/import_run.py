"""The steps of a spreadsheet import shared by the page and ``manage.py import_results``:
read the file into a draft batch, plan it (the dry run), write it."""

from __future__ import annotations

import hashlib

from history.import_plan import Plan, check_mapping, guess_mapping, make_plan
from history.import_write import members_of, seasons_of, taken_dates
from history.models import ImportBatch
from history.sheet_reader import Row, read_rows


def start(club, data: bytes, filename: str, user=None) -> ImportBatch:
    """A draft batch holding the file's rows (``SheetError`` if it cannot be read)."""
    headers, rows = read_rows(data, filename)
    return ImportBatch.objects.create(
        club=club, kind=ImportBatch.Kind.SPREADSHEET, filename=filename[:200],
        digest=hashlib.sha256(data).hexdigest(), created_by=user if user and user.pk else None,
        rows=[[r.line, {k: (v.isoformat() if hasattr(v, "isoformat") else v)
                        for k, v in r.cells.items()}] for r in rows],
        mapping={"columns": guess_mapping(headers), "headers": headers, "day_first": True})


def headers_of(batch: ImportBatch) -> list[str]:
    return batch.mapping.get("headers", [])


def plan_of(batch: ImportBatch, *, accept_suggestions=False, unmatched="") -> Plan:
    """The dry run of a draft with its current mapping and choices (``MappingError`` if the
    mapping is not complete)."""
    columns = check_mapping(batch.mapping.get("columns", {}), headers_of(batch))
    rows = [Row(line, cells) for line, cells in batch.rows]
    return make_plan(
        rows, columns, members_of(batch.club), choices=batch.choices,
        seasons=seasons_of(batch.club), taken_dates=taken_dates(batch.club),
        day_first=batch.mapping.get("day_first", True),
        accept_suggestions=accept_suggestions, unmatched=unmatched)
