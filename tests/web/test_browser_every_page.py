"""Every page a member, a scorer, the club's secretary (its admin) and the public open, at a
390x844 phone and a 1280x800 desktop (issue #25): nothing wider than the screen outside a frame
marked as deliberately scrollable (``data-scroll-frame``: the paper-shaped sheet grid, a wide
score table), and axe-core finds no violation at all on any of them.

The demo club (``manage.py load_demo``: a night of twelve hands under bmja, tiles and agreed
scores, wall games and goulash hands), published so the public sees it, with a finished
comparison and a published standings snapshot. Screenshots of each page at each size go to
tests/screenshots/every-page/ (git-ignored).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, ClubSession, Hand, Member, MemberRole, Table
from tests.web.conftest import PASSWORD, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = ((390, 844), (1280, 800))
SHOTS = SCREENSHOTS / "every-page"

# Each element wider than the screen, or starting left of it, that is not inside a frame the
# page means to scroll sideways; and whether the document itself scrolls sideways.
OVERFLOW = """() => {
    const width = document.documentElement.clientWidth;
    const wide = [];
    // Inside a visually hidden box (the sr-only pattern: 1 px, overflow hidden): not shown.
    const clipped = (e) => {
        for (let a = e.parentElement; a; a = a.parentElement) {
            const box = a.getBoundingClientRect();
            if ((box.width <= 1 || box.height <= 1) && getComputedStyle(a).overflow !== 'visible')
                return true;
        }
        return false;
    };
    for (const e of document.querySelectorAll('body *')) {
        if (e.closest('[data-scroll-frame]') && !e.matches('[data-scroll-frame]')) continue;
        if (clipped(e)) continue;
        const box = e.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.right > width + 1 || box.left < -1) {
            const id = e.id ? '#' + e.id : '';
            const cls = typeof e.className === 'string' && e.className
                ? '.' + e.className.trim().split(/\\s+/).join('.') : '';
            wide.push(`${e.tagName.toLowerCase()}${id}${cls} ${Math.round(box.left)}-${Math.round(box.right)}`);
        }
    }
    return {page: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8)};
}"""


@pytest.fixture
def demo(db):
    call_command("load_demo", allow_production=True, verbosity=0)
    club = Club.objects.get(slug="demo")
    club.published = True
    club.save(update_fields=["published"])
    session = ClubSession.objects.get(club=club)
    table = Table.objects.get(session=session)
    member_user = get_user_model().objects.create_user("demo-member", password=PASSWORD)
    Member.objects.create(club=club, user=member_user, display_name="Mabel Member",
                          role=MemberRole.MEMBER)
    for name in ("demo-admin", "demo-scorer"):
        user = get_user_model().objects.get(username=name)
        user.set_password(PASSWORD)
        user.save()
    return {"club": club, "session": session, "table": table, "season": session.season}


def _paths(demo) -> dict[str, dict[str, str]]:
    """role -> {page name: path}: what each opens after a night."""
    from compare import runs
    from compare.rule_choice import chosen_rules
    from compare.scope import resolve_scope
    from league.views import publish_snapshot

    club, session, table, season = demo["club"], demo["session"], demo["table"], demo["season"]
    admin = get_user_model().objects.get(username="demo-admin")
    scope = resolve_scope({"session": session.pk}, admin)
    comparison = runs.start(scope, chosen_rules(["bmja", "guide", "balsall-common"], admin),
                            admin, background=False)
    snapshot = publish_snapshot(season, admin, note="Half-way")
    hand = Hand.objects.filter(table=table).order_by("number").first()
    player = Member.objects.filter(club=club, user__isnull=True).order_by("pk").first()
    night = f"/clubs/{club.slug}/sessions/{session.pk}/"
    at_table = f"{night}tables/{table.pk}/"
    league = f"/clubs/{club.slug}/league/{season.pk}/"
    read = {
        "club": f"/clubs/{club.slug}/",
        "night": night,
        "table": at_table,
        "hand": f"{at_table}hands/{hand.pk}/",
        "hand-other-rules": f"{at_table}hands/{hand.pk}/compare/?rules=bmja&rules=guide",
        "sheets": f"{night}sheet/",
        "sheets-tally": f"{night}sheet/?layout=tally",
        "standings": league,
        "player": f"{league}players/{player.pk}/",
        "snapshot": f"{league}snapshots/{snapshot.pk}/",
        "compare-rules": "/compare/rules/?rules=bmja&rules=guide&rules=balsall-common",
    }
    # A comparison's report is for the club's members (the public gets 404).
    member = {**read, "what-if": f"/clubs/{club.slug}/compare/",
              "comparison": f"/compare/{comparison.pk}/"}
    scorer = {**member, "record": f"{at_table}record/",
              "correct": f"{at_table}hands/{hand.pk}/correct/"}
    secretary = {**scorer, "league-rules": f"{league}rules/"}
    return {"public": read, "demo-member": member, "demo-scorer": scorer,
            "demo-admin": secretary}


def _log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/?next=/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def _hand_headers(page, where: str) -> list[str]:
    """Each hand's header on the table page: "Hand 12" on one line, its buttons on one row
    beside or below it, never wrapped onto a second row or squeezing the number."""
    found = page.evaluate(r"""() => [...document.querySelectorAll('.hand-actions')].map(nav => {
        const title = nav.parentElement.querySelector('h3');
        const buttons = [...nav.querySelectorAll('.btn')].map(b => b.getBoundingClientRect());
        const line = parseFloat(getComputedStyle(title).lineHeight) || 30;
        return {
            title: title.textContent.trim().split(/\s+/).slice(0, 2).join(' '),
            titleLines: Math.round(title.getBoundingClientRect().height / line),
            rows: new Set(buttons.map(b => Math.round(b.top))).size,
        };
    })""")
    return [f"{where}: {h['title']} header: {h['titleLines']} line(s), buttons on {h['rows']} rows"
            for h in found if h["titleLines"] > 1 or h["rows"] > 1]


def test_every_page_fits_the_screen_and_passes_axe(chromium, live_server, demo):
    pytest.importorskip("axe_playwright_python")
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    SHOTS.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    checked = 0
    paths = _paths(demo)
    for role, pages in paths.items():
        for width, height in VIEWPORTS:
            context = chromium.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.set_default_timeout(30_000)
            if role != "public":
                _log_in(page, live_server.url, role)
            for name, path in pages.items():
                answer = page.goto(live_server.url + path)
                if page.locator("button[value=take_over]").count():  # another phone holds it
                    page.click("button[value=take_over]")
                    page.wait_for_load_state()
                where = f"{role} {name} {width}px"
                if answer is None or answer.status != 200:
                    failures.append(f"{where}: answered {answer and answer.status}")
                    continue
                page.screenshot(path=str(SHOTS / f"{role}-{name}-{width}.png"), full_page=True)
                fit = page.evaluate(OVERFLOW)
                if fit["page"] > fit["width"] + 1 or fit["wide"]:
                    failures.append(f"{where}: {fit['page']} px wide in {fit['width']}: "
                                    f"{fit['wide']}")
                if name == "table" and width == 390:
                    failures += _hand_headers(page, where)
                for violation in axe.run(page).response["violations"]:
                    failures.append(f"{where}: axe {violation['id']} ({violation['impact']}) "
                                    f"{[n['target'] for n in violation['nodes'][:3]]}")
                checked += 1
            context.close()
    assert failures == [], "\n".join(failures)
    assert checked == len(VIEWPORTS) * sum(len(pages) for pages in paths.values())


def test_the_full_hand_record_page_is_short_enough_on_a_phone(chromium, live_server, demo):
    """All four seats entered as full hands with the tile palette open: the seats two to a row
    and the short boxes side by side keep the page under 3,400 px at 390 px (issue #25: it was
    about 4,800 px, then 3,592 px with one palette)."""
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(30_000)
    _log_in(page, live_server.url, "demo-scorer")
    club, session, table = demo["club"], demo["session"], demo["table"]
    page.goto(f"{live_server.url}/clubs/{club.slug}/sessions/{session.pk}/tables/{table.pk}"
              "/record/")
    page.locator("#record-form input[name=winner]").first.check(force=True)
    for mode in page.locator("input[name$='-mode'][value=full]").all():
        mode.check(force=True)
    page.locator("input[name$='-concealed']").first.click()
    assert page.locator(".palette").first.is_visible()
    height = page.evaluate("document.documentElement.scrollHeight")
    page.screenshot(path=str(SHOTS / "record-full-hands-390.png"), full_page=True)
    assert height < 3400, height
    # Every seat chip and tile is still a 44 px target.
    for chip in page.locator(".choices.seat-chips span").all():
        box = chip.bounding_box()
        if box:
            assert box["height"] >= 44 and box["width"] >= 44
    page.context.close()
