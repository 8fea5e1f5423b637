"""A table of five on a phone (QA, phone pass): the running totals, one column a player, fit a
390 px and a 320 px screen without scrolling inside their card (they scrolled, with no hint,
at 390 px, and ran 120 px past a 320 px screen), with long, unbroken, right-to-left, emoji and
markup names and six-character totals; the record page's preview fits too."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.members.seat_names import refresh_seat_names
from clubs.models import ClubSession, Member, Seat, Table
from clubs.recording import record_hand
from clubs.table_state import build_table_state
from houserules.sync import ensure_builtin_house_rules
from tests.web.test_browser_every_page import OVERFLOW, SHOTS, _log_in, demo  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOSTILE = (
    "Bartholomew Fitzwilliam-Featherstonehaugh Montgomery-Smythe the Third of Wessex",
    "Supercalifragilisticexpialidociousandthensomemorelettersinonename",
    "محمد عبد الرحمن الشريف",
    "🀄🀅🀆 Dragon 🐉🐉🐉🐉🐉🐉🐉",
    "<script>alert(1)</script>",
)

# Whether the running totals' card scrolls sideways (its content wider than its room).
TOTALS_FIT = """() => {
    const frame = document.querySelector('#running-totals').parentElement;
    return {scroll: frame.scrollWidth, room: frame.clientWidth,
            right: Math.round(frame.getBoundingClientRect().right),
            screen: document.documentElement.clientWidth};
}"""


@pytest.fixture
def table_of_five(demo):  # noqa: F811
    """Ten hands at a table of five in the demo club, totals up to six characters (-12336)."""
    versions = ensure_builtin_house_rules()
    session = ClubSession.objects.create(club=demo["club"], date=dt.date(2026, 11, 21),
                                         season=demo["season"],
                                         house_rule_version=versions["bmja-5-players"])
    table = Table.objects.create(session=session, number=1)
    for position, name in enumerate(HOSTILE):
        member = Member.objects.create(club=demo["club"], display_name=name)
        Seat.objects.create(table=table, member=member, position=position,
                            starting_wind="ESWN"[position] if position < 4 else "")
    refresh_seat_names([table.pk])
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.get(username="demo-admin")
    for number in range(10):
        winds = list(build_table_state(table).next.seating.winds_in_play)
        winner = winds[number % len(winds)]
        losers = iter((2000, 1200, 864, 1024))
        record_hand(table, {"winner": winner, "win_from": "wall", "seats": {
            w: {"score": 1000 if w == winner else next(losers)} for w in winds}}, admin)
    totals = [str(t) for t in build_table_state(table).totals.values()]
    assert max(len(t) for t in totals) >= 5, totals
    return table


@pytest.mark.parametrize("width", [320, 390])
def test_five_players_running_totals_fit_the_phone(chromium, live_server, table_of_five, width):
    table = table_of_five
    session = table.session
    page = chromium.new_context(viewport={"width": width, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "demo-scorer")
    at_table = f"{live_server.url}/clubs/{session.club.slug}/sessions/{session.pk}/tables/{table.pk}/"
    page.goto(at_table)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"five-players-table-{width}.png"), full_page=True)
    fit = page.evaluate(TOTALS_FIT)
    assert fit["scroll"] <= fit["room"], fit
    assert fit["right"] <= fit["screen"], fit
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= found["width"] and not found["wide"], found
    # Every player's column is there, each heading naming the player in full in its title.
    titles = page.locator("#running-totals thead .col-name").evaluate_all(
        "els => els.map(e => e.title)")
    assert sorted(titles) == sorted(HOSTILE)
    # The markup name is shown as text, never run: no <script> element came from it.
    assert page.locator("main script").count() == 0

    # The record page, previewed: the totals after the hand fit inside their frame.
    page.goto(at_table + "record/")
    page.locator("#record-form input[name=winner]").first.check(force=True)
    for box in page.locator("input[name$='-score']").all():
        if box.is_visible():
            box.fill("8")
    page.click("button[value=preview]")
    page.wait_for_selector("#preview")
    page.screenshot(path=str(SHOTS / f"five-players-preview-{width}.png"), full_page=True)
    frame = page.evaluate("""() => {
        const f = document.querySelector('#preview .scroll');
        return [f.scrollWidth, f.clientWidth];
    }""")
    assert frame[0] <= frame[1], frame
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= found["width"] and not found["wide"], found
