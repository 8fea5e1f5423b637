"""Issue #22, "Done when": a club run from its own pages on a phone (390x844, Chromium), starting
from an empty database and never opening /admin/.

A person signs up, starts a club, invites a scorer who sets a password from the link, adds eight
members, creates a season, copies `bmja` with a 2,000 limit, runs a night of two tables (the
scorer records one of them on their own phone), turns a guest into a member, deletes a table
started by mistake and publishes the standings. Screenshots go to tests/screenshots/run-a-club-*.
"""

from __future__ import annotations

import re
import urllib.request

import pytest
from django.core import mail

from clubs.models import Club, ClubSession, Member, Table
from tests.web.conftest import SCREENSHOTS
from tests.web.test_browser_at_the_table import axe_check
from tests.web.test_browser_record import chip, phone_page, seat_block

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADMIN_EMAIL, SCORER_EMAIL = "margaret@example.org", "sam@example.org"
PASSWORD = "pung-of-dragons-7"
EIGHT = ("Alice", "Bob", "Carol", "David", "Ellen", "Frank", "Grace", "Harry")


AXE: dict = {}
AXE_FAILURES: list[str] = []


def shot(page, name: str) -> None:
    """A screenshot of the whole page, and axe-core's check of it (no serious or critical
    violations)."""
    page.screenshot(path=str(SCREENSHOTS / f"run-a-club-{name}.png"), full_page=True)
    AXE_FAILURES.extend(axe_check(page, name, AXE))


def fits_the_phone(page) -> None:
    """Nothing wider than the screen: no sideways scrolling on a phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1, page.url


def never_the_admin(page, visited: list[str]) -> None:
    page.on("request", lambda request: visited.append(request.url))


def quick_hand(page, winner: str, scores: dict[str, int]) -> None:
    """On the record page: the winner from the wall, each seat's agreed score, saved."""
    chip(page, "Who went Mah Jong?", winner).click()
    chip(page, "How was it won?", "From the wall").click()
    for legend, score in scores.items():
        seat_block(page, legend).locator("input[name$='-score']").fill(str(score))
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r"/tables/\d+/(#hand-\d+)?$"))


def add_a_table(page, night_url: str) -> None:
    page.goto(night_url)
    page.click("summary:has-text('Add a table')")


