"""Each sheet printed to PDF by Chromium at A4 (issue #15): nothing wider than the page, the
pages A4, the heading on each. Five players with long names are the widest case (four
opponents' Receive and Pay columns, or five players' Total and Payments and a kitty). The PDFs
and a PNG of their pages go to tests/screenshots/ (git-ignored) for a person to look at.

Skipped only where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from django.urls import reverse
from pypdf import PdfReader

from clubs.models import Seat
from tests.sheets.nights import generated_session
from tests.web.conftest import PASSWORD, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A4_POINTS = (595.3, 841.9)  # 210 x 297 mm; Chromium rounds to whole pixels
# A4 less the print CSS's 12 mm margins, in CSS pixels (96 to the inch).
PRINTABLE_WIDTH = round((210 - 24) / 25.4 * 96)
LONG_NAMES = ("Bartholomew Fotheringham-Smythe", "Wilhelmina Featherstonehaugh",
              "Maximilian Oppenheimer-Jones", "Philippa Cholmondeley-Warner",
              "Kwame Adjei-Boateng")


def long_named(session):
    for seat in Seat.objects.filter(table__session=session).order_by("position"):
        seat.guest_name = LONG_NAMES[seat.position]
        seat.save(update_fields=["guest_name"])


def log_in(page, live_server, username):
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.parametrize(("slug", "layout", "blank"), [
    ("bmja-5-players", "per_player", False), ("guide-5-players", "tally", False),
    ("west-wind-goulash", "per_player", False), ("west-wind-goulash", "tally", False),
    ("bmja-5-players", "per_player", True), ("guide-5-players", "tally", True),
])
def test_each_sheet_prints_on_a4_with_nothing_wider_than_the_page(
        chromium, live_server, club, house_rule_versions, users, slug, layout, blank):
    session = generated_session(club, house_rule_versions, slug, users["scorer"], hands=14)
    long_named(session)
    page = chromium.new_context(viewport={"width": PRINTABLE_WIDTH, "height": 1100}).new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, users["member"].username)
    url = reverse("sheets:session", args=[club.slug, session.pk])
    page.goto(f"{live_server.url}{url}?layout={layout}{'&blank=1' if blank else ''}")
    page.emulate_media(media="print")
    widest = page.evaluate("""() => {
        const tables = [...document.querySelectorAll('table.sheet')];
        return {
            count: tables.length,
            right: Math.max(...tables.map(t => t.getBoundingClientRect().right)),
            scroll: Math.max(...tables.map(t => t.scrollWidth - t.clientWidth)),
            page: document.documentElement.scrollWidth,
            widest: [...document.querySelectorAll('body *')].filter(
                e => e.getBoundingClientRect().right > innerWidth).map(
                e => e.tagName + '.' + e.className + ':' + e.getBoundingClientRect().right).slice(0, 5),
        };
    }""")
    assert widest["count"] >= 1
    assert widest["right"] <= PRINTABLE_WIDTH and widest["scroll"] <= 0, widest
    # The document may round a collapsed half-pixel border up to one pixel more.
    assert widest["page"] <= PRINTABLE_WIDTH + 1 and not widest["widest"], widest

    data = page.pdf(format="A4", print_background=True)
    reader = PdfReader(io.BytesIO(data))
    name = f"sheet-{slug}-{layout}{'-blank' if blank else ''}"
    (SCREENSHOTS / f"{name}.pdf").write_bytes(data)
    for pdf_page in reader.pages:
        box = pdf_page.mediabox
        assert abs(float(box.width) - A4_POINTS[0]) < 1.5
        assert abs(float(box.height) - A4_POINTS[1]) < 1.5
        # Chromium repeats a table's head on each page: the heading is on every one.
        assert "Jade Dragon Club" in pdf_page.extract_text()
    # Per-player sheets two to a page, as 004 prints its template.
    sheets = 1 if layout == "tally" else (5 if "5" in slug else 4) * (1 if blank else 2)
    assert len(reader.pages) >= (sheets if layout == "tally" else -(-sheets // 2))
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "2",
                        str(SCREENSHOTS / f"{name}.pdf"), str(SCREENSHOTS / name)], check=True)


def test_the_sheet_pages_pass_axe(chromium, live_server, club, house_rule_versions, users):
    """The sheet page as a scorer sees it (with the form to pick the sheet) and as it prints,
    in both layouts: no serious or critical axe-core violation."""
    pytest.importorskip("axe_playwright_python")
    from tests.web.test_browser_at_the_table import axe_check

    session = generated_session(club, house_rule_versions, "bmja-5-players", users["scorer"],
                                hands=6)
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(15_000)
    log_in(page, live_server, users["scorer"].username)
    url = live_server.url + reverse("sheets:session", args=[club.slug, session.pk])
    results: dict = {}
    failures: list[str] = []
    for layout in ("per_player", "tally"):
        page.emulate_media(media="screen")
        page.goto(f"{url}?layout={layout}")
        failures += axe_check(page, f"sheet {layout}", results)
        page.emulate_media(media="print")
        failures += axe_check(page, f"sheet {layout} (print)", results)
    page.context.close()
    assert failures == []
