"""Issue 14 in headless Chromium on a 390×844 phone: a night started from the empty session
form under ``bmja`` and under ``guide``, hands recorded with every tap and keystroke counted
(a quick hand, a wall game, a full hand typed as tile codes), the dealer each page names, the
page after saving, touch targets, the QR code, the printed session page, and an axe-core check
of every page a player uses.

Screenshots go to tests/screenshots/ (git-ignored); the axe answers to
tests/screenshots/axe-results.json. Skipped only where Playwright or /usr/bin/chromium is
missing (the ``chromium`` fixture).
"""

from __future__ import annotations

import json
import re

import pytest
from django.utils import timezone

from clubs.models import Hand
from clubs.recording import record_hand
from tests.web.conftest import PASSWORD, SCREENSHOTS
from tests.web.test_browser_record import (
    chip,
    log_in,
    phone_page,
    seat_block,
    shot,
    totals_on_page,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# axe-core's impacts that fail the check (issue 14: no serious or critical violations).
FAILING_IMPACTS = ("serious", "critical")


class Counted:
    """The page, with every tap and keystroke the test makes counted, as a scorer makes them:
    a tap on the screen, or a key on the phone's keyboard."""

    def __init__(self, page):
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, locator) -> None:
        locator.tap()
        self.taps += 1

    def type(self, text: str) -> None:
        """Keys typed where the cursor is (no tap of our own to put it there)."""
        self.page.keyboard.type(text)
        self.keys += len(text)

    def tap_and_type(self, locator, text: str) -> None:
        self.tap(locator)
        self.type(text)


def score_box(page, legend: str):
    return seat_block(page, legend).locator("input[name$='-score']")


def focused_name(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.name") or ""


def start_night(page, base_url: str, rule_name: str | None) -> None:
    """From the club page as it comes: nothing typed into the session form but the house rule
    picked where it is not the club's default; a table of Alice, Bob, Carol, David."""
    log_in(page, base_url)
    page.click("a:has-text('Jade Dragon Club')")
    assert page.input_value("#id_date") == timezone.localdate().isoformat()
    if rule_name:
        page.select_option("#id_house_rule_version", label=rule_name)
    page.click("button:has-text('Start the session')")
    page.wait_for_url(re.compile(r"/sessions/\d+/$"))
    for wind, name in zip("ESWN", ("Alice", "Bob", "Carol", "David"), strict=True):
        page.select_option(f"#id_{wind}_member", label=name)
    page.click("button:has-text('Add the table')")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))


def saved(page) -> None:
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    # The top of the page, with the totals and who deals next in view (no jump to the hand).
    assert page.evaluate("window.scrollY") == 0
    box = page.locator("#next-hand .seat.east").bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"]


def dealer_badge(page) -> str:
    return page.locator("#next-hand .seat.east").inner_text()


COUNTS: dict[str, dict] = {}


