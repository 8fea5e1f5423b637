"""Dates as clubs write them in a spreadsheet. British clubs write the day first (3/4/2024 is
the 3rd of April); ``day_first=False`` reads 4/3/2024 that way instead. Anything else is an
unknown date format, refused with its line."""

from __future__ import annotations

import datetime as dt
import re

FORMATS_DAY_FIRST = ("%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y", "%d.%m.%Y", "%d-%m-%Y", "%d %b %Y",
                     "%d %B %Y", "%a %d %b %Y", "%A %d %B %Y", "%Y/%m/%d")
FORMATS_MONTH_FIRST = ("%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y", "%b %d %Y", "%B %d %Y", "%Y/%m/%d",
                       "%d %b %Y", "%d %B %Y")

_ORDINAL = re.compile(r"(\d)(st|nd|rd|th)\b", re.I)


class DateFormatError(ValueError):
    pass


def parse_date(value, day_first: bool = True) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not str(value).strip():
        raise DateFormatError("no date")
    text = _ORDINAL.sub(r"\1", " ".join(str(value).replace(",", " ").split()))
    if text[:10].count("-") == 2 and len(text) > 10 and text[10] in " T":
        text = text[:10]  # an ISO date with a time of day
    no_such_day = False
    for fmt in FORMATS_DAY_FIRST if day_first else FORMATS_MONTH_FIRST:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError as exc:
            # Written as a date is, but 31/02 or 29/02 of a common year: say so, not "format".
            no_such_day = no_such_day or "out of range" in str(exc)
            continue
    if no_such_day:
        raise DateFormatError(
            f"{str(value)[:40]!r} is not a day of the calendar (that month is shorter): "
            f"mend the day or the month")
    raise DateFormatError(
        f"{str(value)[:40]!r} is not a date format this import reads: write dates as "
        f"2024-03-05, 05/03/2024 or 5 Mar 2024")
