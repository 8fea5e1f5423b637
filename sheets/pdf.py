"""The score sheets as a PDF, drawn on the server with ReportLab (wheels from pip, its C
accelerator included: nothing to install on the machine). It draws the same pages as the print view (``sheets.layout``), A4
portrait, with the club, the date and the house rule (and its version) at the top of every page.

A sheet is a fixed grid, as on paper: one line of type a row, the columns' widths given by the
layout. So each page is drawn straight onto ReportLab's canvas rather than through its
flowing-layout engine (platypus), which measures, wraps and styles every cell one by one and
cost about 6 ms a page; a long night is dozens of pages of the same grid (issue #15's budget: a
100-hand table's sheets at most 3 times a 24-hand table's). A grid longer than the page (the
tally sheet of a long table) goes on over the page with its header repeated. 004's per-player
sheet is half a page of paper, as 004 prints its template: two sheets share an A4 page, one
above a cut line and one below it (blank sheets too).

Every text is fitted to its cell (``sheets.pdf_text``): smaller type, then cut short with "…",
so a long name never runs over the next column; ``render(doc, ink=[])`` lists where each text
landed and the cell it had, which the tests hold.

Plain Python (no Django): a management command or a bench script can call it.
"""


from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from sheets import pdf_text
from sheets.layout import Document, HeaderCell, Page, Row
from sheets.pdf_text import BOLD, FONT, clean, fit_line, runs, width, wrap

CONTENT_TYPE = "application/pdf"
MARGIN = 12 * mm
WIDTH = A4[0] - 2 * MARGIN
TOP = A4[1] - MARGIN - 7 * mm  # below the running heading
BOTTOM = MARGIN + 4 * mm  # above the page number
MIDDLE = (TOP + BOTTOM) / 2  # the cut line between two per-player sheets
CUT_GAP = 4 * mm  # clear paper on each side of the cut line

INK = colors.black
MUTED = colors.HexColor("#5b6770")  # a struck-through or sat-out row, a hand's mark
NOTE = colors.HexColor("#444444")
RULE = colors.HexColor("#777777")  # the grid's lines
SHADE = colors.HexColor("#eeeeee")  # behind the header

CELL = 8  # a figure's type size
MARK = 6.5  # "wall game", "goulash" beside a hand's number
HEAD, NARROW_HEAD = 7.5, 6  # the header's; the narrow one when there are more than 10 columns
SMALLEST = 5  # a text too wide for its cell is set smaller, down to this, then cut short
HEAD_LINES = 3  # a header cell's words wrap to at most this many lines
TITLE, FIELD, NOTE_SIZE = 13, 9.5, 7.5
PAD_X, PAD_Y, HEAD_PAD_X = 3, 2, 1.5
ROW = 13.5  # a row of figures
BLANK_ROW = ROW + 4  # a row to write in by hand


@dataclass(frozen=True)
class Ink:
    """Where one text landed (``x0``-``x1``, baseline ``y``) and the cell it was given
    (``left``-``right``): what the tests read to hold every text inside its cell."""

    text: str
    x0: float
    x1: float
    y: float
    left: float
    right: float
    page: int


def render(doc: Document, ink: list[Ink] | None = None) -> bytes:
    """The whole document as PDF bytes. Per-player sheets two to a sheet of paper (when each
    fits half of it), every other page on a new sheet."""
    pdf_text.register()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, initialFontName=FONT, initialFontSize=8)
    canvas.setTitle(clean(f"{doc.title} · {doc.heading}"))
    canvas.setAuthor(clean(doc.heading.split(" · ")[0]))
    canvas.setCreator("Mah-jong club scores")
    paper = _Paper(canvas, doc, ink)
    grids: dict[tuple, _Grid] = {}  # a player's sheets share one grid: laid out once
    below_free = False  # the sheet of paper has a per-player sheet above the cut, none below
    for page in doc.pages:
        key = (page.kind, page.header, page.numeric_from)
        if key not in grids:
            grids[key] = _Grid(page)
        grid = grids[key]
        half = page.kind == "per_player" and _page_height(page, grid) <= MIDDLE - CUT_GAP - BOTTOM
        if half and below_free:
            paper.cut()
            _draw_page(paper, page, grid)
            below_free = False
            continue
        paper.turn()
        number = paper.number
        _draw_page(paper, page, grid)
        below_free = half and paper.number == number and paper.y >= MIDDLE + CUT_GAP
    if not doc.pages:
        paper.turn()
    canvas.save()
    return out.getvalue()