def test_a_night_under_bmja_counts_taps_and_keystrokes(chromium, live_server, users, players):
    page = phone_page(chromium)
    try:
        start_night(page, live_server.url, None)
        shot(page, "20-bmja-table-empty")

        # Hand 1, 004 Sheet 19 hand 1 typed as tile codes: Bob (South) on Carol's discard;
        # the others' agreed scores 12, 36, 0 (the settle contract's example).
        c = Counted(page)
        c.tap(page.locator("a[data-winner]", has_text="Bob won"))
        page.wait_for_url(re.compile(r"/record/\?winner=\d+$"))
        c.tap(chip(page, "Who discarded", "Carol"))
        assert page.locator("input[name=win_source][value=discard]").is_checked()
        assert focused_name(page).endswith("-score")  # East's box: type at once
        c.type("12")
        c.tap_and_type(score_box(page, "West · Carol"), "36")
        c.tap_and_type(score_box(page, "North · David"), "0")
        south = seat_block(page, "South · Bob")
        c.tap(chip(south, "Enter", "Full hand"))
        c.tap_and_type(south.locator("textarea[name$='-melds']"), "pung b1, pung dr, kong b9")
        c.tap_and_type(south.locator("input[name$='-concealed']"), "b6 b6 b6 we we")
        c.tap_and_type(south.locator("input[name$='-bonus']"), "f2")
        shot(page, "21-bmja-full-hand-typed", "fieldset.seat-entry >> nth=1")
        c.tap(page.locator("button[value=save]"))
        saved(page)
        COUNTS["bmja full hand typed as tile codes"] = {"taps": c.taps, "keystrokes": c.keys}
        assert totals_on_page(page) == {"Alice": -1752, "Bob": 3456, "Carol": -780, "David": -924}
        assert "East next" in dealer_badge(page) and "Bob" in dealer_badge(page)
        shot(page, "22-bmja-after-full-hand")

        # Hand 2, quick: Carol (now South) goes Mah Jong on David's discard, agreed 100;
        # the others 8, 4, 2.
        c = Counted(page)
        c.tap(page.locator("a[data-winner]", has_text="Carol won"))
        page.wait_for_url(re.compile(r"/record/\?winner=\d+$"))
        c.tap(chip(page, "Who discarded", "David"))
        c.type("8")  # the cursor is in East's (Bob's) box
        c.tap_and_type(score_box(page, "South · Carol"), "100")
        c.tap_and_type(score_box(page, "West · David"), "4")
        c.tap_and_type(score_box(page, "North · Alice"), "2")
        shot(page, "23-bmja-quick-hand")
        c.tap(page.locator("button[value=save]"))
        saved(page)
        COUNTS["bmja quick hand (four agreed scores, on a discard)"] = {"taps": c.taps, "keystrokes": c.keys}
        assert c.taps <= 6 and c.keys == len("8" "100" "4" "2")
        hand = Hand.objects.get(number=2)
        assert (hand.win_source, hand.discarder.name) == ("discard", "David")
        assert "Carol" in dealer_badge(page)

        # Hand 3: a wall game, nothing typed.
        c = Counted(page)
        c.tap(page.locator("a[data-winner=draw]"))
        page.wait_for_url(re.compile(r"/record/\?winner=draw$"))
        assert page.locator(".seat-entry input[name$='-score']:visible").count() == 0
        assert page.locator("summary:has-text('More about the win')").is_hidden()
        shot(page, "24-bmja-wall-game")
        c.tap(page.locator("button[value=save]"))
        saved(page)
        COUNTS["bmja wall game"] = {"taps": c.taps, "keystrokes": c.keys}
        assert (c.taps, c.keys) == (2, 0)
        assert Hand.objects.get(number=3).draw
        shot(page, "25-bmja-after-wall-game", "#next-hand")
    finally:
        page.context.close()
        _write_counts()


def test_a_night_under_guide_names_the_winner_as_dealer(chromium, live_server, users, players,
                                                        house_rule_versions):
    """002: only the winner is paid (the others need no score) and the winner deals next with
    the winds unchanged: the table page's badge and the record page follow the settlement."""
    page = phone_page(chromium)
    try:
        guide = house_rule_versions["guide"]
        start_night(page, live_server.url, f"{guide.record.name} (v{guide.number})")
        c = Counted(page)
        c.tap(page.locator("a[data-winner]", has_text="Bob won"))
        page.wait_for_url(re.compile(r"/record/\?winner=\d+$"))
        c.tap(chip(page, "Who discarded", "Carol"))
        assert page.locator(".seat-entry input[name$='-score']:visible").count() == 1
        assert focused_name(page) == score_box(page, "South · Bob").get_attribute("name")
        c.type("100")
        shot(page, "30-guide-quick-hand")
        c.tap(page.locator("button[value=save]"))
        saved(page)
        COUNTS["guide quick hand (winner only, on a discard)"] = {"taps": c.taps, "keystrokes": c.keys}
        assert (c.taps, c.keys) == (3, 3)
        badge = dealer_badge(page)
        assert "Bob" in badge and "Deals next" in badge and "South" in badge
        shot(page, "31-guide-table", "#next-hand")
        page.click("a:has-text('Record hand 2')")
        assert "Dealer: Bob (South)" in page.locator("main p.small").first.inner_text()
        hand = Hand.objects.get(number=1)
        # 002: on a discard only the discarder (Carol) pays the winner.
        assert {(p["payer"], p["payee"]) for p in hand.computed["payments"]} == {
            (hand.discarder_id, hand.winner_id)}
        assert hand.discarder.name == "Carol"

        c = Counted(page)
        page.go_back()
        c.tap(page.locator("a[data-winner=draw]"))
        page.wait_for_url(re.compile(r"/record/\?winner=draw$"))
        c.tap(page.locator("button[value=save]"))
        saved(page)
        COUNTS["guide wall game"] = {"taps": c.taps, "keystrokes": c.keys}
        assert (c.taps, c.keys) == (2, 0)
        assert "Bob" in dealer_badge(page)  # 002: a draw is not a loss, the dealer stays
        shot(page, "32-guide-after-wall-game")
    finally:
        page.context.close()
        _write_counts()


