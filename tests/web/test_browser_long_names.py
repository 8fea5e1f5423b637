"""Names a club really types (a login-style email, a double-barrelled surname, a pasted formula)
on the pages a scorer opens at a 390 px phone: the seat chips break such a name inside the chip
instead of widening the page (found walking a night with an 80-character name: the record page
was 448 px wide and its chips ran off the screen)."""

from __future__ import annotations

import pytest

from clubs.members.seat_names import refresh_seat_names
from clubs.models import Member, Seat
from tests.web.test_browser_every_page import OVERFLOW, SHOTS, _log_in, demo  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = (
    "Bartholomew Fitzwilliam-Featherstonehaugh Montgomery-Smythe the Third of Wessex",
    '=HYPERLINK("http://example.invalid/very/long/path","x")',
)


def test_the_record_page_fits_a_phone_with_unbreakable_names(chromium, live_server, demo):  # noqa: F811
    club, session, table = demo["club"], demo["session"], demo["table"]
    seats = list(Seat.objects.filter(table=table).select_related("member").order_by("pk"))
    for seat, name in zip(seats, LONG_NAMES, strict=False):
        Member.objects.filter(pk=seat.member_id).update(display_name=name)
    refresh_seat_names([table.pk])  # as the members page's rename does
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "demo-scorer")
    at_table = f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/tables/{table.pk}/"
    for path in ("record/", ""):
        page.goto(at_table + path)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"long-names-{path.strip('/') or 'table'}-390.png"),
                        full_page=True)
        found = page.evaluate(OVERFLOW)
        assert found["page"] <= found["width"], (path, found)
        assert not found["wide"], (path, found)
        assert "Featherstonehaugh" in page.content(), path
    # The running totals stay inside their card (a column named by a long word is cut short).
    card, totals = page.evaluate("""() => {
        const t = document.querySelector('#running-totals');
        const c = t.parentElement.getBoundingClientRect();
        return [Math.round(c.right), Math.round(t.getBoundingClientRect().right)];
    }""")
    assert totals <= card, (totals, card)
