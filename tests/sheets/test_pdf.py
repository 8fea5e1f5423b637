"""The PDF drawer on its own (``sheets.pdf``): pages it is given, read back with pypdf."""

from __future__ import annotations

import io

from pypdf import PdfReader

from sheets import pdf
from sheets.layout import Document, HeaderCell, Page, Row

TALLY_HEADER = (
    (HeaderCell("Hand", rowspan=2), HeaderCell("Winning score", rowspan=2),
     HeaderCell("Prevailing wind", rowspan=2), HeaderCell("Player: 王伟", colspan=2),
     HeaderCell("Player: Zoë", colspan=2)),
    tuple(HeaderCell(t) for _ in range(2) for t in ("Total", "Payments")),
)


def _pages(doc: Document) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf.render(doc))).pages]


def test_a_grid_longer_than_the_page_goes_on_with_its_header_repeated():
    rows = tuple(Row((str(n), "40", "East", "2,000", f"{n:+,}", "2,000", f"{-n:+,}"))
                 for n in range(1, 101))
    page = Page("tally", "Table 1 · score sheet", (("Table", "1"),), TALLY_HEADER,
                rows + (Row(("Final", "", "", "7,050", "", "-3,050", ""), "final"),),
                numeric_from=3, footnote="Total: each player's tally as the hand starts.")
    texts = _pages(Document("Jade Dragon Club · 21 Nov 2026", "Score sheets", (page,)))
    assert len(texts) > 1
    for number, text in enumerate(texts, start=1):
        assert "Jade Dragon Club" in text and f"Page {number}" in text
        assert "Player: 王伟" in text and "Payments" in text  # the header on every sheet
    lines = "\n".join(texts).splitlines()
    # Every hand once, in order, then the foot row and the footnote on the last sheet.
    hands = [line.split()[0] for line in lines if " 40 East " in line]
    assert hands == [str(n) for n in range(1, 101)]
    assert "Final 7,050 -3,050" in texts[-1] and "each player's tally" in texts[-1]


def test_chinese_names_are_set_in_a_font_that_has_them():
    """Vera has no Chinese letters: such a name is set in the standard CJK font and reads back,
    where Vera would print empty boxes."""
    page = Page("summary", "The night's final totals", (("Date", "21 Nov 2026"),),
                ((HeaderCell("Place"), HeaderCell("Player"), HeaderCell("Table"),
                  HeaderCell("Hands"), HeaderCell("Final total")),),
                (Row(("1", "陈大文", "1", "12", "1,234")), Row(("2", "Zoë Łukasz", "1", "12",
                                                               "-1,234"))),
                numeric_from=3)
    [text] = _pages(Document("香港麻雀會 · 21 Nov 2026", "Score sheets", (page,)))
    assert "香港麻雀會" in text
    assert "1 陈大文 1 12 1,234" in text and "2 Zoë Łukasz 1 12 -1,234" in text
