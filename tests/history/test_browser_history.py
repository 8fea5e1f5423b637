"""The history pages in headless Chromium on a 390x844 phone: the club admin uploads a sheet,
chooses for a misspelt name, sees the dry run and imports; nothing is wider than the screen
and axe-core finds nothing serious. Screenshots go to tests/screenshots/history-*.png."""

from __future__ import annotations

import pytest

from clubs.models import ClubSession, Member
from tests.door.test_browser_door import wider_than_screen
from tests.history.test_import_sheet import three_seasons
from tests.web.conftest import SCREENSHOTS
from tests.web.test_browser_at_the_table import axe_check
from tests.web.test_browser_record import log_in, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_importing_a_sheet_on_a_phone(chromium, live_server, club, users, tmp_path):
    for name in ("Alice", "Bob", "Carol", "David", "Edith", "Frank"):
        Member.objects.create(club=club, display_name=name)
    sheet = tmp_path / "three-seasons.csv"
    sheet.write_text(three_seasons())
    page = phone_page(chromium)
    try:
        log_in(page, live_server.url, "admin-user")
        page.goto(f"{live_server.url}/clubs/{club.slug}/league/")
        page.click("text=Import past results")
        page.set_input_files("#id_file", str(sheet))
        page.click("button:has-text('Read the sheet')")
        page.wait_for_selector("#fates")
        assert "sums to +8, not 0" in page.inner_text("#refusals")
        page.select_option("select[name='name:Bbo']", label="Bob")
        page.select_option("select[name='name:Grace Visitor']", "guest")
        assert wider_than_screen(page) == []
        page.click("button:has-text('Check again')")
        page.wait_for_selector("#fates")
        assert wider_than_screen(page) == []
        shot(page, "history-1-dry-run", "#names")
        serious = axe_check(page, "history-import", {})
        assert serious == [], serious
        page.check("input[name='skip_refused']")
        page.click("button[value='import']")
        page.wait_for_selector("text=Imported 7 nights")
        shot(page, "history-2-imported")
        # The imports' sentences sit inside the card's padding (found in QA: the file's name
        # touched the card's edge).
        inset = page.evaluate("""() => {
          const card = document.querySelector('#imports').getBoundingClientRect();
          const name = document.querySelector('#imports li strong').getBoundingClientRect();
          return name.left - card.left; }""")
        assert inset >= 8, inset
        assert ClubSession.objects.filter(club=club).count() == 7
    finally:
        page.context.close()
    assert (SCREENSHOTS / "history-1-dry-run.png").exists()


def test_the_player_page_and_rating_on_a_phone_and_printed(chromium, live_server, club, users,
                                                           make_season, bmja_version, members):
    import subprocess

    from history import rating_store

    make_season(bmja_version, seed=7, nights=4, hands=5)
    rating_store.turn_on(club)
    page = phone_page(chromium)
    try:
        log_in(page, live_server.url, "member-user")
        page.goto(f"{live_server.url}/clubs/{club.slug}/history/rating/")
        page.wait_for_selector("#rating")
        assert wider_than_screen(page) == []
        shot(page, "history-3-rating")
        page.click(f"#rating a >> text={members[0].display_name}")
        page.wait_for_selector("#stats")
        assert wider_than_screen(page) == []
        shot(page, "history-4-player")
        serious = axe_check(page, "history-player", {})
        assert serious == [], serious
        pdf = SCREENSHOTS / "history-player.pdf"
        page.emulate_media(media="print")
        page.pdf(path=str(pdf), format="A4")
        subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf),
                        str(SCREENSHOTS / "history-player-print")], check=True)
    finally:
        page.context.close()


def test_importing_a_kajongg_database_on_a_phone(chromium, live_server, club, users, tmp_path):
    import random

    from tests.history.kajongg_db import build, random_game

    for name in ("Anna", "Bert", "Cleo"):
        Member.objects.create(club=club, display_name=name)
    rng = random.Random(3)
    path = build(tmp_path / "kajongg3.db", [
        random_game(rng, "2019-03-06", ["Anna", "Bert", "Cleo", "Dirk"], 5)])
    page = phone_page(chromium)
    try:
        log_in(page, live_server.url, "admin-user")
        page.goto(f"{live_server.url}/clubs/{club.slug}/history/imports/")
        page.set_input_files("#id_file", str(path))
        page.click("button:has-text('Read the sheet')")
        page.wait_for_selector("#notes")
        page.select_option("select[name='name:Dirk']", "guest")
        assert wider_than_screen(page) == []
        shot(page, "history-5-kajongg")
        serious = axe_check(page, "history-kajongg", {})
        assert serious == [], serious
        page.click("button[value='import']")
        page.wait_for_selector("text=Imported 1 night (1 Kajongg game, 5 hands;")
    finally:
        page.context.close()


def test_the_rating_beside_the_standings_on_a_phone_and_a_wide_screen(
        chromium, live_server, club, users, make_season, bmja_version, members):
    """Stacked after the season's table at 390 px, nothing wider than the screen; in a column
    beside it on a wide screen."""
    from history import rating_store

    season = make_season(bmja_version, seed=5, nights=3, hands=4)
    rating_store.turn_on(club)
    url = f"{live_server.url}/clubs/{club.slug}/league/{season.pk}/"
    page = phone_page(chromium)
    try:
        log_in(page, live_server.url, "member-user")
        page.goto(url)
        page.wait_for_selector("#rating-beside")
        assert wider_than_screen(page) == []
        table, rating = (page.locator(s).bounding_box() for s in ("#standings", "#rating-beside"))
        assert rating["y"] >= table["y"] + table["height"]  # under the standings
        shot(page, "history-6-standings-rating")
        serious = axe_check(page, "history-standings-rating", {})
        assert serious == [], serious
    finally:
        page.context.close()
    wide = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    try:
        log_in(wide, live_server.url, "member-user")
        wide.goto(url)
        wide.wait_for_selector("#rating-beside")
        assert wider_than_screen(wide) == []
        table, rating = (wide.locator(s).bounding_box() for s in ("#standings", "#rating-beside"))
        assert rating["x"] >= table["x"] + table["width"]  # beside it
        assert rating["y"] < table["y"] + table["height"]
        wide.screenshot(path=str(SCREENSHOTS / "history-7-standings-rating-wide.png"))
    finally:
        wide.context.close()
