"""House rules side by side on a phone (QA, phone pass): three rules' differences were a page
27,863 px long at 390 px, a value a line. Now the rules' values sit in columns under a sticky
header of their slugs, the items are grouped by which rules have them, the long groups start
folded on a phone, and the choice of rules folds once they are compared; without script, on a
wide screen and on paper every line is there."""

from __future__ import annotations

import pytest

from compare.rule_diff import compare_rules
from scoring.engine import get_house_rule
from tests.web.test_browser_every_page import OVERFLOW

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THREE = "/compare/rules/?rules=bmja&rules=guide&rules=balsall-common"
LINES = len(compare_rules([get_house_rule(s) for s in ("bmja", "guide", "balsall-common")]))

# Lines of the comparison a reader can see (not inside a folded section).
SHOWN = "() => [...document.querySelectorAll('.side-by-side tbody tr')]" \
        ".filter(r => r.checkVisibility()).length"


def _page(chromium, width: int, javascript: bool = True):
    context = chromium.new_context(viewport={"width": width, "height": 844},
                                   java_script_enabled=javascript)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.mark.parametrize("width", [320, 390])
def test_three_rules_compared_fit_a_phone_in_a_few_screens(chromium, live_server, width):
    page = _page(chromium, width)
    page.goto(live_server.url + THREE)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 8000, height  # 27,863 px at 390 before
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= found["width"] and not found["wide"], found
    titles = page.locator(".rule-section > summary").all_inner_texts()
    assert titles[:3] == ["Scoring (13 lines)", "Payments (11 lines)",
                          "Dealing and rounds (4 lines)"]
    assert "Items only bmja has (42 lines)" in titles
    # A folded section opens with a tap, and every line is in one section or another.
    assert page.locator("tbody tr", has_text="Triple Knitting").count() == 1
    page.locator(".rule-section > summary", has_text="Items only bmja has").click()
    assert page.locator(".rule-section:not([open])").count() >= 1
    page.evaluate("document.querySelectorAll('.rule-section').forEach(d => d.open = true)")
    assert page.evaluate(SHOWN) == LINES
    # The rules' slugs stay in view at the top while a long section scrolls past.
    page.locator("tbody tr", has_text="Triple Knitting").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 300)")
    header = page.evaluate("""() => {
        const row = [...document.querySelectorAll('tbody tr')]
            .find(r => r.textContent.includes('Triple Knitting'));
        const head = row.closest('table').querySelector('thead').getBoundingClientRect();
        return [Math.round(head.top), head.height > 0];
    }""")
    assert header == [0, True], header
    # The choice of rules is one line, open to change them.
    assert not page.locator("#rules-choice").get_attribute("open") == ""
    assert page.locator("#rules-choice > summary").inner_text().startswith(
        "Compared: bmja, guide, balsall-common")


def test_without_script_wide_and_on_paper_every_line_shows(chromium, live_server):
    page = _page(chromium, 390, javascript=False)
    page.goto(live_server.url + THREE)
    assert page.evaluate(SHOWN) == LINES
    wide = _page(chromium, 1280)
    wide.goto(live_server.url + THREE)
    assert wide.evaluate(SHOWN) == LINES
    phone = _page(chromium, 390)
    phone.goto(live_server.url + THREE)
    assert phone.evaluate(SHOWN) < LINES  # folded on a phone ...
    phone.emulate_media(media="print")
    assert phone.evaluate(SHOWN) == LINES  # ... and printed whole