def test_a_club_run_from_its_own_pages(chromium, live_server, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    base = live_server.url
    visited: list[str] = []
    admin = phone_page(chromium)
    never_the_admin(admin, visited)

    # -- sign up and start a club -------------------------------------------------------------
    admin.goto(base + "/")
    shot(admin, "01-front-page")
    admin.click("a:has-text('Sign up to start a club')")
    admin.fill("#id_name", "Margaret")
    admin.fill("#id_email", ADMIN_EMAIL)
    admin.fill("#id_password1", PASSWORD)
    admin.fill("#id_password2", PASSWORD)
    shot(admin, "02-sign-up")
    admin.click("button:has-text('Sign up')")
    admin.wait_for_url(base + "/")
    # A club is started once the sign-up's email is confirmed: the emailed link leads there.
    (message,) = mail.outbox
    admin.goto(base + re.search(r"https?://[^/\s]+(/accounts/verify/\S+/)", message.body)[1])
    admin.wait_for_url(base + "/start-a-club/")
    admin.fill("#id_name", "Riverside Mah-Jong Club")
    admin.fill("#id_display_name", "Margaret")
    assert admin.locator("#id_house_rule option:checked").inner_text().startswith("BMJA")
    shot(admin, "03-start-a-club")
    fits_the_phone(admin)
    admin.click("button:has-text('Start the club')")
    admin.wait_for_url(base + "/clubs/riverside-mah-jong-club/")
    club = Club.objects.get()
    assert Member.objects.get(club=club).role == "admin"
    shot(admin, "04-club-home")

    # -- invite a scorer, who sets a password from the link on their own phone ----------------
    admin.click("a:has-text('Invite people')")
    admin.fill("#id_name", "Sam")
    admin.select_option("#id_role", "scorer")
    admin.click("button:has-text('Make the link')")
    link = admin.input_value("#invite-link").strip()
    assert link.startswith(base + "/invite/")
    shot(admin, "05-invitation-link")
    fits_the_phone(admin)

    scorer = phone_page(chromium)
    never_the_admin(scorer, visited)
    scorer.goto(link)
    assert "as a scorer" in scorer.inner_text("main")
    scorer.fill("#id_email", SCORER_EMAIL)
    scorer.fill("#id_password1", "kong-of-winds-8")
    scorer.fill("#id_password2", "kong-of-winds-8")
    shot(scorer, "06-invitee-sets-password")
    scorer.click("button:has-text('Set my password and join')")
    scorer.wait_for_url(base + f"/clubs/{club.slug}/")
    assert Member.objects.get(club=club, display_name="Sam").role == "scorer"
    shot(scorer, "07-scorer-joined")

    # -- eight members ------------------------------------------------------------------------
    admin.goto(f"{base}/clubs/{club.slug}/members/")
    for name in EIGHT:
        admin.click("summary:has-text('Add a member')") if not admin.locator(
            "details#add[open]").count() else None
        admin.fill("#add #id_display_name", name)
        admin.click("#add button:has-text('Add')")
        admin.wait_for_load_state()
    assert Member.objects.filter(club=club).count() == 10
    shot(admin, "08-members")
    fits_the_phone(admin)

    # -- a season -----------------------------------------------------------------------------
    admin.goto(f"{base}/clubs/{club.slug}/league/")
    if not admin.locator("details#new-season[open]").count():
        admin.click("summary:has-text('Start a season')")
    admin.fill("#new-season input[name=name]", "2026")
    admin.fill("#new-season input[name=start]", "2026-01-01")
    shot(admin, "09-new-season")
    admin.click("button:has-text('Start the season')")
    admin.wait_for_load_state()
    assert club.seasons.filter(name="2026").exists()

    # -- copy bmja with a 2,000 limit, and play it ---------------------------------------------
    admin.goto(f"{base}/clubs/{club.slug}/")
    admin.click("a:has-text('House rules')")
    admin.locator("li", has_text="BMJA").locator("a:has-text('Copy and adjust')").first.click()
    admin.fill("#id_name", "Riverside BMJA")
    admin.fill("#id_slug", "riverside-bmja")
    admin.fill("#id_scoring__limit", "2000")
    shot(admin, "10-copy-bmja")
    admin.click("button:has-text('Save our copy')")
    admin.wait_for_url(re.compile(r"/house-rules/riverside-bmja/$"))
    assert "2,000" in admin.inner_text("main") or "2000" in admin.inner_text("main")
    admin.click("button:has-text('Start new nights with this rule')")
    admin.wait_for_load_state()
    shot(admin, "11-our-rule")
    fits_the_phone(admin)

    # -- a night of two tables; a third started by mistake ----------------------------------
    admin.goto(f"{base}/clubs/{club.slug}/")
    admin.click("button:has-text('Start the session')")
    admin.wait_for_url(re.compile(r"/sessions/\d+/$"))
    night = ClubSession.objects.get()
    assert night.house_rule_version.record.slug == "riverside-bmja"
    assert night.house_rule_version.data["scoring"]["limit"] == 2000
    for wind, name in zip("ESWN", EIGHT[:4], strict=True):
        admin.select_option(f"#id_{wind}_member", label=name)
    admin.click("button:has-text('Add the table')")
    admin.wait_for_url(re.compile(r"/tables/\d+/$"))
    add_a_table(admin, f"{base}/clubs/{club.slug}/sessions/{night.pk}/")
    for wind, name in zip("ESW", EIGHT[4:7], strict=True):
        admin.select_option(f"#id_{wind}_member", label=name)
    admin.fill("#id_N_guest", "Ivy")  # a guest tonight
    shot(admin, "12-seat-table-2")
    admin.click("button:has-text('Add the table')")
    admin.wait_for_url(re.compile(r"/tables/\d+/$"))
    add_a_table(admin, f"{base}/clubs/{club.slug}/sessions/{night.pk}/")
    admin.select_option("#id_E_member", label="Harry")
    admin.select_option("#id_S_member", label="Margaret")
    admin.fill("#id_W_guest", "Visitor One")
    admin.fill("#id_N_guest", "Visitor Two")
    admin.click("button:has-text('Add the table')")
    admin.wait_for_url(re.compile(r"/tables/\d+/$"))
    one, two, mistake = Table.objects.filter(session=night).order_by("number")

    # Table 1 recorded by the admin, table 2 by the scorer on their own phone.
    admin.goto(f"{base}/clubs/{club.slug}/sessions/{night.pk}/tables/{one.pk}/record/")
    quick_hand(admin, "Alice", {"East · Alice": 40, "South · Bob": 8, "West · Carol": 4,
                                "North · David": 0})
    admin.click("a:has-text('Record hand 2')")
    quick_hand(admin, "Carol", {"East · Alice": 0, "South · Bob": 12, "West · Carol": 64,
                                "North · David": 6})
    shot(admin, "13-table-1")
    scorer.goto(f"{base}/clubs/{club.slug}/sessions/{night.pk}/tables/{two.pk}/")
    scorer.click("a:has-text('Record hand 1')")
    shot(scorer, "14-scorer-records")
    quick_hand(scorer, "Ivy", {"East · Ellen": 2, "South · Frank": 10, "West · Grace": 0,
                               "North · Ivy": 48})
    shot(scorer, "15-table-2")
    fits_the_phone(scorer)

    # The table started by mistake: deleted from its "Mend" page.
    admin.goto(f"{base}/clubs/{club.slug}/sessions/{night.pk}/")
    admin.click(f"a:has-text('Mend table {mistake.number}')")
    shot(admin, "16-mend-table-3")
    admin.click(f"button:has-text('Delete table {mistake.number}')")
    admin.wait_for_load_state()
    assert not Table.objects.filter(pk=mistake.pk).exists()
    shot(admin, "17-table-3-deleted")
    # Its old address says how to get back; the scorer asking for an admin's page is told whom
    # to ask.
    gone = admin.goto(f"{base}/clubs/{club.slug}/sessions/{night.pk}/tables/{mistake.pk}/")
    assert gone.status == 404
    assert "No such table at Riverside Mah-Jong Club" in admin.inner_text("main")
    shot(admin, "17b-deleted-table-404")
    refused = scorer.goto(f"{base}/clubs/{club.slug}/invitations/")
    assert refused.status == 403 and "ask Margaret" in scorer.inner_text("main")
    shot(scorer, "17c-scorer-403")

    # -- the guest joins: her night becomes a member's ----------------------------------------
    admin.goto(f"{base}/clubs/{club.slug}/members/")
    admin.click("summary:has-text('Ivy')")
    shot(admin, "18-guest-to-member")
    admin.click("button:has-text('Make Ivy a member')")
    admin.wait_for_load_state()
    ivy = Member.objects.get(club=club, display_name="Ivy")
    assert two.seats.get(member=ivy)

    # -- publish the standings ----------------------------------------------------------------
    admin.goto(f"{base}/clubs/{club.slug}/league/")
    admin.click("a:has-text('2026')")
    admin.click("button:has-text('Publish the standings')")
    admin.wait_for_load_state()
    shot(admin, "19-standings-published")
    fits_the_phone(admin)
    assert "Ivy" in admin.inner_text("main")

    # -- a program's token: made on the page, shown once, used as a program would -----------
    admin.goto(base + "/")
    admin.click("a:has-text('API tokens')")
    admin.fill("#id_name", "League spreadsheet")
    admin.click("button:has-text('Make a token')")
    secret = admin.input_value("#new-token")
    shot(admin, "20-api-token")
    fits_the_phone(admin)
    # A program has no cookie, only the token.
    request = urllib.request.Request(f"{base}/api/v1/clubs/{club.slug}/standings/",
                                     headers={"Authorization": f"Token {secret}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200

    assert not [url for url in visited if "/admin/" in url], "a page sent the club to /admin/"
    assert not AXE_FAILURES, "\n".join(AXE_FAILURES)
    scorer.context.close()
    admin.context.close()
