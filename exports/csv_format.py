"""CSV: the first sheet as a plain table; several sheets one after another, each under a line
with its title and separated by a blank line (spreadsheets open either). Every text cell,
titles and column names too, passes ``exports.cells.csv_text``: a CSV is opened by a
spreadsheet, and text starting with ``=`` would run there as a formula."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from exports.cells import csv_text
from exports.registry import Sheet, register

FLUSH_EVERY = 500  # rows per chunk of the stream


@register("csv")
class CsvExporter:
    content_type = "text/csv; charset=utf-8"
    extension = "csv"

    def render(self, sheets: list[Sheet]) -> Iterator[bytes]:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        titled = len(sheets) > 1
        for index, sheet in enumerate(sheets):
            if titled:
                if index:
                    writer.writerow([])
                writer.writerow([csv_text(sheet.title)])
            writer.writerow([csv_text(c) for c in sheet.columns])
            for count, row in enumerate(sheet.rows, 1):
                writer.writerow(["" if v is None else csv_text(v) for v in row])
                if count % FLUSH_EVERY == 0:
                    yield _drain(buffer)
        yield _drain(buffer)


def _drain(buffer: io.StringIO) -> bytes:
    data = buffer.getvalue().encode("utf-8")
    buffer.seek(0)
    buffer.truncate()
    return data
