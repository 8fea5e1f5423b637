"""The rows of a sheet's grid as HTML.

Built here rather than in the template: a long night's sheets are thousands of cells, and the
template language's loop, tests and escaping for each cell cost more than everything else on the
page together (issue #15's budget: a 100-hand table's sheet at most 3 times a 24-hand one's).
Each cell's text is escaped here, as the template would have done.
"""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from sheets.layout import Page, Row

register = template.Library()


@register.simple_tag
def sheet_rows(page: Page) -> SafeString:
    """The ``<tr>`` of each row: figures right-aligned from the page's first figure column;
    Totals, Subtract and Final totals with their label across the first two columns (the tally
    sheet's foot has one label column); a struck-through hand's note on a row of its own."""
    label_spans = page.kind != "tally"
    parts: list[str] = []
    for row in page.rows:
        parts.append(f'<tr class="row-{escape(row.kind)}">')
        if row.is_foot and label_spans:
            parts.append(f'<th colspan="2" scope="row">{escape(row.cells[0])}</th>')
            parts += [f'<td class="num">{escape(cell)}</td>' for cell in row.cells[2:]]
        else:
            parts += [_cell(row, i, page.numeric_from) for i in range(len(row.cells))]
        parts.append("</tr>")
        if row.kind == "void" and row.note:
            parts.append(f'<tr class="row-note"><td colspan="{page.columns}">'
                         f"{escape(row.note)}</td></tr>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def _cell(row: Row, index: int, numeric_from: int) -> str:
    text = escape(row.cells[index])
    if index == 1 and row.mark:  # "wall game", "goulash" beside the hand's number
        text += f' <span class="hand-mark">{escape(row.mark)}</span>'
    return f'<td class="num">{text}</td>' if index >= numeric_from else f"<td>{text}</td>"
