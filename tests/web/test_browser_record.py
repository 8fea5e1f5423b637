"""A club night on a phone, end to end in headless Chromium (390×844).

A scorer logs in, starts a session, seats a table of four, records 004 Sheet 19 hand 1 as a full
hand tapped in with the tile palette (the others' scores agreed: the settle contract's example,
E 12, W 36, N 0), records a quick-entry hand, corrects it, and checks the totals the table page
shows. Screenshots go to tests/screenshots/ (git-ignored) for a person to look at.

Skipped only where Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tests.conftest import load_example
from tests.web.conftest import PASSWORD, SCREENSHOTS

PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone_page(browser, javascript: bool = True):
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=javascript,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def phone(chromium):
    page = phone_page(chromium)
    yield page
    page.context.close()


def log_in(page, base_url: str, username: str = "scorer-user") -> None:
    page.goto(f"{base_url}/accounts/login/?next=/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button:has-text('Log in')")
    page.wait_for_url(f"{base_url}/")


def shot(page, name: str, part: str | None = None) -> None:
    """The whole page, the screenful a phone shows, and where ``part`` is given a close-up of
    that element (full-page shots of a long form are too small to judge)."""
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-screen.png"))
    if part is not None:
        page.locator(part).first.screenshot(path=str(SCREENSHOTS / f"{name}-detail.png"))


def totals_on_page(page) -> dict[str, int]:
    totals = {}
    for seat in page.locator("#next-hand .seat").all():
        name = seat.locator(".name").inner_text().strip()
        totals[name] = int(seat.locator(".total").get_attribute("data-total"))
    return totals


def chip(scope, fieldset_legend: str, label: str):
    """The tap target of one radio chip, found by its question and its answer; ``scope`` is
    the page or a part of it."""
    page = getattr(scope, "page", scope)
    legend = page.locator("legend", has_text=fieldset_legend)
    group = scope.locator("fieldset", has=legend).last
    return group.locator("label", has_text=label).first


def seat_block(page, legend: str):
    return page.locator("fieldset.seat-entry", has=page.locator("legend", has_text=legend))


def test_a_scorer_records_and_corrects_hands_on_a_phone(phone, live_server, users, players):
    from playwright.sync_api import expect  # here: without Playwright the fixture skips

    page = phone
    example = load_example("bmja-scoring-practice.json")["hands"][0]

    page.goto(f"{live_server.url}/accounts/login/")
    shot(page, "01-login")
    log_in(page, live_server.url)
    page.click("a:has-text('Jade Dragon Club')")

    # Start a session as the form comes: today's date, the club's default house rule (issue 14:
    # the date box was empty and the first start failed).
    assert page.input_value("#id_date") == timezone.localdate().isoformat()
    shot(page, "02-club-home")
    page.click("button:has-text('Start the session')")
    page.wait_for_url(re.compile(r"/sessions/\d+/$"))

    # Seat a table of four by the winds they drew.
    for wind, name in zip("ESWN", ("Alice", "Bob", "Carol", "David"), strict=True):
        page.select_option(f"#id_{wind}_member", label=name)
    shot(page, "03-seat-table")
    page.click("button:has-text('Add the table')")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))

    # Hand 1: South (Bob) goes Mah Jong on West's discard with Sheet 19 hand 1.
    page.click("a:has-text('Record hand 1')")
    chip(page, "Who went Mah Jong?", "Bob").click()
    chip(page, "How was it won?", "On a discard").click()
    chip(page, "Who discarded", "Carol").click()
    south = seat_block(page, "South · Bob")
    chip(south, "Enter", "Full hand").click()
    palette = south.locator(".palette")
    for kind, tile in (("Pung", "b1"), ("Pung", "dr"), ("Kong", "b9")):
        palette.locator(f"button[data-target={kind.lower()}]").click()
        palette.locator(f"button[data-tile={tile}]").click()
    palette.locator("button[data-target=held]").click()
    for tile in ("b6", "b6", "b6", "we", "we"):
        palette.locator(f"button[data-tile={tile}]").click()
    palette.locator("button[data-tile=f2]").click()
    assert south.locator("textarea[name$='-melds']").input_value() == "pung b1, pung dr, kong b9"
    assert south.locator("input[name$='-concealed']").input_value() == "b6 b6 b6 we we"
    assert south.locator("input[name$='-win_tile']").is_visible()
    assert south.locator("input[name$='-fishing']").is_hidden()
    for legend, score in (("East · Alice", 12), ("West · Carol", 36), ("North · David", 0)):
        seat_block(page, legend).locator("input[name$='-score']").fill(str(score))
    shot(page, "04-record-full-hand", "fieldset.seat-entry >> nth=1")
    page.click("button[value=preview]")
    preview = page.locator("#preview")
    assert preview.locator("h3", has_text="South · Bob").locator("[data-score]").inner_text() == str(
        example["expected"]["score"]
    )
    shot(page, "05-preview", "#preview")
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r"/tables/\d+/(#hand-1)?$"))
    # The settle contract's answer: net E -1752, S 3456, W -780, N -924.
    assert totals_on_page(page) == {"Alice": -1752, "Bob": 3456, "Carol": -780, "David": -924}
    assert "East next" in page.locator("#next-hand .seat.east").inner_text()
    assert "Bob" in page.locator("#next-hand .seat.east").inner_text()
    shot(page, "06-table-after-hand-1", "#next-hand")

    # Hand 2: quick entry, Bob (now East) wins from the wall with an agreed 100.
    page.click("a:has-text('Record hand 2')")
    chip(page, "Who went Mah Jong?", "Bob").click()
    chip(page, "How was it won?", "From the wall").click()
    assert page.locator("input[name=discarder]").first.is_hidden()
    for legend, score in (("East · Bob", 100), ("South · Carol", 8), ("West · David", 4), ("North · Alice", 0)):
        seat_block(page, legend).locator("input[name$='-score']").fill(str(score))
    # The preview is a page of its own: the edit below waits for it to have loaded (its
    # script, deferred, marks the preview stale from DOMContentLoaded on), or it was typed into
    # the page before or before the script listened, and no note came.
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.click("button[value=preview]")
    shot(page, "07-preview-quick")
    # A change after the preview greys it with a note: Save saves what the form holds.
    stale_note = page.locator("#preview .stale-note")
    expect(stale_note).to_be_hidden()
    seat_block(page, "South · Carol").locator("input[name$='-score']").fill("8")
    expect(stale_note).to_be_visible()  # waited for, not read once as the handler runs
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.click("button[value=preview]")
    expect(stale_note).to_be_hidden()  # the fresh preview, before Save
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r"/tables/\d+/(#hand-2)?$"))
    after_two = totals_on_page(page)
    assert sum(after_two.values()) == 0
    assert after_two["Bob"] > 3456

    # Correct hand 2: the agreed score was 200, not 100.
    page.locator("#hand-2").locator("a:has-text('Correct')").click()
    page.click("summary:has-text('Edit what was entered')")
    seat_block(page, "East · Bob").locator("input[name$='-score']").fill("200")
    shot(page, "08-correct")
    page.click("button:has-text('Save the correction')")
    page.wait_for_url(re.compile(r"/tables/\d+/(#hand-2)?$"))
    corrected = totals_on_page(page)
    assert sum(corrected.values()) == 0
    assert corrected["Bob"] > after_two["Bob"]
    # Hand 1 is untouched by the correction of hand 2.
    assert page.locator("#running-totals tbody tr").first.inner_text().split() == [
        "1", "-1752", "3456", "-780", "-924"
    ]
    shot(page, "09-table-after-correction")

    # The session page adds the night up per player.
    page.locator(".crumbs a").nth(1).click()
    page.wait_for_url(re.compile(r"/sessions/\d+/$"))
    page.locator("#session-totals tbody tr").first.wait_for()  # .all() below does not wait
    rows = page.locator("#session-totals tbody tr").all()
    session_totals = {r.locator("td").nth(0).inner_text(): int(r.locator("td").nth(3).inner_text()) for r in rows}
    assert session_totals == corrected
    shot(page, "09b-session-totals")


def test_recording_works_without_javascript(chromium, live_server, users, table):
    """Progressive: with scripting off every field shows and the forms still post."""
    page = phone_page(chromium, javascript=False)
    try:
        log_in(page, live_server.url)
        session = table.session
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/")
        page.click("a:has-text('Record hand 1')")
        assert page.locator(".palette").count() == 0
        page.click("button[value=preview]")  # nothing chosen yet: every question answers
        assert page.locator(".errorlist").count() >= 5
        shot(page, "10-no-js-errors")
        chip(page, "Who went Mah Jong?", "Alice").click()
        chip(page, "How was it won?", "From the wall").click()
        chip(page, "Who discarded", "Nobody").click()
        for legend, score in (("East · Alice", 40), ("South · Bob", 8), ("West · Carol", 4), ("North · David", 0)):
            seat_block(page, legend).locator("input[name$='-score']").fill(str(score))
        page.click("button[value=preview]")
        shot(page, "11-no-js-preview", "#preview")
        page.click("button[value=save]")
        page.wait_for_url(re.compile(r"/tables/\d+/(#hand-1)?$"))
        totals = totals_on_page(page)
        assert sum(totals.values()) == 0 and totals["Alice"] > 0
        # East went Mah Jong: East deals again (004 Sheet 16).
        assert "Alice" in page.locator("#next-hand .seat.east").inner_text()
        shot(page, "12-no-js-table")
        page.emulate_media(media="print")
        assert page.locator("a:has-text('Record hand 2')").is_hidden()
    finally:
        page.context.close()


def test_the_printed_sheet_unfolds_the_payments(phone, live_server, users, table):
    from clubs.recording import record_hand

    entry = {"winner": "E", "win_from": "wall",
             "seats": {w: {"score": s} for w, s in zip("ESWN", (40, 8, 4, 0), strict=True)}}
    record_hand(table, entry, users["scorer"])
    page = phone
    log_in(page, live_server.url, "member-user")
    session = table.session
    page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/")
    assert page.locator("#hand-1 .payments").is_hidden()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    assert page.locator("#hand-1 .payments").is_visible()
    shot(page, "13-print-sheet")


def test_an_open_table_page_shows_a_hand_recorded_on_another_phone(phone, live_server, users, table):
    """Issue 6: everyone at the table sees the running totals, not only the scorer."""
    from clubs.recording import record_hand

    page = phone
    log_in(page, live_server.url, "member-user")
    session = table.session
    page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/")
    assert "Hand 1 next" in page.locator("#next-hand").inner_text()
    entry = {"winner": "S", "win_from": "wall",
             "seats": {w: {"score": s} for w, s in zip("ESWN", (0, 40, 8, 4), strict=True)}}
    record_hand(table, entry, users["scorer"])
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    page.wait_for_function("document.getElementById('next-hand').innerText.includes('Hand 2 next')")
    totals = totals_on_page(page)
    assert totals["Bob"] > 0 and sum(totals.values()) == 0