def _write_counts() -> None:
    path = SCREENSHOTS / "tap-counts.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**known, **COUNTS}, indent=1))


# -- touch targets, the QR code, the printed session page ------------------------------------


def recorded_table(table, users):
    entry = {"winner": "S", "discarder": "W", "win_from": "discard",
             "seats": {w: {"score": s} for w, s in zip("ESWN", (8, 100, 4, 2), strict=True)}}
    record_hand(table, entry, users["scorer"])
    session = table.session
    return f"/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/"


TARGETS = ("button:visible, a.btn:visible, summary:visible, .choices label:visible > span, "
           ".who-won a:visible > span")


def small_targets(page) -> list[str]:
    small = []
    for element in page.locator(TARGETS).all():
        box = element.bounding_box()
        if box and (box["width"] < 44 or box["height"] < 44):
            small.append(f"{element.inner_text()[:20]!r} {box['width']:.0f}x{box['height']:.0f}")
    return small


def test_touch_targets_are_44_by_44(chromium, live_server, users, table):
    path = recorded_table(table, users)
    page = phone_page(chromium)
    try:
        log_in(page, live_server.url)
        page.goto(live_server.url + path)
        page.click("#hand-1 summary")
        assert small_targets(page) == []
        page.goto(live_server.url + path + "record/")
        chip(page.locator("fieldset.seat-entry").first, "Enter", "Full hand").click()
        tiles = page.locator("fieldset.seat-entry").first.locator(".palette .tiles button")
        assert tiles.count() == 43  # 27 suit tiles, 7 honours, 8 bonus, undo
        assert small_targets(page) == []
        shot(page, "40-tile-palette", ".palette")
    finally:
        page.context.close()


def test_the_qr_code_opens_the_table_for_a_player_who_follows(chromium, live_server, users, table):
    path = recorded_table(table, users)
    scorer = phone_page(chromium)
    follower = phone_page(chromium)
    try:
        log_in(scorer, live_server.url)
        scorer.goto(live_server.url + path)
        scorer.click("#follow summary")
        qr = scorer.locator("#follow svg")
        box = qr.bounding_box()
        assert box["width"] >= 150 and box["width"] == box["height"]
        shot(scorer, "41-table-qr", "#follow")
        url = scorer.locator("#follow figcaption a").get_attribute("href")
        assert url == live_server.url + path
        # Another phone, not logged in: a private club answers as if it did not exist (its
        # existence must not show), with a "Log in" that comes back here; then the table,
        # read-only.
        answer = follower.goto(url)
        assert answer.status == 404
        follower.click("a.btn:has-text('Log in')")
        follower.fill("#id_username", "member-user")
        follower.fill("#id_password", PASSWORD)
        follower.click("button:has-text('Log in')")
        follower.wait_for_url(url)
        assert follower.locator("a:has-text('Record hand')").count() == 0
        assert sum(totals_on_page(follower).values()) == 0
        shot(follower, "42-follow-view")
    finally:
        scorer.context.close()
        follower.context.close()


