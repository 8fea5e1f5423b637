"""What a request for a sheet asks for (which layout, blank or filled in, which tables), checked
once for the pages, the downloads, the API and the management command alike."""

from __future__ import annotations

from dataclasses import dataclass

from clubs.models import ClubSession, Table
from exports import get_exporter
from sheets import pdf
from sheets.data import LAYOUTS, SessionSheet, session_sheet
from sheets.layout import Document, document
from sheets.tabular import sheets_for

# What a sheet can be downloaded as: the PDF of the printed pages, and the hands as rows.
FORMATS = ("pdf", "csv", "xlsx")


class SheetRequestError(ValueError):
    """A request for a sheet that cannot be answered: ``errors`` maps the parameter to what is
    wrong with it and how to mend it (the DRF error shape)."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__(" ".join(m for ms in errors.values() for m in ms))


def check_layout(value: str | None) -> str | None:
    if value in (None, ""):
        return None
    if value not in LAYOUTS:
        raise SheetRequestError({"layout": [
            f"{value!r} is not a score sheet: use per_player (004's sheet for each player) or "
            "tally (002's running tallies), or leave it out for the house rule's own."]})
    return value


def check_format(value: str) -> str:
    if value not in FORMATS:
        raise SheetRequestError({"format": [
            f"{value!r} is not a download format of the score sheets: use one of "
            f"{', '.join(FORMATS)}."]})
    return value


def check_blank(value: str | None) -> bool:
    if value in (None, "", "0", "false", "no"):
        return False
    if value in ("1", "true", "yes"):
        return True
    raise SheetRequestError({"blank": [f"{value!r}: use blank=1 for sheets to fill in by hand, "
                                       "or leave it out."]})


MAX_START = 1_000_000


def check_start(value: str | None) -> int | None:
    """The starting tally asked for the sheet (002's 2,000 for tally sticks), or None for the
    house rule's own."""
    if value in (None, ""):
        return None
    try:
        start = int(str(value).replace(",", "").strip())
    except ValueError:
        start = None
    if start is None or not 0 <= start <= MAX_START:
        raise SheetRequestError({"start": [
            f"{value!r} is not a starting tally: give a whole number from 0 to {MAX_START:,} "
            "(2000 for 002's tally sticks), or leave it out for the house rule's own."]})
    return start


@dataclass(frozen=True)
class SheetRequest:
    session: ClubSession
    table: Table | None = None  # None: every table of the session and the night's totals
    layout: str | None = None  # None: the house rule's own
    blank: bool = False
    start: int | None = None  # the running tallies' start on this sheet; None: the house rule's

    def sheet(self, default: str | None = None) -> SessionSheet:
        """The figures; the layout asked for, else ``default`` (the session's, when the caller
        has read it already), else the session's as picked or its house rule's."""
        tables = [self.table] if self.table is not None else None
        return session_sheet(self.session, self.layout or default, tables, self.start)

    def document(self, sheet: SessionSheet | None = None) -> Document:
        return document(sheet or self.sheet(), whole_session=self.table is None,
                        blank=self.blank)

    @property
    def filename_stem(self) -> str:
        s = self.session
        stem = f"{s.club.slug} {s.date:%Y-%m-%d} score sheets"
        if self.table is not None:
            stem += f" table {self.table.number}"
        return stem + (" blank" if self.blank else "")

    def render(self, fmt: str):
        """(content type, extension, an iterator of bytes) of the sheets in ``fmt``."""
        if fmt == "pdf":
            return pdf.CONTENT_TYPE, "pdf", iter([pdf.render(self.document())])
        exporter = get_exporter(fmt)
        return exporter.content_type, exporter.extension, exporter.render(
            sheets_for(self.sheet(), fmt))
