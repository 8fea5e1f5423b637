"""The printed sheets on paper (issue #25): 004's per-player sheets two to a sheet of A4 as 004
prints its template, the wall games and goulash hands marked, the "Opponents" band, every text
inside its cell whatever a member typed as a name, and the fonts embedded in the file."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from clubs.models import Hand, Seat
from sheets import pdf
from sheets.build import SheetRequest
from tests.sheets.nights import generated_session

pytestmark = pytest.mark.django_db

LONG_NAME = ("Maximilian-Alexander Fotheringham-Worthington-Smythe of Little Snoring Hall, "
             "Esq.")[:80]
NAMES = (LONG_NAME, "陈大文 Chan", "\u202bשרה\u202c \u200fLevi\u200e", "X" * 80)
MORE_NAMES = ("Ольга Σοφία", "محمد Ali", "Zoë Łukasz", "山田 花子")


@pytest.fixture
def night(club, house_rule_versions, users):
    """Eight players at two tables, ten hands each (wall games, goulash hands, a void)."""
    return generated_session(club, house_rule_versions, "bmja", users["scorer"], tables=2,
                             hands=10)


def rename(session, names=NAMES):
    seats = Seat.objects.filter(table__session=session, table__number=1).order_by("position")
    for seat, name in zip(seats, names, strict=False):
        seat.guest_name = name
        seat.save(update_fields=["guest_name"])


def pages_of(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_eight_players_sheets_on_four_pages_of_a4(night):
    """004 prints its template twice on a page: eight per-player sheets take four sheets of
    A4 (then the night's totals), filled in or blank."""
    texts = pages_of(pdf.render(SheetRequest(night).document()))
    assert len(texts) == 4 + 1
    for text in texts[:4]:
        assert text.count("Wind of the Round:") == 2  # two sheets on every page
        assert text.count("Jade Dragon Club") == 1  # the club's heading once a page
    assert "The night's final totals" in texts[4]
    blank = pages_of(pdf.render(SheetRequest(night, blank=True).document()))
    assert len(blank) == 4 and all(t.count("Wind of the Round:") == 2 for t in blank)
    one_table = pages_of(pdf.render(SheetRequest(night, night.tables.get(number=2)).document()))
    assert len(one_table) == 2


def test_wall_games_and_goulash_hands_are_marked(night):
    hands = Hand.objects.filter(table__session=night, voided=False)
    walls = {(h.table.number, h.number) for h in hands if h.draw}
    goulash = {(h.table.number, h.number) for h in hands if h.goulash and not h.draw}
    assert walls and goulash  # the generated night has both (bmja: a goulash after a wall game)
    text = "\n".join(pages_of(pdf.render(SheetRequest(night).document())))
    for table, number in walls:
        # Every player of the table has the mark on their sheet beside the hand's number.
        assert len(re.findall(rf"(?:East|South|West|North) {number} (?:goulash )?wall game",
                              text)) >= 4, (table, number)
    for _table, number in goulash:
        assert len(re.findall(rf"(?:East|South|West|North) {number} goulash\b", text)) >= 4


def test_the_opponents_band_stands_over_the_three_opponents(night):
    page = SheetRequest(night).document().pages[0]
    top, names, money = page.header
    assert [c.text for c in top] == ["Wind", "Hand", "Opponents", "Win", "Lose"]
    assert top[2].colspan == 6 and len(names) == 3 and all(c.colspan == 2 for c in names)
    assert [c.text for c in money] == ["Receive", "Pay"] * 3
    text = pages_of(pdf.render(SheetRequest(night).document()))[0]
    assert text.count("Opponents") == 2


@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("layout", ["per_player", "tally"])
def test_no_text_leaves_its_cell(night, layout, blank):
    """An 80-letter name, a name with no spaces, Chinese, right-to-left marks: each text is
    measured with ReportLab's stringWidth and set smaller or cut short to stay in its cell."""
    rename(night)
    ink: list[pdf.Ink] = []
    data = pdf.render(SheetRequest(night, layout=layout, blank=blank).document(), ink)
    assert ink
    for placed in ink:
        assert placed.left - 0.01 <= placed.x0 and placed.x1 <= placed.right + 0.01, placed
        assert placed.x1 - placed.x0 >= 0
    drawn = {placed.text for placed in ink}
    assert any("…" in t for t in drawn)  # the 80 X's were cut short somewhere
    text = "\n".join(pages_of(data))
    # Right-to-left marks and other invisible controls are not printed as boxes or "?".
    assert not re.search("[\u200e\u200f\u202a-\u202e\ufffd]", text)
    assert "陈大文 Chan" in text


def test_every_letter_has_a_glyph_and_right_to_left_names_read_right(night):
    """Greek, Cyrillic, Hebrew and Arabic letters (DejaVu Sans), Chinese and Japanese (Droid
    Sans Fallback) and Latin (Vera): every letter drawn is in the font it is set in, none a
    box; a Hebrew name prints in the order it is read, beside its Latin part."""
    from reportlab.pdfbase import pdfmetrics

    from sheets.pdf_text import runs

    rename(night)
    seats = Seat.objects.filter(table__session=night, table__number=2).order_by("position")
    for seat, name in zip(seats, MORE_NAMES, strict=True):
        seat.guest_name = name
        seat.save(update_fields=["guest_name"])
    ink: list[pdf.Ink] = []
    data = pdf.render(SheetRequest(night).document(), ink)
    for placed in ink:
        for piece, face in runs(placed.text, "SheetVera"):
            glyphs = pdfmetrics.getFont(face).face.charToGlyph
            missing = [ch for ch in piece if ch != " " and ord(ch) not in glyphs]
            assert not missing, (placed.text, face, missing)
    text = "\n".join(pages_of(data))
    assert "Ольга Σοφία" in text and "Zoë Łukasz" in text and "山田 花子" in text
    # On paper the Hebrew name reads right to left with "Levi" at its left end (a right-to-left
    # name); pypdf reads the drawn letters back into their logical order.
    assert "Levi שרה" in text
    # The Arabic letters are joined (presentation forms), not printed apart.
    assert "Ali ﻣﺤﻤﺪ" in text


def test_every_font_is_embedded(night):
    """Vera and the CJK font (Droid Sans Fallback, vendored) travel in the file, so a reader
    without Chinese fonts shows the names, not boxes."""
    rename(night)
    reader = PdfReader(io.BytesIO(pdf.render(SheetRequest(night).document())))
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            fonts[font["/BaseFont"]] = "/FontFile2" in descriptor
    assert any("DroidSansFallback" in name for name in fonts)
    assert all(fonts.values()) and not any("Helvetica" in name for name in fonts), fonts
