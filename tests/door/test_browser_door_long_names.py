"""The door's draw on a phone with names a club really has (QA, phone pass): the tables were
boxes two to a row at 390 px, about 70 px left for a name, so a long name with spaces broke
inside its words and a name without spaces ran down the box a letter or two a line. Now a
name wraps at its spaces, and a word longer than the line breaks only where the line ends."""

from __future__ import annotations

import math

import pytest
from django.utils import timezone

from clubs.models import ClubSession, Member
from tests.web.test_browser_every_page import OVERFLOW
from tests.web.test_browser_record import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = (
    "Bartholomew Fitzwilliam-Featherstonehaugh Montgomery-Smythe the Third of Wessex",
    "Supercalifragilisticexpialidociousandthensomemorelettersinonename",
    "margaret.featherstonehaugh@example.org.uk",
    "محمد عبد الرحمن الشريف",
    "🀄 Dragon 🐉🐉🐉",
    "<script>alert(1)</script>",
    "Ann", "Bea",
)

# Each seated name's box: its width, the lines it takes, and the longest word's width alone.
NAME_BOXES = r"""() => [...document.querySelectorAll('.door-seat .door-who')].map(e => {
    const line = parseFloat(getComputedStyle(e).lineHeight) || 24;
    return {name: e.textContent.trim(), title: e.title,
            width: Math.round(e.getBoundingClientRect().width),
            lines: Math.round(e.getBoundingClientRect().height / line)};
})"""


@pytest.mark.parametrize("width", [320, 390])
def test_the_draw_keeps_long_names_readable(chromium, live_server, club, users, bmja_version,
                                            width):
    for name in NAMES:
        Member.objects.create(club=club, display_name=name)
    night = ClubSession.objects.create(club=club, date=timezone.localdate(),
                                       house_rule_version=bmja_version)
    page = chromium.new_context(viewport={"width": width, "height": 844}).new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{night.pk}/door/")
        for name in NAMES:
            page.get_by_label(name, exact=True).check()
        # Each tick box keeps its size beside a long name (one was squeezed to a dot).
        boxes = page.locator(".door-members input[type=checkbox]").evaluate_all(
            "els => els.map(e => Math.round(e.getBoundingClientRect().width))")
        assert min(boxes) >= 20, boxes
        page.click("#save-members")
        page.wait_for_selector(f"text={len(NAMES)} here")
        page.click("#draw-tables")
        page.wait_for_selector("#quality")
        page.locator(".door-tables").screenshot(
            path=f"tests/screenshots/door-long-names-{width}.png")
        boxes = page.evaluate(NAME_BOXES)
        assert sorted(b["name"] for b in boxes) == sorted(NAMES)
        for box in boxes:
            # Room for a dozen letters or more a line: never a column of letters.
            assert box["width"] >= 150, box
            # At most one line a word, and a word longer than a line over few lines.
            longest = max(len(word) for word in box["name"].split())
            most = len(box["name"].split()) + math.ceil(longest / 14)
            assert box["lines"] <= most, box
            assert box["title"] == box["name"], box
        found = page.evaluate(OVERFLOW)
        assert found["page"] <= found["width"] and not found["wide"], found
        assert page.locator("main script").count() == 0
    finally:
        page.context.close()
