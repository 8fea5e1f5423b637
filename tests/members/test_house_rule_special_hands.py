"""The special hands on the secretary's house-rule form: each hand's part of the limit, what
fishing for it scores and its yes/no details (a formset, one small form per hand), shown as the
rule has them, saved as a new version like every other setting, described on the rule's pages,
and refused with a note on the field for a part out of range or one that cannot be read."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from houserules.copies import house_rule_of
from houserules.models import HouseRuleRecord
from tests.members.test_house_rule_pages import as_sent

pytestmark = pytest.mark.django_db


def key(data: dict, code: str, field: str) -> str:
    """The posted name of ``field`` of special hand ``code`` (``special-<i>-<field>``)."""
    index = next(k.split("-")[1] for k, v in data.items()
                 if k.startswith("special-") and k.endswith("-code") and v == code)
    return f"special-{index}-{field}"


def test_every_special_hand_is_on_the_form_as_the_rule_has_it(ours):
    client, edit = ours
    page = client.get(edit)
    data = as_sent(page.context["form"])
    assert data["special-TOTAL_FORMS"] == 18
    assert data[key(data, "knitting", "limit")] == "1/2"
    assert data[key(data, "knitting", "fishing_limit")] == "1/5"
    assert data[key(data, "thirteen_unique_wonders", "limit")] == "1"
    assert key(data, "heavens_blessing", "fishing_limit") not in data  # fishing scores nothing
    assert data[key(data, "three_great_scholars", "fishing_actual_if_greater")] == "on"
    assert data[key(data, "three_great_scholars", "detail__rest_one_suit")] == "on"
    assert key(data, "imperial_jade", "detail__dragon_pung_required") not in data  # unticked
    assert data[key(data, "knitting", "detail__concealed")] == "on"
    html = page.content.decode()
    assert 'id="special-hands"' in html and "A pung of green dragons is required" in html
    assert 'inputmode="decimal"' in html


def test_parts_of_the_limit_and_details_saved_as_a_new_version_and_described(ours, club):
    client, edit = ours
    data = as_sent(client.get(edit).context["form"])
    data[key(data, "knitting", "limit")] = "1/4"
    data[key(data, "knitting", "fishing_limit")] = "0.1"
    data[key(data, "all_pair_honours", "fishing_limit")] = ""
    data[key(data, "imperial_jade", "detail__dragon_pung_required")] = "on"
    del data[key(data, "three_great_scholars", "fishing_actual_if_greater")]
    data[key(data, "buried_treasure", "detail__kongs")] = "on"
    data[key(data, "heavens_blessing", "limit")] = "half"
    answer = client.post(edit, data)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    assert record.latest_version().number == 2
    assert record.overrides == {"items": {
        "knitting": {"limit": "1/4", "fishing_limit": "1/10"},
        "all_pair_honours": {"fishing_limit": None},
        "imperial_jade": {"args": {"dragon_pung_required": True}},
        "three_great_scholars": {"fishing_actual_if_greater": False},
        "buried_treasure": {"args": {"kongs": True}},
        "heavens_blessing": {"limit": "1/2"},
    }}
    rule = house_rule_of(record.latest_version())
    assert rule.item("knitting").limit == Fraction(1, 4)
    assert rule.item("knitting").fishing_limit == Fraction(1, 10)
    assert rule.item("all_pair_honours").fishing_limit is None
    assert rule.item("imperial_jade").kwargs["dragon_pung_required"] is True
    assert rule.item("buried_treasure").kwargs["kongs"] is True
    # The rule's pages say what changed, in a club's words.
    detail = client.get(reverse("club-house-rule", args=[club.slug, "jade-rules"]))
    changed = detail.content.decode()
    for words in ("a quarter of the limit", "fishing: 1/10 of the limit",
                  "a pung of green dragons required", "kongs allowed",
                  "fishing: 2/5 of the limit or its own value if greater"):
        assert words in changed, words
    rows = {row.key: row.values for row in detail.context["differences"] if row.differs}
    assert rows["knitting"][1].startswith("a quarter of the limit")
    assert rows["heavens_blessing"] == ("the limit, Mah Jong hand only",
                                        "half the limit, Mah Jong hand only")
    # Shown again as saved, and back to the base's values the overrides go.
    shown = as_sent(client.get(edit).context["form"])
    assert shown[key(shown, "knitting", "limit")] == "1/4"
    assert shown[key(shown, "imperial_jade", "detail__dragon_pung_required")] == "on"
    shown[key(shown, "knitting", "limit")] = "0.5"
    shown[key(shown, "knitting", "fishing_limit")] = "1/5"
    shown[key(shown, "all_pair_honours", "fishing_limit")] = "1/5"
    del shown[key(shown, "imperial_jade", "detail__dragon_pung_required")]
    shown[key(shown, "three_great_scholars", "fishing_actual_if_greater")] = "on"
    del shown[key(shown, "buried_treasure", "detail__kongs")]
    shown[key(shown, "heavens_blessing", "limit")] = "the limit"
    assert client.post(edit, shown).status_code == 302
    record.refresh_from_db()
    assert record.overrides == {} and record.latest_version().number == 3


@pytest.mark.parametrize("field, typed, note", [
    ("limit", "2", "At most the limit itself (1)"),
    ("limit", "11", "At most the limit itself (1)"),
    ("limit", "0", "more than 0"),
    ("limit", "-1/2", "cannot be negative"),
    ("limit", "", "A special hand is worth a part of the limit, more than 0 and at most 1"),
    ("limit", "a bit", "Cannot read 'a bit' as a part of the limit"),
    ("limit", "1/0", "Cannot read '1/0'"),
    ("limit", "1/1001", "simpler fraction"),
    ("fishing_limit", "3/2", "At most the limit itself (1)"),
    ("fishing_limit", "0", "leave it empty for nothing"),
    ("fishing_limit", "3/4", "cannot score more than the hand itself (half the limit)"),
    ("fishing_limit", "<b>x</b>", "Cannot read"),
])
def test_a_part_out_of_range_or_unreadable_is_a_note_on_its_field(ours, field, typed, note):
    client, edit = ours
    data = as_sent(client.get(edit).context["form"])
    data[key(data, "knitting", field)] = typed
    answer = client.post(edit, data)
    assert answer.status_code == 400
    hand = answer.context["form"].special.form_of("knitting")
    assert any(note in e for e in hand.errors[field]), hand.errors
    html = answer.content.decode()
    assert "Some answers need mending" in html and '<details class="card" id="special-hands" open>' in html
    assert "<b>x</b>" not in html
    assert HouseRuleRecord.objects.get(slug="jade-rules").latest_version().number == 1


def test_a_tampered_or_stale_formset_is_refused_not_a_500(ours):
    client, edit = ours
    data = as_sent(client.get(edit).context["form"])
    swapped = {**data, key(data, "knitting", "code"): "purity"}
    answer = client.post(edit, swapped)
    assert answer.status_code == 400 and "out of date" in answer.content.decode()
    for count in ("0", "5", "999", "x"):
        answer = client.post(edit, {**data, "special-TOTAL_FORMS": count})
        assert answer.status_code in (302, 400)
        assert HouseRuleRecord.objects.get(slug="jade-rules").overrides == {}
    assert client.post(edit, {**data, "special-TOTAL_FORMS": "0"}).status_code == 400


def test_a_form_posted_without_the_special_hands_keeps_them(ours):
    """A page opened before the special hands were on it posts none: they stay as they were
    (an earlier change to them is kept), and the rest is saved."""
    client, edit = ours
    data = as_sent(client.get(edit).context["form"])
    data[key(data, "knitting", "limit")] = "1/4"
    assert client.post(edit, data).status_code == 302
    old_page = {k: v for k, v in as_sent(client.get(edit).context["form"]).items()
                if not k.startswith("special-")}
    old_page["scoring__limit"] = 2000
    assert client.post(edit, old_page).status_code == 302
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    assert record.overrides == {"scoring": {"limit": 2000},
                                "items": {"knitting": {"limit": "1/4"}}}


def test_only_an_admin_edits_them(client_as, ours, club):
    _, edit = ours
    scorer = client_as("scorer")
    assert scorer.post(edit, {"special-TOTAL_FORMS": "0"}).status_code == 403


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [320, 390])
def test_on_a_phone_the_special_hands_fit_and_say_what_to_mend(chromium, live_server, club,
                                                                 users, width):
    from houserules.copies import create_copy
    from tests.web.conftest import PASSWORD
    from tests.web.test_browser_every_page import OVERFLOW

    create_copy(club, "bmja", "jade-rules", "Jade rules")
    context = chromium.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    page.goto(f"{base}/accounts/login/?next=/")
    page.fill("#id_username", "admin-user")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}{reverse('club-house-rule-edit', args=[club.slug, 'jade-rules'])}")
    page.click("#special-hands > summary")
    knitting = page.locator("#special-hands fieldset", has_text="seven pairs of one number")
    worth = knitting.locator("input[name$='-limit']")
    assert worth.input_value() == "1/2"
    fit = page.evaluate(OVERFLOW)
    assert fit["page"] <= fit["width"] + 1 and not fit["wide"], fit
    worth.fill("2")
    save = ".sticky-actions button[type=submit]"
    page.click(save)
    page.wait_for_load_state()
    knitting = page.locator("#special-hands fieldset", has_text="seven pairs of one number")
    note = knitting.locator(".errorlist", has_text="At most the limit itself")
    assert note.is_visible()
    fit = page.evaluate(OVERFLOW)
    assert fit["page"] <= fit["width"] + 1 and not fit["wide"], fit
    knitting.locator("input[name$='-limit']").fill("1/4")
    page.click(save)
    page.wait_for_url(f"{base}{reverse('club-house-rule', args=[club.slug, 'jade-rules'])}")
    assert page.locator("#differences", has_text="a quarter of the limit").is_visible()
    context.close()
