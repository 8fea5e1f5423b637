"""The score sheets as a PDF, drawn on the server with ReportLab (wheels from pip, its C
accelerator included: nothing to install on the machine). It draws the same pages as the print view (``sheets.layout``), A4
portrait, with the club, the date and the house rule (and its version) at the top of every page.

A sheet is a fixed grid, as on paper: one line of type a row, the columns' widths given by the
layout. So each page is drawn straight onto ReportLab's canvas rather than through its
flowing-layout engine (platypus), which measures, wraps and styles every cell one by one and
cost about 6 ms a page; a long night is dozens of pages of the same grid (issue #15's budget: a
100-hand table's sheets at most 3 times a 24-hand table's). A grid longer than the page (the
tally sheet of a long table) goes on over the page with its header repeated.

Plain Python (no Django): a management command or a bench script can call it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from sheets.layout import Document, HeaderCell, Page, Row

CONTENT_TYPE = "application/pdf"
MARGIN = 12 * mm
WIDTH = A4[0] - 2 * MARGIN
TOP = A4[1] - MARGIN - 7 * mm  # below the running heading
BOTTOM = MARGIN + 4 * mm  # above the page number
# Bitstream Vera ships inside ReportLab: embedded, so names with accents print and a PDF
# reader (or pypdf) reads the text back; the 14 standard fonts know only Latin-1.
FONT, BOLD = "SheetVera", "SheetVeraBold"
# Vera has no Chinese or Japanese letters: a text with such a letter is set in Adobe's standard
# CJK font, which PDF readers supply rather than the file, so a Hong Kong club's names print.
ASIAN = "STSong-Light"

INK = colors.black
MUTED = colors.HexColor("#5b6770")  # a struck-through or sat-out row
NOTE = colors.HexColor("#444444")
RULE = colors.HexColor("#777777")  # the grid's lines
SHADE = colors.HexColor("#eeeeee")  # behind the header

CELL = 8  # a figure's type size
HEAD, NARROW_HEAD = 7.5, 6  # the header's; the narrow one when there are more than 10 columns
SMALLEST = 5  # a figure too wide for its column is set smaller, down to this
PAD_X, PAD_Y, HEAD_PAD_X = 3, 2, 1.5
ROW = 13.5  # a row of figures
BLANK_ROW = ROW + 6  # a row to write in by hand


def _fonts() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(BOLD, "VeraBd.ttf"))
        pdfmetrics.registerFont(UnicodeCIDFont(ASIAN))


def _face(text: str, font: str) -> str:
    """``font``, or the CJK font for a text with a letter that Vera has no glyph for."""
    if text.isascii():
        return font
    glyphs = pdfmetrics.getFont(font).face.charToGlyph
    return font if all(ord(ch) in glyphs for ch in text) else ASIAN


def render(doc: Document) -> bytes:
    """The whole document as PDF bytes: each of its pages on a new sheet of paper."""
    _fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4)
    canvas.setTitle(f"{doc.title} · {doc.heading}")
    canvas.setAuthor(doc.heading.split(" · ")[0])
    canvas.setCreator("Mah-jong club scores")
    paper = _Paper(canvas, doc)
    grids: dict[tuple, _Grid] = {}  # a player's sheets share one grid: laid out once
    for page in doc.pages:
        paper.turn()
        key = (page.kind, page.header, page.numeric_from)
        if key not in grids:
            grids[key] = _Grid(page)
        _draw_page(paper, page, grids[key])
    if not doc.pages:
        paper.turn()
    canvas.save()
    return out.getvalue()


class _Paper:
    """The canvas and how far down the current sheet of paper the drawing has come."""

    def __init__(self, canvas: Canvas, doc: Document):
        self.canvas = canvas
        self.doc = doc
        self.number = 0
        self.y = TOP

    def turn(self) -> None:
        """A new sheet, with the club, the date and the house rule at its top and its number at
        its foot."""
        c = self.canvas
        if self.number:
            c.showPage()
        self.number += 1
        c.setFillColor(INK)
        c.setFont(_face(self.doc.heading, FONT), 8)
        c.drawString(MARGIN, A4[1] - MARGIN, self.doc.heading)
        c.setFont(_face(self.doc.title, FONT), 8)
        c.drawRightString(A4[0] - MARGIN, A4[1] - MARGIN, self.doc.title)
        c.setFont(FONT, 8)
        c.drawRightString(A4[0] - MARGIN, MARGIN, f"Page {self.number}")
        self.y = TOP

    def fits(self, height: float) -> bool:
        return self.y - height >= BOTTOM


def _draw_page(paper: _Paper, page: Page, grid: _Grid) -> None:
    c = paper.canvas
    c.setFont(_face(page.title, BOLD), 13)
    c.drawString(MARGIN, paper.y - 12, page.title)
    paper.y -= 18
    _draw_fields(paper, page.fields)
    paper.y -= 5
    grid.draw(paper, page.rows)
    if page.footnote:
        font = _face(page.footnote, FONT)
        lines = simpleSplit(page.footnote, font, 7.5, WIDTH)
        paper.y -= 3 * mm
        if not paper.fits(9 * len(lines)):
            paper.turn()
        c.setFillColor(NOTE)
        c.setFont(font, 7.5)
        for line in lines:
            c.drawString(MARGIN, paper.y - 7.5, line)
            paper.y -= 9


def _draw_fields(paper: _Paper, fields: tuple[tuple[str, str], ...]) -> None:
    """``Name: …   Date: …`` with the names in bold, going on to another line if need be."""
    c = paper.canvas
    size, leading, gap = 9.5, 12, 10
    x = MARGIN
    for key, value in fields:
        label = f"{key}: "
        face = _face(value, FONT)
        width = stringWidth(label, BOLD, size) + stringWidth(value, face, size)
        if x > MARGIN and x + width > MARGIN + WIDTH:
            x = MARGIN
            paper.y -= leading
        # One piece of text, the name in bold and the value not: a reader reads them as one.
        text = c.beginText(x, paper.y - 9)
        text.setFont(BOLD, size)
        text.textOut(label)
        text.setFont(face, size)
        text.textOut(value)
        c.drawText(text)
        x += width + gap
    paper.y -= leading


@dataclass(frozen=True)
class _Placed:
    """A header cell where it lands on the grid, with its words wrapped to its width."""

    row: int
    col: int
    cell: HeaderCell
    lines: tuple[str, ...]
    font: str
    size: float


class _Grid:
    """A page's grid: the header (repeated on each sheet of paper the grid runs onto) and the
    rows below it. It depends only on the page's kind and header, so pages alike share one."""

    def __init__(self, page: Page):
        self.kind = page.kind
        self.header = page.header
        self.numeric_from = page.numeric_from
        self.xs = [MARGIN]
        for share in page.widths:
            self.xs.append(self.xs[-1] + WIDTH * share)
        self.xs[-1] = MARGIN + WIDTH
        # Narrow columns (five players and a pot) get a smaller header, so no word breaks.
        self.head_size = HEAD if page.columns <= 10 else NARROW_HEAD
        self.placed = self._place_header()
        self.head_heights = self._head_heights()

    # -- the header -----------------------------------------------------------------------------

    def _place_header(self) -> list[_Placed]:
        """Each header cell at its row and column, stepping past the cells that span down into
        its row from above."""
        taken: set[tuple[int, int]] = set()
        placed = []
        for r, cells in enumerate(self.header):
            c = 0
            for cell in cells:
                while (r, c) in taken:
                    c += 1
                width = self.xs[c + cell.colspan] - self.xs[c] - 2 * HEAD_PAD_X
                font = _face(cell.text, BOLD)
                lines, size = _wrap(cell.text, font, self.head_size, width)
                placed.append(_Placed(r, c, cell, tuple(lines), font, size))
                taken.update((rr, cc) for rr in range(r, r + cell.rowspan)
                             for cc in range(c, c + cell.colspan))
                c += cell.colspan
        return placed

    def _head_heights(self) -> list[float]:
        """Each header row tall enough for its cells' lines; a cell spanning rows that needs
        more than they give makes the last of them taller."""
        heights = [ROW] * len(self.header)
        for p in sorted(self.placed, key=lambda p: p.cell.rowspan):
            need = len(p.lines) * (p.size + 1.5) + 2 * PAD_Y
            span = range(p.row, p.row + p.cell.rowspan)
            short = need - sum(heights[r] for r in span)
            if short > 0:
                heights[span[-1]] += short
        return heights

    def _draw_header(self, paper: _Paper) -> None:
        c = paper.canvas
        top = paper.y
        tops = [top]
        for h in self.head_heights:
            tops.append(tops[-1] - h)
        c.setFillColor(SHADE)
        c.rect(MARGIN, tops[-1], WIDTH, top - tops[-1], stroke=0, fill=1)
        c.setFillColor(INK)
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        for p in self.placed:
            x0, x1 = self.xs[p.col], self.xs[p.col + p.cell.colspan]
            y0, y1 = tops[p.row], tops[p.row + p.cell.rowspan]
            c.rect(x0, y1, x1 - x0, y0 - y1, stroke=1, fill=0)
            c.setFont(p.font, p.size)
            leading = p.size + 1.5
            middle = (y0 + y1) / 2 + (len(p.lines) - 1) * leading / 2
            for i, line in enumerate(p.lines):
                c.drawCentredString((x0 + x1) / 2, middle - i * leading - p.size * 0.35, line)
        paper.y = tops[-1]

    # -- the rows -------------------------------------------------------------------------------

    def draw(self, paper: _Paper, rows: tuple[Row, ...]) -> None:
        if not paper.fits(sum(self.head_heights) + ROW):
            paper.turn()
        self._draw_header(paper)
        drawn = _Lines(self.xs)
        for block in self._blocks(rows):
            height = sum(self._height(row) for row in block)
            if not paper.fits(height):
                drawn.stroke(paper.canvas)
                paper.turn()
                self._draw_header(paper)
                drawn = _Lines(self.xs)
            for row in block:
                self._draw_row(paper, row, drawn)
        drawn.stroke(paper.canvas)

    def _blocks(self, rows: tuple[Row, ...]) -> list[list[Row | str]]:
        """The rows as they must stay together: a struck-through hand with the note under it
        (a note is a plain string)."""
        blocks: list[list[Row | str]] = []
        for row in rows:
            blocks.append([row, row.note] if row.kind == "void" and row.note else [row])
        return blocks

    def _height(self, row: Row | str) -> float:
        if isinstance(row, str):
            return len(self._note_lines(row)) * 9 + 2 * PAD_Y
        return BLANK_ROW if row.kind == "blank" else ROW

    def _note_lines(self, note: str) -> list[str]:
        return simpleSplit(note, _face(note, FONT), 7.5, WIDTH - 2 * PAD_X)

    def _draw_row(self, paper: _Paper, row: Row | str, drawn: _Lines) -> None:
        c = paper.canvas
        top = paper.y
        height = self._height(row)
        bottom = top - height
        paper.y = bottom
        if isinstance(row, str):  # a struck-through hand's note, across the whole grid
            drawn.row(top, bottom, (self.xs[0], self.xs[-1]))
            c.setFillColor(NOTE)
            c.setFont(_face(row, FONT), 7.5)
            for i, line in enumerate(self._note_lines(row)):
                c.drawString(self.xs[0] + PAD_X, top - PAD_Y - 7 - i * 9, line)
            return
        spans_label = row.is_foot and self.kind != "tally"
        edges = tuple(x for i, x in enumerate(self.xs) if not (spans_label and i == 1))
        drawn.row(top, bottom, edges)
        if row.kind == "totals":
            drawn.heavy(top)
        font = BOLD if row.is_foot else FONT
        # The row's figures are one piece of text, each placed at its column.
        text = c.beginText()
        text.setFillColor(MUTED if row.kind in ("void", "out") else INK)
        baseline = bottom + (height - CELL * 0.7) / 2
        set_type = None
        for col, cell in enumerate(row.cells):
            if not cell:
                continue
            label = spans_label and col == 0
            left, right = self.xs[col], self.xs[2 if label else col + 1]
            face = _face(cell, font)
            size, wide = _fit_line(cell, face, CELL, right - left - 2 * PAD_X)
            start = (right - PAD_X - wide if col >= self.numeric_from and not label
                     else left + PAD_X)
            if (face, size) != set_type:
                text.setFont(face, size)
                set_type = (face, size)
            text.setTextOrigin(start, baseline)
            text.textOut(cell)
            if row.kind == "void":
                drawn.strike(start, start + wide, baseline + size * 0.3)
        c.drawText(text)


