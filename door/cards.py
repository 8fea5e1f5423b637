"""Table cards for a night's seated tables, as a PDF drawn with ReportLab (as the score sheets
are): a card per table with its players and their starting winds, and one wall sheet listing
everyone's table and wind, alphabetically.

Papers: ``a6`` is one card a page (A6, for a card printer or a stand); ``a4`` puts four cards on
each A4 sheet, with cut lines, then the wall sheet. Names are what people typed: they are drawn
as plain strings (no markup is read), set smaller to fit their box and cut with an ellipsis if
they still do not; each letter is set in an embedded font that has it (``sheets.pdf_text``, as
the score sheets: Vera, DejaVu Sans for Greek, Cyrillic, Hebrew and Arabic, Droid Sans Fallback
for Chinese, Japanese and Korean), a right-to-left name in reading order.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, A6
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from sheets import pdf_text
from sheets.pdf_text import BOLD, FONT, clean, fit_line, runs

CONTENT_TYPE = "application/pdf"
PAPERS = ("a4", "a6")
INK = colors.black
MUTED = colors.HexColor("#5b6770")
LINE = colors.HexColor("#999999")
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North", "": "Out first hand"}


class NoTables(Exception):
    """Nothing to print yet."""


@dataclass(frozen=True)
class CardSeat:
    wind: str  # "E", "S", "W", "N" or "" (out for the first hand)
    name: str


@dataclass(frozen=True)
class Card:
    number: int
    rule: str
    seats: tuple[CardSeat, ...]


@dataclass(frozen=True)
class NightCards:
    club: str
    date: str
    cards: tuple[Card, ...]


# -- reading the night ---------------------------------------------------------------------


def night_cards(session) -> NightCards:
    """Every table of the night (seated by the draw or by hand), in number order."""
    tables = list(session.tables.order_by("number")
                  .select_related("house_rule_version__record")
                  .prefetch_related("seats__member"))
    if not tables:
        raise NoTables("No tables are seated tonight yet: accept a draw (or add a table) first.")
    night_rule = session.house_rule_version.record.name
    cards = tuple(
        Card(t.number, t.house_rule_version.record.name if t.house_rule_version_id
             else night_rule,
             tuple(CardSeat(s.starting_wind, s.name)
                   for s in sorted(t.seats.all(), key=lambda s: s.position)))
        for t in tables)
    return NightCards(session.club.name, f"{session.date:%A %-d %B %Y}", cards)


# -- drawing ---------------------------------------------------------------------------------


def _say(c: Canvas, x: float, y: float, text: str, font: str, size: float, width: float,
         align: str = "left", smallest: float = 6) -> None:
    """``text`` fitted to ``width`` (smaller type down to ``smallest``, then cut with an
    ellipsis), each letter in a font that has it."""
    text, size, wide = fit_line(clean(text), font, size, width, smallest)
    if align == "centre":
        x += (width - wide) / 2
    t = c.beginText(x, y)
    for piece, face in runs(text, font):
        t.setFont(face, size)
        t.textOut(piece)
    c.drawText(t)


def _card(c: Canvas, night: NightCards, card: Card, x: float, y: float, w: float, h: float
          ) -> None:
    """One card in the box (x, y, w, h): club and date, the table, its rule, each seat."""
    pad = 7 * mm
    inner = w - 2 * pad
    top = y + h - pad
    c.setFillColor(MUTED)
    _say(c, x + pad, top - 8, night.club, FONT, 9, inner)
    _say(c, x + pad, top - 19, night.date, FONT, 9, inner)
    c.setFillColor(INK)
    _say(c, x + pad, top - 52, f"Table {card.number}", BOLD, 30, inner, "centre")
    c.setFillColor(MUTED)
    _say(c, x + pad, top - 66, card.rule, FONT, 8.5, inner, "centre")
    row = (h - 2 * pad - 80) / max(len(card.seats), 4)
    row = min(row, 17 * mm)
    ty = top - 80
    for seat in card.seats:
        ty -= row
        c.setStrokeColor(LINE)
        c.line(x + pad, ty + row - 2, x + w - pad, ty + row - 2)
        c.setFillColor(MUTED)
        _say(c, x + pad, ty + row / 2 - 3, WIND_NAMES.get(seat.wind, seat.wind), BOLD, 10,
             24 * mm)
        c.setFillColor(INK)
        _say(c, x + pad + 26 * mm, ty + row / 2 - 5, seat.name, BOLD, 16, inner - 26 * mm,
             smallest=7)


def _wall(c: Canvas, night: NightCards) -> None:
    """Everyone's table and wind on A4, alphabetically, in two columns when there are many."""
    width, height = A4
    margin = 15 * mm
    people = sorted(((s.name, card.number, s.wind) for card in night.cards
                     for s in card.seats), key=lambda p: (p[0].casefold(), p[1]))
    c.setFillColor(INK)
    _say(c, margin, height - margin - 16, "Tonight's tables", BOLD, 20, width - 2 * margin)
    c.setFillColor(MUTED)
    _say(c, margin, height - margin - 32, f"{night.club} · {night.date}", FONT, 11,
         width - 2 * margin)
    columns = 1 if len(people) <= 32 else 2
    per_column = -(-len(people) // columns) if people else 1
    line = min(7.5 * mm, (height - 2 * margin - 50) / max(per_column, 1))
    col_width = (width - 2 * margin) / columns
    for index, (name, number, wind) in enumerate(people):
        column, place = divmod(index, per_column)
        x = margin + column * col_width
        y = height - margin - 50 - (place + 1) * line
        c.setFillColor(INK)
        size = min(13, line / mm * 2)
        _say(c, x, y, name, FONT, size, col_width - 48 * mm)
        c.setFont(BOLD, size)
        c.drawString(x + col_width - 46 * mm, y, f"Table {number}")
        c.setFillColor(MUTED)
        c.setFont(FONT, size)
        c.drawString(x + col_width - 26 * mm, y, WIND_NAMES.get(wind, wind).split(" ")[0])


def render(night: NightCards, paper: str = "a4") -> bytes:
    if paper not in PAPERS:
        raise ValueError(f"paper is one of {', '.join(PAPERS)}")
    pdf_text.register()
    out = io.BytesIO()
    c = Canvas(out, pagesize=A4 if paper == "a4" else A6, initialFontName=FONT)
    c.setTitle(f"Tables · {night.club} · {night.date}")
    c.setAuthor(night.club)
    c.setCreator("Mah-jong club scores")
    if paper == "a6":
        for card in night.cards:
            _card(c, night, card, 0, 0, *A6)
            c.showPage()
        c.setPageSize(A4)
    else:
        w, h = A4[0] / 2, A4[1] / 2
        for start in range(0, len(night.cards), 4):
            c.setStrokeColor(LINE)
            c.setDash(3, 3)
            c.line(w, 0, w, A4[1])
            c.line(0, h, A4[0], h)
            c.setDash()
            for i, card in enumerate(night.cards[start:start + 4]):
                col, row = i % 2, i // 2
                _card(c, night, card, col * w, (1 - row) * h, w, h)
            c.showPage()
    _wall(c, night)
    c.showPage()
    c.save()
    return out.getvalue()
