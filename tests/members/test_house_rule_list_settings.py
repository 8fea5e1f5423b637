"""Every setting of a house rule on the secretary's form, lists and fractions too: the minimums
to go out, points to payment, the false Mah Jong penalty and the goulash winds, each shown as
the rule has it, saved as typed, and refused with a note on its own field."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from compare.house_rule_forms import AdjustRuleForm
from houserules.models import HouseRuleRecord
from scoring.engine import get_house_rule
from tests.members.test_house_rule_pages import as_sent, copy_form

LISTS = ("scoring__go_out_minimum", "scoring__goulash_go_out_minimum",
         "payment__points_to_payment", "payment__false_mahjong_penalty_limit_fraction",
         "rotation__goulash_winds")


def test_every_setting_of_every_built_in_rule_has_a_field():
    for slug in ("bmja", "guide", "balsall-common", "west-wind-goulash"):
        rule = get_house_rule(slug)
        form = AdjustRuleForm(base=rule, current=rule, goulash_choices=[], new=True)
        for section in ("scoring", "payment", "rotation"):
            for name in rule.to_dict()[section]:
                assert f"{section}__{name}" in form.fields, (slug, section, name)


def test_the_form_shows_the_lists_as_a_club_says_them(client_as, club):
    data = copy_form(client_as("admin"), club, base="balsall-common")
    assert data["scoring__go_out_minimum"] == "3 points"
    assert data["scoring__goulash_go_out_minimum"] == "5 points"
    assert data["payment__points_to_payment"].startswith("0: 1, 1: 2, 2: 4")
    assert data["payment__false_mahjong_penalty_limit_fraction"] == "1/2"
    data = copy_form(client_as("admin"), club, base="west-wind-goulash")
    assert data["rotation__goulash_winds"] == ["W"]


def test_copied_unchanged_the_lists_are_no_overrides(client_as, club):
    client = client_as("admin")
    data = copy_form(client, club, base="balsall-common")
    data.update(name="Ours", slug="ours")
    answer = client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    assert HouseRuleRecord.objects.get(slug="ours").overrides == {}


def test_each_list_setting_is_saved_as_typed_and_shown_again(client_as, club):
    client = client_as("admin")
    data = copy_form(client, club)
    data.update(name="Ours", slug="ours", scoring__go_out_minimum="4 doubles or 500 score",
                scoring__goulash_go_out_minimum="none",
                payment__points_to_payment="0: 1\n1: 2\n5: 10",
                payment__false_mahjong_penalty_limit_fraction="1/4",
                rotation__goulash_winds=["N", "W"])
    answer = client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    assert answer.status_code == 302, answer.content.decode()[-3000:]
    record = HouseRuleRecord.objects.get(slug="ours")
    saved = record.latest_version().data
    assert saved["scoring"]["go_out_minimum"] == [["doubles", 4], ["score", 500]]
    assert saved["scoring"]["goulash_go_out_minimum"] == []
    assert saved["payment"]["points_to_payment"] == [[0, 1], [1, 2], [5, 10]]
    assert Fraction(saved["payment"]["false_mahjong_penalty_limit_fraction"]) == Fraction(1, 4)
    assert saved["rotation"]["goulash_winds"] == ["W", "N"]
    edit = reverse("club-house-rule-edit", args=[club.slug, "ours"])
    shown = as_sent(client.get(edit).context["form"])
    assert shown["scoring__go_out_minimum"] == "4 doubles or 500 score"
    assert shown["scoring__goulash_go_out_minimum"] == "none"
    assert shown["rotation__goulash_winds"] == ["W", "N"]
    # Back to the base's values: the overrides go, and the version says so.
    shown.update(scoring__go_out_minimum="", scoring__goulash_go_out_minimum="",
                 payment__points_to_payment="", rotation__goulash_winds=[],
                 payment__false_mahjong_penalty_limit_fraction="half")
    shown = {k: v for k, v in shown.items() if v != []}
    assert client.post(edit, shown).status_code == 302
    record.refresh_from_db()
    assert record.overrides == {}
    assert record.latest_version().data["payment"]["points_to_payment"] == []


@pytest.mark.parametrize(("field", "typed", "note"), [
    ("scoring__go_out_minimum", "three points", "Cannot read &#x27;three points&#x27;"),
    ("scoring__go_out_minimum", "3 tiles", "points, doubles or score"),
    ("scoring__go_out_minimum", "3 points or 4 points", "each of points, doubles and score once"),
    ("scoring__goulash_go_out_minimum", "lots", "Cannot read"),
    ("payment__points_to_payment", "0: 1, 2: 4, 1: 2", "rising order"),
    ("payment__points_to_payment", "0 - 1", "colon"),
    ("payment__points_to_payment", "0: 99999999999", "Cannot read"),
    ("payment__false_mahjong_penalty_limit_fraction", "a bit", "as a part of the limit"),
    ("payment__false_mahjong_penalty_limit_fraction", "-1/2", "cannot be negative"),
    ("payment__false_mahjong_penalty_limit_fraction", "1/0", "as a part of the limit"),
    ("payment__false_mahjong_penalty_limit_fraction", "", "This field is required"),
    ("rotation__goulash_winds", ["X"], "Winds of the round are E, S, W and N"),
])
def test_bad_input_is_a_note_on_its_own_field(client_as, club, field, typed, note):
    client = client_as("admin")
    data = copy_form(client, club)
    data.update(name="Ours", slug="ours", **{field: typed})
    answer = client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    assert answer.status_code == 400
    form = answer.context["form"]
    assert list(form.errors) == [field]
    assert note in answer.content.decode()
    assert not HouseRuleRecord.objects.filter(slug="ours").exists()
