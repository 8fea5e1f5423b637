"""Text cells that a spreadsheet will show, never run (OWASP "CSV Injection").

Names, notes and house-rule wording are typed by members, guests and other clubs' admins, and
a club's published standings are public: a player named ``=HYPERLINK("http://x","y")`` must
reach a spreadsheet as those characters, not as a live formula. Numbers stay numbers (a net of
-120 is a number, not text starting with a minus). Each format neutralises text its own way:
CSV prefixes risky text with a quote (``csv_text``); XLSX writes every text as a string cell,
which a spreadsheet never evaluates (``exports.xlsx_format``).
"""

from __future__ import annotations

from typing import Any

# The characters a spreadsheet reads as the start of a formula, as OWASP lists them: equals,
# plus, minus, at, tab and carriage return.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: Any) -> Any:
    """``value`` as a CSV cell: text that a spreadsheet would read as a formula gets a leading
    single quote (OWASP's advice), so it opens as the text it is; a carriage return inside
    text becomes a line feed (quoted with the cell); anything else (numbers, empty cells, safe
    text) is unchanged."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS):
        value = "'" + value
    if "\r" in value:
        # Python's CSV writer quotes a cell holding a line feed but not one holding a bare
        # carriage return, which readers then take for the end of the row: one line break.
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value
