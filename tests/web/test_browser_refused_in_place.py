"""A hand the server refuses for what the form holds, saved with signal: the record page stays
with the form as typed and the server's reason above it (as without JavaScript), instead of
the phone's queue keeping it as "not saved" on the table page under "Record hand 14" when hand
13 was never saved (found saving an empty form at a club night)."""

from __future__ import annotations

import re

import pytest

from tests.web.test_browser_every_page import SHOTS, _log_in, demo  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_hand_is_mended_in_place(chromium, live_server, demo):  # noqa: F811
    club, session, table = demo["club"], demo["session"], demo["table"]
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "demo-scorer")
    at_table = f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/tables/{table.pk}/"
    page.goto(at_table + "record/")
    page.locator("#record-form input[name=winner]").first.check(force=True)
    page.locator("#record-form input[name=win_source][value=wall]").check(force=True)
    scores = page.locator("#record-form input[name$='-score']")
    scores.nth(1).fill("4")
    page.click("button[value=save]")
    page.locator("#queue-status", has_text="was not saved").wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "refused-in-place-390.png"), full_page=True)
    assert page.url == at_table + "record/"
    assert page.locator("h1").inner_text() == "Record hand 13"
    assert scores.nth(1).input_value() == "4"  # what was typed is still there
    assert page.locator("#queue-status li.refused").count() == 0  # not left in the queue
    assert table.hands.count() == 12
    # Mended wrongly again: only the newest reason is shown, not the first one as well.
    scores.nth(1).fill("-30")
    page.click("button[value=save]")
    page.locator("#queue-status", has_text="greater than or equal to 0").wait_for()
    # The queue lists the refused hand for a moment before putting it back in the form (and
    # dropping the earlier reason): read the status once it has (flaky on a busy machine).
    page.wait_for_function("""() => !document.querySelector('#queue-status li.refused')""")
    assert page.locator("#queue-status").inner_text().count("was not saved") == 1
    assert page.url == at_table + "record/"
    scores.nth(1).fill("4")

    for i, score in ((0, "24"), (2, "8"), (3, "2")):
        scores.nth(i).fill(score)
    page.click("button[value=save]")
    page.wait_for_url(re.compile(rf"/tables/{table.pk}/$"))
    assert table.hands.count() == 13


def test_what_to_mend_is_marked_beside_each_answer(chromium, live_server, demo):  # noqa: F811
    """Save tapped on an empty form (QA phone pass, 26 Nov 2026): the page said it all in one
    run-on line above the form ("...if no one did.; Alice · Score · Give the score...; Bob ·
    Score ...") and marked nothing below, where without JavaScript each answer to mend has its
    red note. Now each reason is a line of its own, and each question and score is marked
    where it is, as without JavaScript; the notes go when the hand is saved again."""
    club, session, table = demo["club"], demo["session"], demo["table"]
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "demo-scorer")
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/tables/{table.pk}"
              "/record/")
    page.click("button[value=save]")
    page.locator("#queue-status", has_text="was not saved").wait_for()
    page.screenshot(path=str(SHOTS / "refused-marked-390.png"), full_page=True)
    status = page.locator("#queue-status li").first.inner_text()
    assert ".;" not in status and "; " not in status, status
    assert status.count("\n") >= 4, status  # the heading, then the winner and four scores
    winner = page.locator("#record-form fieldset:has(input[name=winner]) .errorlist")
    assert "Choose who went Mah Jong" in winner.inner_text()
    scores = page.locator("#record-form .seat-entry .quick .errorlist")
    assert scores.count() == 4
    # Answered and saved again: the old notes do not stay beside the mended answers. (Its
    # chips tapped as a scorer does: the hidden radio's own spot may be under the Save bar.)
    page.locator("#record-form fieldset:has(input[name=winner]) label").first.click()
    page.locator("#record-form label:has(input[name=win_source][value=wall])").click()
    page.click("button[value=save]")
    page.locator("#queue-status", has_text="Score").wait_for()
    assert page.locator("#record-form fieldset:has(input[name=winner]) .errorlist").count() == 0
    assert table.hands.count() == 12
