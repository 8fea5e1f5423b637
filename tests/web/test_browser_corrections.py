"""Correcting a hand on a 390×844 phone in headless Chromium (issues #21 and #25): the winner of
hand 1 changed with a reason, the later hands seated again, the table page saying why and what
moved; a void kept as the table played on; nothing wider than the screen, axe-core clean.
Screenshots go to tests/screenshots/ (git-ignored) for a person to look at."""

from __future__ import annotations

import pytest

from clubs.models import Hand
from clubs.recording import record_hand
from tests.web.test_browser_at_the_table import FAILING_IMPACTS, axe_check
from tests.web.test_browser_record import chip, log_in, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def quick_entry(winner) -> dict:
    return {"winner": winner, "discarder": None, "win_from": "wall",
            "seats": {w: {"score": s} for w, s in zip("ESWN", (100, 10, 20, 30), strict=True)}}


def too_wide(page) -> list[str]:
    """Elements wider than the screen, outside a deliberately scrollable frame."""
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const out = [];
        for (const el of document.querySelectorAll('body *')) {
            if (el.closest('.scroll, pre, details:not([open])')) continue;
            const box = el.getBoundingClientRect();
            if (box.width > 0 && box.right > width + 1) out.push(el.tagName + '.' + el.className);
        }
        return out;
    }""")


def east_of(table, number) -> str:
    return Hand.objects.get(table=table, number=number).entries.get(seat_wind="E").seat.name


def test_a_scorer_corrects_the_winner_with_a_reason_on_a_phone(chromium, live_server, users,
                                                               table):
    pytest.importorskip("axe_playwright_python")
    for winner in ("E", "W", "E"):  # Alice deals 1 and 2, Carol wins 2, Bob deals 3
        record_hand(table, quick_entry(winner), users["scorer"])
    first = Hand.objects.get(table=table, number=1)
    session = table.session
    path = f"/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/"
    page = phone_page(chromium)
    results: dict = {}
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}{path}hands/{first.pk}/correct/")
    page.click("summary:has-text('Edit what was entered')")
    chip(page, "Who went Mah Jong?", "Bob").tap()
    page.fill("#id_edit_reason", "Bob went out, not Alice")
    assert page.locator("#id_edit_later_hands_0").is_checked()  # seat them again: the default
    page.locator("#edit").scroll_into_view_if_needed()
    shot(page, "correct-reason", "#edit")
    assert too_wide(page) == []
    failures = axe_check(page, "correct (reason)", results)
    page.click("button:has-text('Save the correction')")
    page.wait_for_url(f"**{path}#hand-1")
    assert "hands 2, 3 are seated again" in page.inner_text(".messages, main")
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Bob", "Carol"]
    page.locator("#hand-1").scroll_into_view_if_needed()
    shot(page, "table-after-correction", "#hand-1")
    assert "Corrected: Bob went out, not Alice" in page.inner_text("#hand-1")
    assert too_wide(page) == []
    failures += axe_check(page, "table (reasons)", results)

    # Hand 2 voided, the table having played on as recorded.
    second = Hand.objects.get(table=table, number=2)
    page.goto(f"{live_server.url}{path}hands/{second.pk}/correct/")
    page.click("summary:has-text('Void this hand')")
    page.fill("#id_void_reason", "Misdealt: 14 tiles to South")
    chip(page.locator("#void"), "The hands after this one", "played on as recorded").tap()
    shot(page, "void-as-recorded", "#void")
    assert too_wide(page) == []
    page.click("button:has-text('Void hand 2')")
    page.wait_for_url(f"**{path}#hand-2")
    assert "Void: Misdealt: 14 tiles to South" in page.inner_text("#hand-2")
    assert "Seated as the table played it" in page.inner_text("#hand-3")
    page.locator("#hand-3").scroll_into_view_if_needed()
    shot(page, "table-after-void", "#hand-3")
    page.goto(f"{live_server.url}{path}hands/{first.pk}/correct/")
    page.locator("h2:has-text('Audit trail')").scroll_into_view_if_needed()
    shot(page, "correct-audit", "ul.audit")
    assert "Hand 2 seated again: Bob deals (was Alice)" in page.inner_text("ul.audit")
    assert too_wide(page) == []
    failures += axe_check(page, "correct (audit)", results)
    page.context.close()
    assert failures == [], f"axe {FAILING_IMPACTS}: {failures}"