def test_the_printed_session_page_has_no_empty_box(chromium, live_server, users, table):
    recorded_table(table, users)
    page = phone_page(chromium)
    session = table.session
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/")
        page.emulate_media(media="print")
        for card in page.locator(".card:visible").all():
            assert card.inner_text().strip(), card.evaluate("e => e.outerHTML.slice(0, 80)")
        shot(page, "43-session-print")
    finally:
        page.context.close()


def test_quick_entry_works_with_javascript_off(chromium, live_server, users, table):
    """The winner links, the empty boxes that count for nothing and Save without a preview
    need no script."""
    page = phone_page(chromium, javascript=False)
    session = table.session
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/")
        page.click("a[data-winner=draw]")
        page.click("button[value=save]")
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        assert Hand.objects.get(table=table).draw
        page.click("a[data-winner]:has-text('Bob won')")
        chip(page, "Who discarded", "Carol").click()
        for legend, score in (("East · Alice", 8), ("South · Bob", 100), ("West · Carol", 4),
                              ("North · David", 2)):
            score_box(page, legend).fill(str(score))
        page.click("button[value=save]")
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        hand = Hand.objects.get(table=table, number=2)
        assert (hand.winner.name, hand.win_source) == ("Bob", "discard")
        shot(page, "44-no-js-after-quick-hand")
    finally:
        page.context.close()


# -- axe-core --------------------------------------------------------------------------------


def axe_check(page, name: str, results: dict) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    results[name] = {
        "violations": {v["id"]: {"impact": v["impact"], "nodes": len(v["nodes"])} for v in found},
    }
    return [f"{name}: {v['id']} ({v['impact']}) {v['nodes'][0]['target']}"
            for v in found if v["impact"] in FAILING_IMPACTS]


def test_every_page_a_player_uses_passes_axe(chromium, live_server, users, table):
    pytest.importorskip("axe_playwright_python")
    path = recorded_table(table, users)
    hand = Hand.objects.get(table=table)
    session = table.session
    page = phone_page(chromium)
    results: dict = {}
    failures: list[str] = []
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        failures += axe_check(page, "login", results)
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/")
        failures += axe_check(page, "club", results)
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/")
        failures += axe_check(page, "session", results)
        page.goto(live_server.url + path)
        page.click("#follow summary")
        failures += axe_check(page, "table", results)
        page.goto(live_server.url + path + "record/")
        chip(page.locator("fieldset.seat-entry").first, "Enter", "Full hand").click()
        page.click("button[value=preview]")  # the answers to mend, shown
        failures += axe_check(page, "record", results)
        page.goto(f"{live_server.url}{path}hands/{hand.pk}/correct/")
        page.click("summary:has-text('Edit what was entered')")
        failures += axe_check(page, "correct", results)
        page.goto(f"{live_server.url}{path}hands/{hand.pk}/")
        failures += axe_check(page, "hand", results)
        page.goto(live_server.url + path)
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        page.emulate_media(media="print")
        failures += axe_check(page, "print (table)", results)
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/")
        failures += axe_check(page, "print (session)", results)
    finally:
        page.context.close()
        (SCREENSHOTS / "axe-results.json").write_text(json.dumps(results, indent=1))
    assert failures == []


def test_a_nul_typed_into_a_form_gets_the_form_back_with_its_error(chromium, live_server,
                                                                   users, table):
    """The browser sends the form url-encoded (``%00``): the page comes back with the form and
    the error on the field, not a bare text page."""
    page = phone_page(chromium)
    session = table.session
    try:
        log_in(page, live_server.url)
        page.goto(f"{live_server.url}/clubs/{session.club.slug}/")
        page.click("summary:has-text('Start a session')")
        page.fill("#id_notes", "late start\x00")
        page.click("button:has-text('Start the session')")
        assert page.locator("#id_notes").is_visible()
        assert "Null characters are not allowed" in page.locator("main form").first.inner_text()
        shot(page, "45-nul-in-a-form")
    finally:
        page.context.close()
