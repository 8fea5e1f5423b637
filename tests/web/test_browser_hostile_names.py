"""Pages the public opens, at 320 and 390 px, with a member's name of 66 letters and no space
and a standings snapshot's note of 60 (found crawling the demo club, QA phone pass): the
session page's tables list and totals and the league page's snapshots ran 200-400 px past the
screen, at 320 px a player's "who paid whom" table was 28 px too wide, and its chart cut a long
name's first letters and a five-figure total's last digit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.members.seat_names import refresh_seat_names
from clubs.models import Member, Table
from league.withdrawing import publish_snapshot
from tests.web.test_browser_every_page import OVERFLOW, SHOTS, _log_in, demo  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UNBROKEN = "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaft"


@pytest.mark.parametrize("width", [320, 390])
def test_public_pages_fit_with_unbroken_names(chromium, live_server, demo, width):  # noqa: F811
    club, session, season = demo["club"], demo["session"], demo["season"]
    member, opponent = Member.objects.filter(club=club, user__isnull=True).order_by("pk")[:2]
    member.display_name = UNBROKEN
    member.save(update_fields=["display_name"])
    opponent.display_name = "<script>alert(1)</script>"
    opponent.save(update_fields=["display_name"])
    refresh_seat_names(list(Table.objects.filter(session=session).values_list("pk", flat=True)))
    admin = get_user_model().objects.get(username="demo-admin")
    publish_snapshot(season, admin, note="Half-way " + "x" * 60)
    paths = {
        "session": f"/clubs/{club.slug}/sessions/{session.pk}/",
        "standings": f"/clubs/{club.slug}/league/{season.pk}/",
        "history-player": f"/clubs/{club.slug}/history/players/{member.pk}/?season={season.pk}",
    }
    page = chromium.new_context(viewport={"width": width, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    failures = []
    for name, path in paths.items():
        answer = page.goto(live_server.url + path)
        assert answer.status == 200, (name, answer.status)
        page.screenshot(path=str(SHOTS / f"unbroken-{name}-{width}.png"), full_page=True)
        found = page.evaluate(OVERFLOW)
        if found["page"] > found["width"] or found["wide"]:
            failures.append((name, found))
        # A chart's labels and values inside the chart (the paid chart's cut "ript>alert(1)").
        cut = page.evaluate("""() => [...document.querySelectorAll('svg.chart')].flatMap(svg => {
            const box = svg.getBoundingClientRect();
            return [...svg.querySelectorAll('text')].filter(t => {
                const r = t.getBoundingClientRect();
                return r.left < box.left - 1 || r.right > box.right + 1;
            }).map(t => t.textContent);
        })""")
        if cut:
            failures.append((name, "chart text cut", cut))
    assert failures == []


@pytest.mark.parametrize("width", [320, 390])
def test_the_mend_page_fits_with_an_unbroken_name(chromium, live_server, demo, width):  # noqa: F811
    """The seats' legends on the mend-table page (found by the crawl: a fieldset as wide as a
    66-letter name, 340 px past the screen)."""
    club, session, table = demo["club"], demo["session"], demo["table"]
    member = Member.objects.filter(club=club, user__isnull=True).order_by("pk").first()
    member.display_name = UNBROKEN
    member.save(update_fields=["display_name"])
    refresh_seat_names([table.pk])
    page = chromium.new_context(viewport={"width": width, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "demo-admin")
    answer = page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/tables/"
                       f"{table.pk}/mend/")
    assert answer.status == 200
    page.screenshot(path=str(SHOTS / f"unbroken-mend-{width}.png"), full_page=True)
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= found["width"] and not found["wide"], found
    assert UNBROKEN in page.content()


def test_a_sheet_wider_than_the_phone_shows_it_scrolls(chromium, live_server, demo):  # noqa: F811
    """The paper-shaped score sheet scrolls sideways inside its frame at 390 px: the frame
    draws a shadow at the side with more (its white table covered it before)."""
    club, session, table = demo["club"], demo["session"], demo["table"]
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/tables/{table.pk}"
              "/sheet/")
    frames = page.evaluate("""() => [...document.querySelectorAll('.sheet-scroll')]
        .filter(f => f.scrollWidth > f.clientWidth).map(f => [
            getComputedStyle(f).backgroundImage.includes('radial-gradient'),
            getComputedStyle(f.querySelector('table')).backgroundColor])""")
    assert frames, "no sheet scrolls sideways at 390 px"
    assert all(shadow and colour == "rgba(0, 0, 0, 0)" for shadow, colour in frames), frames


@pytest.mark.parametrize("width", [320, 390])
def test_crumbs_wrap_an_unbroken_season_and_club_name(chromium, live_server, demo, width):  # noqa: F811
    """The "you are here" line above a league page (QA phone pass, 26 Nov 2026): a season
    named with 80 letters and no space (the longest a season's name may be) ran the crumb
    link 410 px past a 390 px screen on the standings, player, rules and season pages, and a
    club's 120-letter name did the same on every page of the club."""
    club, season = demo["club"], demo["season"]
    season.name = "Z" * 80
    season.save(update_fields=["name"])
    club.name = "Y" * 120
    club.save(update_fields=["name"])
    page = chromium.new_context(viewport={"width": width, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    failures = []
    for name, path in {"standings": f"/clubs/{club.slug}/league/{season.pk}/",
                       "session": f"/clubs/{club.slug}/sessions/{demo['session'].pk}/"}.items():
        assert page.goto(live_server.url + path).status == 200
        page.screenshot(path=str(SHOTS / f"unbroken-crumbs-{name}-{width}.png"), full_page=True)
        found = page.evaluate(OVERFLOW)
        if found["page"] > found["width"] or found["wide"]:
            failures.append((name, found))
    assert failures == []