class _Paper:
    """The canvas and how far down the current sheet of paper the drawing has come."""

    def __init__(self, canvas: Canvas, doc: Document, ink: list[Ink] | None):
        self.canvas = canvas
        self.doc = doc
        self.ink = ink
        self.number = 0
        self.y = TOP

    def turn(self) -> None:
        """A new sheet, with the club, the date and the house rule at its top and its number at
        its foot."""
        c = self.canvas
        if self.number:
            c.showPage()
        self.number += 1
        # A text object starts in the canvas's font: Vera, so no unembedded Helvetica is named.
        c.setFont(FONT, 8)
        title = clean(self.doc.title)
        title_size = 8
        title, title_size, title_wide = fit_line(title, FONT, title_size, WIDTH / 3, SMALLEST)
        right = MARGIN + WIDTH
        self.text(title, FONT, title_size, right - title_wide, A4[1] - MARGIN,
                  (right - WIDTH / 3, right), INK)
        self.fitted(self.doc.heading, FONT, 8, MARGIN, A4[1] - MARGIN,
                    (MARGIN, right - title_wide - 4 * mm), INK)
        page = f"Page {self.number}"
        self.text(page, FONT, 8, right - width(page, FONT, 8), MARGIN, (MARGIN, right), INK)
        self.y = TOP

    def cut(self) -> None:
        """A dashed cut line across the middle of the sheet of paper; the next drawing starts
        below it."""
        c = self.canvas
        c.saveState()
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        c.setDash(3, 3)
        c.line(MARGIN, MIDDLE, MARGIN + WIDTH, MIDDLE)
        c.restoreState()
        self.y = MIDDLE - CUT_GAP

    def fits(self, height: float) -> bool:
        return self.y - height >= BOTTOM

    def text(self, text: str, font: str, size: float, x: float, y: float,
             cell: tuple[float, float], color, textobject=None) -> float:
        """Draw an already fitted text at (x, y), each letter in a font that has it, and note
        where it landed. Returns its width."""
        wide = width(text, font, size)
        if not text:
            return 0
        own = textobject is None
        t = self.canvas.beginText() if own else textobject
        t.setFillColor(color)
        t.setTextOrigin(x, y)
        for piece, face in runs(text, font):
            t.setFont(face, size)
            t.textOut(piece)
        if own:
            self.canvas.drawText(t)
        if self.ink is not None:
            self.ink.append(Ink(text, x, x + wide, y, cell[0], cell[1], self.number))
        return wide

    def fitted(self, text: str, font: str, size: float, x: float, y: float,
               cell: tuple[float, float], color, align: str = "left", pad: float = 0) -> float:
        """Fit ``text`` to the cell less its padding, then draw it aligned in it."""
        left, right = cell[0] + pad, cell[1] - pad
        text, size, wide = fit_line(clean(text), font, size, right - left, SMALLEST)
        if align == "right":
            x = right - wide
        elif align == "centre":
            x = (left + right - wide) / 2
        return self.text(text, font, size, x, y, cell, color)


def _field_lines(fields: tuple[tuple[str, str], ...]) -> list[list[tuple[str, str, float]]]:
    """``Name: …   Date: …`` set out in lines across the page: each (label, value, width), a
    value cut short if even a line of its own is too narrow for it."""
    gap = 10
    lines: list[list[tuple[str, str, float]]] = [[]]
    x = 0.0
    for key, value in fields:
        label = f"{key}: "
        label_wide = width(label, BOLD, FIELD)
        value, _, value_wide = fit_line(clean(value), FONT, FIELD, WIDTH - label_wide, FIELD)
        wide = label_wide + value_wide
        if x and x + wide > WIDTH:
            lines.append([])
            x = 0.0
        lines[-1].append((label, value, wide))
        x += wide + gap
    return lines


def _page_height(page: Page, grid: _Grid) -> float:
    """How much paper the page takes, drawn from the top: its title, fields, grid and
    footnote (what ``_draw_page`` moves down by)."""
    height = 18 + 12 * len(_field_lines(page.fields)) + 5
    height += sum(grid.head_heights) + sum(grid.height(row) for block in grid.blocks(page.rows)
                                           for row in block)
    if page.footnote:
        height += 3 * mm + 9 * len(_footnote_lines(page.footnote))
    return height


def _footnote_lines(footnote: str) -> list[str]:
    return wrap(clean(footnote), FONT, NOTE_SIZE, WIDTH, NOTE_SIZE, 8)[0]


def _draw_page(paper: _Paper, page: Page, grid: _Grid) -> None:
    paper.fitted(page.title, BOLD, TITLE, MARGIN, paper.y - 12, (MARGIN, MARGIN + WIDTH), INK)
    paper.y -= 18
    _draw_fields(paper, page.fields)
    paper.y -= 5
    grid.draw(paper, page.rows)
    if page.footnote:
        lines = _footnote_lines(page.footnote)
        paper.y -= 3 * mm
        if not paper.fits(9 * len(lines)):
            paper.turn()
        for line in lines:
            paper.text(line, FONT, NOTE_SIZE, MARGIN, paper.y - 7.5, (MARGIN, MARGIN + WIDTH),
                       NOTE)
            paper.y -= 9


def _draw_fields(paper: _Paper, fields: tuple[tuple[str, str], ...]) -> None:
    """``Name: …   Date: …`` with the names in bold, going on to another line if need be."""
    c = paper.canvas
    for line in _field_lines(fields):
        x = MARGIN
        for label, value, wide in line:
            # One piece of text, the name in bold and the value not: a reader reads them as one.
            text = c.beginText()
            paper.text(label, BOLD, FIELD, x, paper.y - 9, (MARGIN, MARGIN + WIDTH), INK, text)
            paper.text(value, FONT, FIELD, x + width(label, BOLD, FIELD), paper.y - 9,
                       (MARGIN, MARGIN + WIDTH), INK, text)
            c.drawText(text)
            x += wide + 10
        paper.y -= 12