class _Lines:
    """The grid's lines on one sheet of paper, gathered while the rows are drawn and stroked
    together: a column's edge is one line down every row that has it, not one a cell."""

    def __init__(self, xs: list[float]):
        self.xs = xs
        self.rows: list[tuple[float, float, tuple[float, ...]]] = []
        self.heavies: list[float] = []
        self.strikes: list[tuple[float, float, float, float]] = []

    def row(self, top: float, bottom: float, edges: tuple[float, ...]) -> None:
        self.rows.append((top, bottom, edges))

    def heavy(self, y: float) -> None:
        self.heavies.append(y)

    def strike(self, x0: float, x1: float, y: float) -> None:
        self.strikes.append((x0, y, x1, y))

    def stroke(self, c: Canvas) -> None:
        if not self.rows:
            return
        left, right = self.xs[0], self.xs[-1]
        segments = [(left, bottom, right, bottom) for _, bottom, _ in self.rows]
        for x in self.xs:
            start = end = None
            for top, bottom, edges in self.rows:
                if x in edges:
                    start = top if start is None else start
                    end = bottom
                elif start is not None:
                    segments.append((x, start, x, end))
                    start = None
            if start is not None:
                segments.append((x, start, x, end))
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.lines(segments)
        if self.heavies:
            c.setStrokeColor(INK)
            c.setLineWidth(1.2)
            c.lines([(left, y, right, y) for y in self.heavies])
        if self.strikes:
            c.setStrokeColor(MUTED)
            c.setLineWidth(0.5)
            c.lines(self.strikes)


def _wrap(text: str, font: str, size: float, width: float) -> tuple[list[str], float]:
    """The words wrapped to the width; a word wider than the column sets the type smaller."""
    lines = simpleSplit(text, font, size, width)
    widest = max((stringWidth(line, font, size) for line in lines), default=0)
    if widest > width:
        size = max(SMALLEST, size * width / widest)
    return lines, size


def _fit_line(text: str, font: str, size: float, width: float) -> tuple[float, float]:
    """The type size at which a figure fits its column (smaller only when it must), and the
    figure's width at that size."""
    wide = stringWidth(text, font, size)
    if wide <= width:
        return size, wide
    smaller = max(SMALLEST, size * width / wide)
    return smaller, wide * smaller / size
