"""House rules side by side (issue #16 part 1): the API and the page."""

from __future__ import annotations

import pytest

from compare.rule_diff import compare_rules
from scoring.engine import get_house_rule


def test_only_differing_rows_unless_everything():
    bmja, guide = get_house_rule("bmja"), get_house_rule("guide")
    rows = compare_rules([bmja, guide])
    assert rows and all(r.differs for r in rows)
    limit = next(r for r in rows if r.key == "scoring.limit")
    assert limit.label == "Limit (most a hand can score)" and limit.values == ("1000", "2000")
    everything = compare_rules([bmja, guide], everything=True)
    assert len(everything) > len(rows)
    assert any(not r.differs for r in everything)


def test_an_item_only_one_rule_has_reads_not_in_this_rule():
    rows = compare_rules([get_house_rule("bmja"), get_house_rule("guide")])
    chow = next(r for r in rows if r.key == "chow")
    assert chow.values[1] == "not in this rule"


def test_a_rule_against_itself_differs_nowhere():
    assert compare_rules([get_house_rule("bmja"), get_house_rule("bmja")]) == []


@pytest.mark.django_db
def test_api(client):
    answer = client.get("/api/v1/house-rules/compare/?rules=bmja,guide")
    assert answer.status_code == 200
    body = answer.json()
    assert [r["slug"] for r in body["rules"]] == ["bmja", "guide"]
    assert all(r["differs"] for r in body["rows"])
    everything = client.get("/api/v1/house-rules/compare/?rules=bmja,guide&everything=1").json()
    assert len(everything["rows"]) > len(body["rows"])
    one = client.get("/api/v1/house-rules/compare/?rules=bmja")
    assert one.status_code == 400 and "at least 2" in one.json()["rules"][0]


@pytest.mark.django_db
def test_page(client):
    page = client.get("/compare/rules/?rules=bmja&rules=guide")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Limit (most a hand can score)" in text and "2000" in text
    assert client.get("/compare/rules/?rules=bmja").status_code == 200  # the form says why
    one = client.get("/compare/rules/?rules=bmja").content.decode()
    assert "Tick 2 to 8 house rules to compare; you ticked 1." in one


@pytest.mark.django_db
def test_the_form_says_how_many_rules_before_it_is_sent(client):
    """Twelve rules are offered and 2 to 8 may be ticked: the form says so on first sight, and
    nine ticked are refused with the same words (issue #25)."""
    first = client.get("/compare/rules/").content.decode()
    assert "Tick 2 to 8 house rules" in first
    nine = "&".join(f"rules={s}" for s in ("bmja", "guide", "balsall-common",
                                           "west-wind-goulash", "bmja-jokers", "bmja-west-wind",
                                           "bmja-2-players", "bmja-3-players", "bmja-5-players"))
    assert "you ticked 9" in client.get(f"/compare/rules/?{nine}").content.decode()


@pytest.mark.django_db
def test_show_everything_is_a_link_either_way(client):
    """Only what differs, or everything: a link on the results (no form to fill again)."""
    three = "/compare/rules/?rules=bmja&rules=guide&rules=balsall-common"
    only = client.get(three).content.decode()
    assert "&amp;everything=on\">Show everything</a>" in only
    everything = client.get(three + "&everything=on").content.decode()
    assert 'Show only what differs</a>' in everything
    assert "everything=on\">Show only" not in everything
    assert everything.count("<tr class=\"") > only.count("<tr class=\"")
