"""The admin's house rules: adding one is copying one with overrides, through the copy service."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Club, HouseRuleRecord, HouseRuleVersion
from houserules.copies import base_record, create_copy

ADD = "admin:houserules_houserulerecord_add"


@pytest.fixture
def club(db):
    return Club.objects.create(name="Four Winds Club", slug="four-winds")


@pytest.fixture
def staff(client, db):
    user = get_user_model().objects.create_superuser("root-hr", "root@example.org", "pw-x-42")
    client.force_login(user)
    return client


def _form(club, base, **changes):
    data = {"club": club.pk, "based_on": base.pk, "slug": "fw-guide", "name": "FW guide",
            "description": "", "overrides": '{"scoring": {"limit": 3000}}',
            "versions-TOTAL_FORMS": 0, "versions-INITIAL_FORMS": 0}
    return {**data, **changes}


def test_adding_is_copying_with_overrides(staff, club):
    base = base_record("guide")
    response = staff.post(reverse(ADD), _form(club, base))
    assert response.status_code == 302, response.content.decode()[:2000]
    record = HouseRuleRecord.objects.get(slug="fw-guide")
    assert record.club == club and record.based_on == base
    version = record.latest_version()
    assert version.number == 1
    assert version.data["scoring"]["limit"] == 3000
    assert version.data["based_on"] == "guide"


def test_invalid_overrides_are_shown_against_the_field(staff, club):
    base = base_record("guide")
    response = staff.post(reverse(ADD), _form(club, base, overrides='{"scoring": {"limit": -1}}'))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["overrides"]
    assert any(message.startswith("scoring.limit: The limit must be") for message in errors)
    assert not HouseRuleRecord.objects.filter(slug="fw-guide").exists()


def test_editing_a_copy_in_the_admin_makes_a_new_version(staff, club):
    record = create_copy(club, "guide", "fw-guide", "FW guide", {}, None)
    url = reverse("admin:houserules_houserulerecord_change", args=[record.pk])
    data = {"name": "FW guide", "description": record.description,
            "overrides": '{"payment": {"starting_tally": 1000}}',
            "versions-TOTAL_FORMS": 1, "versions-INITIAL_FORMS": 1}
    response = staff.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert [v.number for v in record.versions.order_by("number")] == [1, 2]
    assert record.latest_version().data["payment"]["starting_tally"] == 1000
    assert record.versions.get(number=1).data["payment"]["starting_tally"] == 2000


def test_the_copy_action_opens_the_add_form_with_the_base(staff, club):
    base = base_record("balsall-common")
    changelist = reverse("admin:houserules_houserulerecord_changelist")
    response = staff.post(changelist, {"action": "copy_with_overrides",
                                       "_selected_action": [base.pk]})
    assert response.status_code == 302
    assert response.url == f"{reverse(ADD)}?based_on={base.pk}"
    page = staff.get(response.url)
    assert page.context["adminform"].form.initial["based_on"] == str(base.pk)


def test_built_ins_and_versions_are_read_only(staff, club):
    base = base_record("guide")
    change = reverse("admin:houserules_houserulerecord_change", args=[base.pk])
    assert staff.get(change).status_code == 200
    assert staff.post(change, {"name": "Mine now"}).status_code == 403
    version = HouseRuleVersion.objects.filter(record=base).first()
    version_change = reverse("admin:houserules_houseruleversion_change", args=[version.pk])
    assert staff.get(version_change).status_code == 200
    assert staff.post(version_change, {"number": 5}).status_code == 403


def test_the_overrides_help_says_the_ranges_the_checks_refuse_outside(staff, club):
    """The overrides' help text (the admin's form, the house-rule API's schema) says the ranges
    the checks hold a copy to, made from the checks' own constants: a value just past one is
    refused in words quoting the same number the help gives."""
    from houserules import override_rules as rules
    from scoring.engine import builtin_house_rules

    help_text = staff.get(reverse(ADD)).context["adminform"].form.fields["overrides"].help_text
    assert rules.RANGES_HELP in help_text
    for number in (f"{rules.MAX_COUNT:,}", f"{rules.ITEM_POINTS_MAX:,}",
                   f"{rules.ITEM_DOUBLES_MAX}", f"{rules.MAX_ROWS} rows",
                   f"{rules.MAX_PENALTY_PART} times the limit"):
        assert number in help_text, number
    schema = staff.get("/api/v1/schema/", {"format": "json"}).json()["components"]["schemas"]
    for name in ("HouseRuleCopy", "PatchedHouseRuleUpdate"):
        assert rules.RANGES_HELP in schema[name]["properties"]["overrides"]["description"]

    base = base_record("guide")
    code = next(i.code for i in builtin_house_rules()["guide"].items
                if i.limit is None and i.doubles)
    too_many = rules.ITEM_DOUBLES_MAX + 1
    response = staff.post(reverse(ADD), _form(
        club, base, overrides=json.dumps({"items": {code: {"doubles": too_many}}})))
    errors = " ".join(response.context["adminform"].form.errors["overrides"])
    assert f"from 0 to {rules.ITEM_DOUBLES_MAX}." in errors
    assert f"doubles from 0 to {rules.ITEM_DOUBLES_MAX};" in help_text