@dataclass(frozen=True)
class _Placed:
    """A header cell where it lands on the grid, with its words wrapped to its width."""

    row: int
    col: int
    cell: HeaderCell
    lines: tuple[str, ...]
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
                room = self.xs[c + cell.colspan] - self.xs[c] - 2 * HEAD_PAD_X
                lines, size = wrap(clean(cell.text), BOLD, self.head_size, room, SMALLEST,
                                   HEAD_LINES)
                placed.append(_Placed(r, c, cell, tuple(lines), size))
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
        c.setStrokeColor(RULE)
        c.setLineWidth(0.4)
        for p in self.placed:
            x0, x1 = self.xs[p.col], self.xs[p.col + p.cell.colspan]
            y0, y1 = tops[p.row], tops[p.row + p.cell.rowspan]
            c.rect(x0, y1, x1 - x0, y0 - y1, stroke=1, fill=0)
            leading = p.size + 1.5
            middle = (y0 + y1) / 2 + (len(p.lines) - 1) * leading / 2
            for i, line in enumerate(p.lines):
                wide = width(line, BOLD, p.size)
                paper.text(line, BOLD, p.size, (x0 + x1 - wide) / 2,
                           middle - i * leading - p.size * 0.35, (x0, x1), INK)
        paper.y = tops[-1]

    # -- the rows -------------------------------------------------------------------------------

    def draw(self, paper: _Paper, rows: tuple[Row, ...]) -> None:
        if not paper.fits(sum(self.head_heights) + ROW):
            paper.turn()
        self._draw_header(paper)
        drawn = _Lines(self.xs)
        for block in self.blocks(rows):
            height = sum(self.height(row) for row in block)
            if not paper.fits(height):
                drawn.stroke(paper.canvas)
                paper.turn()
                self._draw_header(paper)
                drawn = _Lines(self.xs)
            for row in block:
                self._draw_row(paper, row, drawn)
        drawn.stroke(paper.canvas)

    def blocks(self, rows: tuple[Row, ...]) -> list[list[Row | str]]:
        """The rows as they must stay together: a struck-through hand with the note under it
        (a note is a plain string)."""
        blocks: list[list[Row | str]] = []
        for row in rows:
            blocks.append([row, row.note] if row.kind == "void" and row.note else [row])
        return blocks

    def height(self, row: Row | str) -> float:
        if isinstance(row, str):
            return len(self._note_lines(row)) * 9 + 2 * PAD_Y
        return BLANK_ROW if row.kind == "blank" else ROW

    def _note_lines(self, note: str) -> list[str]:
        return wrap(clean(note), FONT, NOTE_SIZE, WIDTH - 2 * PAD_X, NOTE_SIZE, 4)[0]

    def _draw_row(self, paper: _Paper, row: Row | str, drawn: _Lines) -> None:
        c = paper.canvas
        top = paper.y
        height = self.height(row)
        bottom = top - height
        paper.y = bottom
        if isinstance(row, str):  # a struck-through hand's note, across the whole grid
            drawn.row(top, bottom, (self.xs[0], self.xs[-1]))
            text = c.beginText()
            for i, line in enumerate(self._note_lines(row)):
                paper.text(line, FONT, NOTE_SIZE, self.xs[0] + PAD_X, top - PAD_Y - 7 - i * 9,
                           (self.xs[0], self.xs[-1]), NOTE, text)
            c.drawText(text)
            return
        spans_label = row.is_foot and self.kind != "tally"
        edges = tuple(x for i, x in enumerate(self.xs) if not (spans_label and i == 1))
        drawn.row(top, bottom, edges)
        if row.kind == "totals":
            drawn.heavy(top)
        font = BOLD if row.is_foot else FONT
        color = MUTED if row.kind in ("void", "out") else INK
        # The row's figures are one piece of text, each placed at its column.
        text = c.beginText()
        baseline = bottom + (height - CELL * 0.7) / 2
        for col, cell in enumerate(row.cells):
            if not cell:
                continue
            label = spans_label and col == 0
            left, right = self.xs[col], self.xs[2 if label else col + 1]
            cell, size, wide = fit_line(clean(cell), font, CELL, right - left - 2 * PAD_X,
                                        SMALLEST)
            start = (right - PAD_X - wide if col >= self.numeric_from and not label
                     else left + PAD_X)
            paper.text(cell, font, size, start, baseline, (left, right), color, text)
            if row.kind == "void":
                drawn.strike(start, start + wide, baseline + size * 0.3)
            if col == 1 and row.mark:
                # What kind of hand it was ("wall game", "goulash"), after its number.
                room = right - PAD_X - (start + wide + 3)
                mark, mark_size, _ = fit_line(row.mark, FONT, MARK, room, SMALLEST)
                paper.text(mark, FONT, mark_size, start + wide + 3, baseline, (left, right),
                           MUTED, text)
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
