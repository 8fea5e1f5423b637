"""Text on the score sheets' PDF: which embedded font sets each letter, how wide a text is, and
how a text is fitted to its cell (smaller type, more lines, then cut short with "…"), so that
whatever a member typed as a name stays inside its cell.

Bitstream Vera (inside ReportLab) sets Latin text; DejaVu Sans (vendored in ``sheets/fonts/``,
Vera's licence) the Greek, Cyrillic, Hebrew and Arabic letters Vera lacks; Droid Sans Fallback
(vendored, Apache 2.0) Chinese, Japanese and Korean. All are embedded, so a reader without such
fonts still shows the names. A text mixing them (``Zoë 王``) is drawn as runs, each in the first
font that has its letters. A name with right-to-left letters is put in the order it is read
(python-bidi, the Unicode bidirectional algorithm), Arabic letters joined first
(arabic-reshaper): a PDF draws its letters left to right as given. Bidirectional control marks
(U+200E, U+202B, ...) that a phone's keyboard slips into a name have no glyph and would print
as a box or a replacement character: they are dropped, as are other control characters.

Plain Python (no Django).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import arabic_reshaper
from bidi import get_display
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

FONT, BOLD = "SheetVera", "SheetVeraBold"
WIDE, CJK = "SheetDejaVu", "SheetDroidFallback"
FONTS_DIR = Path(__file__).resolve().parent / "fonts"
WIDE_FILE = FONTS_DIR / "DejaVuSans.ttf"
CJK_FILE = FONTS_DIR / "DroidSansFallback.ttf"
ELLIPSIS = "…"

# Bidi controls (LRM, RLM, ALM, the embeddings, overrides and isolates), zero-width marks, the
# BOM and C0/C1 control characters: nothing to print.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\u061c\ufeff"
                        "\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SPACES = re.compile(r"[\t\n\r\u00a0\u2028\u2029]")


def register() -> None:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(BOLD, "VeraBd.ttf"))
        pdfmetrics.registerFont(TTFont(WIDE, str(WIDE_FILE)))
        pdfmetrics.registerFont(TTFont(CJK, str(CJK_FILE)))


def clean(text: str) -> str:
    """The text as it should print: invisible marks dropped, line breaks and tabs as spaces,
    right-to-left letters in the order they are read."""
    if text.isascii() and text.isprintable():
        return text
    text = _SPACES.sub(" ", _INVISIBLE.sub("", text))
    kinds = {unicodedata.bidirectional(ch) for ch in text}
    if "AL" in kinds:
        text = arabic_reshaper.reshape(text)
    if kinds & {"R", "AL"}:
        text = get_display(text)
    return text


def _glyphs(font: str):
    return pdfmetrics.getFont(font).face.charToGlyph


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """``text`` as (piece, font) runs: ``font`` where it has the letter, else DejaVu Sans, else
    the CJK font (a letter in none stays in ``font``, which prints its "missing" glyph)."""
    if text.isascii():
        return [(text, font)] if text else []
    mine, wide, cjk = _glyphs(font), _glyphs(WIDE), _glyphs(CJK)
    out: list[tuple[str, str]] = []
    for ch in text:
        code = ord(ch)
        face = (font if code in mine else WIDE if code in wide else CJK if code in cjk
                else font)
        if ch == " " and out:
            face = out[-1][1]  # a space stays in the run it divides
        if out and out[-1][1] == face:
            out[-1] = (out[-1][0] + ch, face)
        else:
            out.append((ch, face))
    return out


def width(text: str, font: str, size: float) -> float:
    if text.isascii():
        return stringWidth(text, font, size)
    return sum(stringWidth(piece, face, size) for piece, face in runs(text, font))


def ellipsize(text: str, font: str, size: float, room: float) -> str:
    """The longest start of ``text`` that fits ``room`` with "…" after it."""
    if width(text, font, size) <= room:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits, by halving
        mid = (low + high + 1) // 2
        if width(text[:mid].rstrip() + ELLIPSIS, font, size) <= room:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ""


def fit_line(text: str, font: str, size: float, room: float,
             smallest: float) -> tuple[str, float, float]:
    """(text, size, width) for one line in ``room`` points: the type made smaller (not below
    ``smallest``) when it must, then the text cut short with "…" if it still does not fit."""
    wide = width(text, font, size)
    if wide <= room:
        return text, size, wide
    smaller = max(smallest, size * room / wide)
    wide = wide * smaller / size
    if wide <= room:
        return text, smaller, wide
    text = ellipsize(text, font, smaller, room)
    return text, smaller, width(text, font, smaller)


def _break(text: str, font: str, size: float, room: float) -> list[str]:
    """Greedy word wrap; a word wider than the room (a long name, Chinese with no spaces) is
    broken between letters."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if width(trial, font, size) <= room:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and width(line + ch, font, size) > room:
                lines.append(line)
                line = ch
            else:
                line += ch
    if line or not lines:
        lines.append(line)
    return lines


def wrap(text: str, font: str, size: float, room: float, smallest: float,
         max_lines: int) -> tuple[list[str], float]:
    """The words in at most ``max_lines`` lines of ``room`` points: at ``size`` if they fit, else
    smaller (not below ``smallest``), else the last line cut short with "…"."""
    step = size
    while True:
        lines = _break(text, font, step, room)
        whole = all(width(line, font, step) <= room for line in lines)
        if len(lines) <= max_lines and whole:
            return lines, step
        if step <= smallest:
            break
        step = max(smallest, step - 0.5)
    kept = lines[:max_lines]
    if len(lines) > max_lines:
        kept[-1] = kept[-1] + " " + lines[max_lines]  # so the ellipsis shows text was cut
    kept = [ellipsize(line, font, step, room) for line in kept]
    return kept, step
