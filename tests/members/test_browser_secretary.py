"""A club secretary on a phone (390x844, headless Chromium): the members page (add, rename, a
guest made a member, a merge and its undo), a season started, bmja copied with a 2,000 limit,
a table started by mistake voided and deleted, and published standings withdrawn. Screenshots
go to tests/screenshots/secretary-*.png for a person to look at."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from clubs.models import ClubSession, Member, Season, Seat, Table
from houserules.models import HouseRuleRecord
from league.models import Snapshot
from tests.members.conftest import play_hands, seat_table
from tests.web.test_browser_record import log_in, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(chromium):
    page = phone_page(chromium)
    yield page
    page.context.close()


def snap(page, name: str, part: str | None = None) -> None:
    shot(page, f"secretary-{name}", part)


def test_a_secretary_runs_the_club_from_a_phone(phone, live_server, club, members, users,
                                                bmja_version):
    import random

    page, base = phone, live_server.url
    night = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 19),
                                       house_rule_version=bmja_version)
    first = seat_table(night, 1, [*members[:3], "Zoe Hart"])
    play_hands(first, users["scorer"], random.Random(5), 3)
    mistake = seat_table(night, 2, members[4:8])
    play_hands(mistake, users["scorer"], random.Random(6), 2)
    log_in(page, base, "admin-user")

    # Members: add one, rename, make the guest a member, merge a duplicate and undo it.
    page.goto(f"{base}/clubs/{club.slug}/members/")
    snap(page, "01-members")
    page.click("summary:has-text('Add a member')")
    page.fill("#id_display_name", "Nora Quinn")
    page.select_option("#id_role", "scorer")
    page.click("button:has-text('Add')")
    page.wait_for_selector("text=Nora Quinn added.")
    page.click("a.row:has-text('Alice')")
    page.fill("#id_display_name", "Alice Brown")
    snap(page, "02-member")
    page.click("button:has-text('Save')")
    page.wait_for_selector("text=Alice renamed Alice Brown.")
    page.click("summary:has-text('Zoe Hart')")
    snap(page, "03-guest", "details[open]")
    page.click("button:has-text('Make Zoe Hart a member')")
    page.wait_for_selector("text=The guest Zoe Hart is now the member Zoe Hart")
    assert Seat.objects.filter(member__display_name="Zoe Hart").count() == 1
    page.select_option("#id_keep", label="Ivy")
    page.select_option("#id_duplicate", label="Jack")
    page.click("button:has-text('Merge into one member')")
    page.wait_for_selector("text=Jack merged into Ivy")
    snap(page, "04-merged")
    page.locator("li.change", has_text="Jack merged into Ivy").locator(
        "button:has-text('Undo')").click()
    page.wait_for_selector("text=Undone: Jack is a member apart from Ivy again.")
    assert Member.objects.filter(display_name="Jack").exists()
    # Refused with a sentence: Bob and Carol both played on 19 Nov.
    page.select_option("#id_keep", label="Bob")
    page.select_option("#id_duplicate", label="Carol")
    page.click("button:has-text('Merge into one member')")
    page.wait_for_selector("text=both played at table 1 on 19 November 2026")
    snap(page, "05-merge-refused", "#merge + form")

    # A season, with league rules from a preset.
    page.goto(f"{base}/clubs/{club.slug}/league/")
    page.fill("#id_name", "Winter 2026")
    page.fill("#id_start", "2026-11-01")
    page.select_option("#id_preset", "table-points")
    snap(page, "06-new-season")
    page.click("button:has-text('Start the season')")
    page.wait_for_url(re.compile(r"/league/\d+/(#top)?$"))
    season = Season.objects.get(name="Winter 2026")
    page.goto(f"{base}/clubs/{club.slug}/league/{season.pk}/edit/")
    snap(page, "07-season-edit")

    # Copy bmja with a 2,000 limit.
    page.goto(f"{base}/clubs/{club.slug}/house-rules/")
    snap(page, "08-house-rules")
    page.locator("li", has_text="BMJA").first.locator("a:has-text('Copy and adjust')").click()
    page.fill("#id_name", "Jade rules")
    page.fill("#id_slug", "jade-rules")
    page.fill("#id_scoring__limit", "2000")
    snap(page, "09-copy-form")
    page.click("button:has-text('Save our copy')")
    page.wait_for_selector("text=What we changed")
    snap(page, "10-copy")
    assert HouseRuleRecord.objects.get(slug="jade-rules").overrides == {
        "scoring": {"limit": 2000}}

    # Table 2 was started by mistake: void its hands, then delete it.
    page.goto(f"{base}/clubs/{club.slug}/sessions/{night.pk}/")
    page.click("a:has-text('Mend table 2')")
    snap(page, "11-mend-table")
    page.fill("#void-reason", "started by mistake")
    page.click("button:has-text('Void every hand of table 2')")
    page.wait_for_selector("text=Every hand of table 2 voided")
    page.click("button:has-text('Delete table 2')")
    page.wait_for_selector("text=Mended lately")
    snap(page, "12-mended")
    assert not Table.objects.filter(pk=mistake.pk).exists()

    # Published standings withdrawn: gone from the page, kept to publish again.
    night.season = season
    night.save()
    page.goto(f"{base}/clubs/{club.slug}/league/{season.pk}/")
    page.fill("#publish input[name=as_of]", "2099-01-01")
    page.click("button:has-text('Publish the standings')")
    page.wait_for_selector("text=still to come")
    snap(page, "13-publish-refused", "#publish")
    page.fill("#publish input[name=as_of]", "")
    page.click("button:has-text('Publish the standings')")
    page.wait_for_url(re.compile(r"/snapshots/\d+/(#top)?$"))
    page.goto(f"{base}/clubs/{club.slug}/league/{season.pk}/")
    page.click("button:has-text('Withdraw')")
    page.wait_for_selector("text=are withdrawn")
    snap(page, "14-withdrawn")
    assert not Snapshot.objects.exists()
