"""What a walk through the product on a phone (390x844, headless Chromium) found: pages whose
tables hid what they are for past the right edge. Each test names the page and what was seen.
Screenshots go to tests/screenshots/qa-*.png."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from clubs.models import ClubSession, Member
from houserules.models import HouseRuleRecord
from tests.members.conftest import play_hands, seat_table
from tests.members.test_house_rule_pages import copy_form
from tests.web.test_browser_record import log_in, phone_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE_WIDTH = 390


@pytest.fixture
def phone(chromium):
    page = phone_page(chromium)
    yield page
    page.context.close()


def wider_than_the_screen(page) -> list[str]:
    """Elements whose right edge passes the screen's, outside a frame meant to scroll."""
    return page.evaluate("""(width) => [...document.querySelectorAll('main *')]
        .filter(e => !e.closest('[data-scroll-frame]') && !e.closest('.scroll'))
        .filter(e => e.getBoundingClientRect().right > width + 0.5)
        .map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 30))""", PHONE_WIDTH)


def right_edge(page, selector: str) -> float:
    return page.locator(selector).first.evaluate("e => e.getBoundingClientRect().right")


def test_who_paid_whom_stays_on_a_phone(phone, live_server, club, users, bmja_version):
    """The history page's 'Who paid whom' at 390 px: the Net column ran 2 px past the screen
    with an opponent named =HYPERLINK("x"), and further with any longer name."""
    names = ['=HYPERLINK("x")', "Margaret Featherstonehaugh-Smythe", "Bob", "Carol"]
    people = [Member.objects.create(club=club, display_name=n) for n in names]
    night = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 19),
                                       house_rule_version=bmja_version)
    played = play_hands(seat_table(night, 1, people), users["scorer"], random.Random(3), 6)
    assert played
    log_in(phone, live_server.url, "member-user")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/history/players/{people[2].pk}/")
    phone.wait_for_selector("#paid")
    shot(phone, "qa-history-paid", "#paid")
    assert wider_than_the_screen(phone) == []
    assert right_edge(phone, "#paid th:last-child") <= PHONE_WIDTH


def test_a_rules_differences_show_their_values_on_a_phone(client_as, phone, live_server,
                                                          club):
    """A house rule's 'What we changed': the base rule's long name headed a column that would
    not wrap, so on a phone the card showed the settings and 'BMJA (B', the values (1000, 500)
    off to the right."""
    admin = client_as("admin")
    data = copy_form(admin, club)
    data.update(name="Jade rules", slug="jade-rules", scoring__limit=500,
                item__bonus_tile__points=2)
    admin.post(f"/clubs/{club.slug}/house-rules/copy/", data)
    assert HouseRuleRecord.objects.filter(slug="jade-rules").exists()
    log_in(phone, live_server.url, "admin-user")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/house-rules/jade-rules/")
    shot(phone, "qa-rule-differences", "#differences")
    ours = phone.locator("#differences tbody tr", has_text="Limit").locator("td").last
    assert ours.inner_text() == "500"
    assert ours.evaluate("e => e.getBoundingClientRect().right") <= PHONE_WIDTH
    assert wider_than_the_screen(phone) == []


def test_the_rating_table_stays_on_a_phone(phone, live_server, club, users, bmja_version):
    """The club rating at 390 px with a night played: 'Sam Scorer provisional' would not wrap
    and the Grade and Nights columns ran to 484 px, off the screen."""
    from history.models import RatingSettings

    RatingSettings.objects.create(club=club, enabled=True)
    people = [Member.objects.create(club=club, display_name=n)
              for n in ("Sam Scorer", "Mary Member", "Ann Archer", '=HYPERLINK("x")')]
    night = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 19),
                                       house_rule_version=bmja_version)
    assert play_hands(seat_table(night, 1, people), users["scorer"], random.Random(4), 4)
    log_in(phone, live_server.url, "member-user")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/history/rating/")
    phone.locator("#rating", has_text="provisional").first.wait_for()
    shot(phone, "qa-rating", "#rating")
    assert wider_than_the_screen(phone) == []
    assert right_edge(phone, "#rating th:last-child") <= PHONE_WIDTH


def test_a_button_of_two_lines_is_centred_and_off_its_border(phone, live_server, club, users):
    """'Invite someone to log in (scorer, admin, member)' on the members page, 'At the door:
    check-in and draw the tables' on a session page: a label that wraps on a phone sat
    left-aligned, its lines touching the button's top and bottom border, while one-line
    buttons are centred."""
    log_in(phone, live_server.url, "admin-user")
    phone.goto(f"{live_server.url}/clubs/{club.slug}/members/")
    button = phone.locator("main a.btn", has_text="Invite someone to log in").first
    shot(phone, "qa-two-line-button", "main a.btn >> nth=0")
    lines = button.evaluate("""b => { const r = document.createRange(); r.selectNodeContents(b);
        const box = b.getBoundingClientRect();
        return [...r.getClientRects()].map(l => [l.left - box.left, box.right - l.right,
                                                 l.top - box.top, box.bottom - l.bottom]); }""")
    assert len({round(top) for _, _, top, _ in lines}) >= 2, "the label should wrap at 390 px"
    for left, right, top, bottom in lines:
        assert abs(left - right) <= 3  # centred
        assert top >= 3 and bottom >= 3  # off the border
