"""Issue 23 in headless Chromium on a 390×844 phone: the scorer checks in 13 members and a
guest, draws, swaps two players, accepts, opens a table page and the table cards PDF (turned
into PNG pages with pdftoppm, kept beside the screenshots for a person to look at); nothing is
wider than the screen and axe-core finds nothing serious on the door page.

Screenshots go to tests/screenshots/door-*.png (git-ignored).
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess

import pytest
from django.utils import timezone

from clubs.models import ClubSession, Member, Seat, Table
from door.models import TableDraw
from tests.web.conftest import SCREENSHOTS
from tests.web.test_browser_at_the_table import FAILING_IMPACTS, axe_check
from tests.web.test_browser_record import log_in, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
         "Mo", "Ned", "Oz")


def wider_than_screen(page) -> list[str]:
    """Elements reaching past the screen's right edge (outside a scrolling frame), and the
    page's own sideways scroll if any: empty when nothing is wider than the phone."""
    return page.evaluate("""() => {
        const out = [];
        for (const el of document.querySelectorAll('body *')) {
            if (el.closest('.scroll')) continue;
            const r = el.getBoundingClientRect();
            if (r.width && r.right - window.innerWidth > 0.5)
                out.push(el.tagName + '.' + el.className + ' ' + (r.right - window.innerWidth));
        }
        if (document.documentElement.scrollWidth > window.innerWidth)
            out.push('page scrolls sideways ' + document.documentElement.scrollWidth);
        return out;
    }""")


def test_a_night_at_the_door_on_a_phone(chromium, live_server, club, users, bmja_version):
    people = [Member.objects.create(club=club, display_name=name) for name in NAMES]
    # Last week's night: three tables of four, so tonight's draw has a season to mix against.
    last_week = ClubSession.objects.create(club=club, date=timezone.localdate() - dt.timedelta(7),
                                           house_rule_version=bmja_version)
    for number in range(3):
        table = Table.objects.create(session=last_week, number=number + 1)
        for position, member in enumerate(people[number * 4:number * 4 + 4]):
            Seat.objects.create(table=table, member=member, position=position,
                                starting_wind="ESWN"[position])
    night = ClubSession.objects.create(club=club, date=timezone.localdate(),
                                       house_rule_version=bmja_version)
    page = phone_page(chromium)
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{night.pk}/")
        page.click("#door-link")
        page.wait_for_selector("#save-members")
        for name in NAMES[:13]:
            page.get_by_label(name, exact=True).check()
        shot(page, "door-1-ticked")
        page.click("#save-members")
        page.wait_for_selector("text=13 here")
        page.click("#add-guest summary")
        page.fill("#id_name", "Zoë Visitor")
        page.check("#id_newcomer")
        page.click("button:has-text('Check the guest in')")
        page.wait_for_selector("text=14 here")
        assert wider_than_screen(page) == []
        page.click("#draw-tables")
        page.wait_for_selector("#quality")
        page.evaluate("document.getElementById('draw').scrollIntoView()")
        shot(page, "door-2-drawn", ".door-tables")
        assert page.locator(".door-table").count() == 3
        mixing = page.locator("#quality").inner_text()
        found = re.search(r"(\d+) pairs? meeting again \(a random draw: ([\d.]+) on average",
                          mixing)
        assert found and int(found[1]) < float(found[2]), mixing
        assert wider_than_screen(page) == []
        before = page.locator(".door-table").nth(0).inner_text()
        # Swap the first two players of tables 1 and 2 and see the effect.
        first = page.locator(".door-table").nth(0).locator(".door-seat").nth(0)
        second = page.locator(".door-table").nth(1).locator(".door-seat").nth(0)
        a = first.locator("span").nth(1).inner_text().replace("new", "").strip()
        b = second.locator("span").nth(1).inner_text().replace("new", "").strip()
        page.select_option("#swap_first", label=a)
        page.select_option("#swap_second", label=b)
        page.click("button:has-text('Swap them and see')")
        page.wait_for_selector("text=Swapped")
        assert page.locator(".door-table").nth(0).inner_text() != before
        assert b in page.locator(".door-table").nth(0).inner_text()
        page.evaluate("document.getElementById('quality').scrollIntoView()")
        shot(page, "door-3-swapped", "#quality")
        results: dict = {}
        failures = axe_check(page, "door", results)
        assert not failures, failures
        page.click("#accept")
        page.wait_for_selector("#tables")
        shot(page, "door-4-accepted", "#seated-tables")
        tables = list(Table.objects.filter(session=night).order_by("number"))
        assert sorted(t.seats.count() for t in tables) == [4, 5, 5]
        assert Seat.objects.filter(table__session=night).count() == 14
        assert TableDraw.objects.get(session=night).is_accepted
        # A table page, as the players will open it.
        page.click("#seated-tables a.row >> nth=0")
        page.wait_for_url("**/tables/*/")
        shot(page, "door-5-table")
        # The table page is the clubs app's: here it must not scroll sideways.
        assert not [w for w in wider_than_screen(page) if w.startswith("page scrolls")]
        # The cards: fetched as the browser would, then looked at as pictures.
        for paper in ("a4", "a6"):
            answer = page.request.get(
                f"{live_server.url}/clubs/{club.slug}/sessions/{night.pk}/door/cards.pdf"
                f"?paper={paper}")
            assert answer.ok and answer.headers["content-type"] == "application/pdf"
            pdf = SCREENSHOTS / f"door-cards-{paper}.pdf"
            pdf.write_bytes(answer.body())
            if shutil.which("pdftoppm"):
                subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf),
                                str(SCREENSHOTS / f"door-cards-{paper}")], check=True)
        assert list(SCREENSHOTS.glob("door-cards-a4*.png")) or not shutil.which("pdftoppm")
        assert FAILING_IMPACTS
    finally:
        page.context.close()
