"""Table cards print every member's name (issue #25, as the score sheets): each letter in an
embedded font that has it (Vera, DejaVu Sans, Droid Sans Fallback), no unembedded CJK font, no
bidi marks printed."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from door.cards import Card, CardSeat, NightCards, render


def test_names_in_any_script_print_from_embedded_fonts():
    night = NightCards("香港麻雀會 Jade", "Saturday 21 November 2026", (
        Card(1, "BMJA", (CardSeat("E", "陈大文 Chan"), CardSeat("S", "Ольга Σοφία"),
                         CardSeat("W", "\u202bשרה\u202c Levi"), CardSeat("N", "X" * 80))),))
    for paper in ("a4", "a6"):
        reader = PdfReader(io.BytesIO(render(night, paper)))
        text = "\n".join(page.extract_text() for page in reader.pages)
        assert "陈大文 Chan" in text and "Ольга Σοφία" in text and "香港麻雀會" in text
        assert not re.search("[\u200e\u200f\u202a-\u202e\ufffd]", text)
        assert "…" in text  # the 80 X's cut short to their box
        for page in reader.pages:
            for font in page["/Resources"]["/Font"].values():
                font = font.get_object()
                assert "/FontFile2" in font["/FontDescriptor"].get_object(), font["/BaseFont"]
