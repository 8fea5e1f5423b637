"""The score sheets as a PDF, drawn on the server with ReportLab (pure Python: nothing to
install on the machine). It draws the same pages as the print view (``sheets.layout``), A4
portrait, with the club, the date and the house rule (and its version) at the top of every page.

Plain Python (no Django): a management command or a bench script can call it.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from sheets.layout import Document, Page

CONTENT_TYPE = "application/pdf"
MARGIN = 12 * mm
WIDTH = A4[0] - 2 * MARGIN
# Bitstream Vera ships inside ReportLab: embedded, so names with accents print and a PDF
# reader (or pypdf) reads the text back; the 14 standard fonts know only Latin-1.
FONT, BOLD = "SheetVera", "SheetVeraBold"


def _fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(BOLD, "VeraBd.ttf"))
        pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def _styles():
    return {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=13, leading=16, spaceAfter=2),
        "fields": ParagraphStyle("fields", fontName=FONT, fontSize=9.5, leading=12,
                                 spaceAfter=5),
        "cell": ParagraphStyle("cell", fontName=FONT, fontSize=8, leading=9.5, alignment=TA_LEFT),
        "head": ParagraphStyle("head", fontName=BOLD, fontSize=7.5, leading=9, alignment=1),
        "note": ParagraphStyle("note", fontName=FONT, fontSize=7.5, leading=9,
                               textColor=colors.HexColor("#444444")),
    }


def render(doc: Document) -> bytes:
    """The whole document as PDF bytes."""
    _fonts()
    styles = _styles()
    out = io.BytesIO()
    pdf = SimpleDocTemplate(
        out, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + 7 * mm,
        bottomMargin=MARGIN + 4 * mm, title=f"{doc.title} · {doc.heading}",
        author=doc.heading.split(" · ")[0], creator="Mah-jong club scores",
    )
    story: list = []
    for index, page in enumerate(doc.pages):
        if index:
            story.append(PageBreak())
        story += _page(page, styles)

    def decorate(canvas, document):
        # The club, the date and the house rule on every page, and the page number.
        canvas.saveState()
        canvas.setFont(FONT, 8)
        canvas.drawString(MARGIN, A4[1] - MARGIN, doc.heading)
        canvas.drawRightString(A4[0] - MARGIN, A4[1] - MARGIN, doc.title)
        canvas.drawRightString(A4[0] - MARGIN, MARGIN, f"Page {document.page}")
        canvas.restoreState()

    pdf.build(story, onFirstPage=decorate, onLaterPages=decorate)
    return out.getvalue()


def _page(page: Page, styles) -> list:
    fields = " &nbsp;&nbsp; ".join(f"<b>{escape(k)}:</b> {escape(v)}" for k, v in page.fields)
    parts = [Paragraph(escape(page.title), styles["title"]),
             Paragraph(fields, styles["fields"]), _grid(page, styles)]
    if page.footnote:
        parts += [Spacer(1, 3 * mm), Paragraph(escape(page.footnote), styles["note"])]
    return [KeepTogether(parts[:2]), *parts[2:]]


def _grid(page: Page, styles) -> Table:
    columns = sum(c.colspan for c in page.header[0])
    data: list[list] = []
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#777777")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (page.numeric_from, len(page.header)), (-1, -1), "RIGHT"),
        ("BACKGROUND", (0, 0), (-1, len(page.header) - 1), colors.HexColor("#eeeeee")),
        ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("LEFTPADDING", (0, 0), (-1, len(page.header) - 1), 1.5),
        ("RIGHTPADDING", (0, 0), (-1, len(page.header) - 1), 1.5),
    ]
    # Narrow columns (five players and a pot) get a smaller header, so no word breaks.
    head = styles["head"] if columns <= 10 else ParagraphStyle(
        "head-narrow", parent=styles["head"], fontSize=6, leading=7.5)
    # Header rows, with their spans laid out on the grid.
    taken: set[tuple[int, int]] = set()
    for r, cells in enumerate(page.header):
        row = [""] * columns
        c = 0
        for cell in cells:
            while (r, c) in taken:
                c += 1
            row[c] = Paragraph(escape(cell.text), head)
            if cell.colspan > 1 or cell.rowspan > 1:
                style.append(("SPAN", (c, r), (c + cell.colspan - 1, r + cell.rowspan - 1)))
            for rr in range(r, r + cell.rowspan):
                for cc in range(c, c + cell.colspan):
                    taken.add((rr, cc))
            c += cell.colspan
        data.append(row)
    for row in page.rows:
        r = len(data)
        if row.kind == "void":
            data.append([Paragraph(f"<strike>{escape(x)}</strike>", styles["cell"]) if x else ""
                         for x in row.cells])
            style.append(("TEXTCOLOR", (0, r), (-1, r), colors.HexColor("#5b6770")))
            if row.note:
                data.append([Paragraph(escape(row.note), styles["note"])]
                            + [""] * (columns - 1))
                style.append(("SPAN", (0, r + 1), (-1, r + 1)))
            continue
        data.append(list(row.cells))
        if row.is_foot:
            if page.kind != "tally":
                style.append(("SPAN", (0, r), (1, r)))
            style.append(("FONT", (0, r), (-1, r), BOLD, 8))
        if row.kind == "totals":
            style.append(("LINEABOVE", (0, r), (-1, r), 1.2, colors.black))
        if row.kind == "out":
            style.append(("TEXTCOLOR", (0, r), (-1, r), colors.HexColor("#5b6770")))
        if row.kind == "blank":
            style.append(("TOPPADDING", (0, r), (-1, r), 5))
            style.append(("BOTTOMPADDING", (0, r), (-1, r), 5))
    table = Table(data, colWidths=[WIDTH * w for w in page.widths],
                  repeatRows=len(page.header))
    table.setStyle(TableStyle(style))
    return table
