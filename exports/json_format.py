"""JSON: ``{"<sheet title>": [{"<column>": value, ...}, ...], ...}``, written as it is read so a
long sheet is never held whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from exports.registry import Sheet, register


def _plain(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal | Fraction):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


@register("json")
class JsonExporter:
    content_type = "application/json"
    extension = "json"

    def render(self, sheets: list[Sheet]) -> Iterator[bytes]:
        yield b"{"
        for index, sheet in enumerate(sheets):
            head = ", " if index else ""
            yield f"{head}{json.dumps(sheet.title)}: [".encode()
            for count, row in enumerate(sheet.rows):
                record = dict(zip(sheet.columns, row, strict=True))
                text = json.dumps(record, default=_plain, ensure_ascii=False)
                yield (", " if count else "").encode() + text.encode("utf-8")
            yield b"]"
        yield b"}"
