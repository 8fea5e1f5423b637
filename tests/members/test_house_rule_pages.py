"""The club's rules page: built-in rules and the club's copies with their differences in a
club's words, copy and adjust, each change a new version, undo; as each role."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, ClubSession
from houserules.models import HouseRuleRecord
from tests.web.conftest import ROLES

READ = {"admin": 200, "scorer": 200, "member": 200, "outsider": 404, "anonymous": 404}
ADMIN_GET = {"admin": 200, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}
ADMIN_POST = {"admin": 302, "scorer": 403, "member": 403, "outsider": 404, "anonymous": 404}


def copy_form(client, club, base="bmja"):
    page = client.get(reverse("club-house-rule-copy", args=[club.slug]), {"base": base})
    return {"base": base, **as_sent(page.context["form"])}


def as_sent(form) -> dict:
    """What a browser sends for the form as shown: unticked boxes are not sent. The rule
    form's special hands (a formset) are sent too, with their management form."""
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[form.add_prefix(name)] = "on"
        elif value is not None:
            data[form.add_prefix(name)] = form.fields[name].prepare_value(value)  # as shown
    if (special := getattr(form, "special", None)) is not None:
        data.update(as_sent(special.management_form))
        for hand in special.forms:
            data.update(as_sent(hand))
    return data


@pytest.mark.parametrize("role", ROLES)
def test_rules_pages_by_role(client_as, club, role):
    client = client_as(role)
    assert client.get(reverse("club-house-rules", args=[club.slug])).status_code == READ[role]
    assert client.get(reverse("club-house-rule", args=[club.slug, "bmja"])).status_code == \
        READ[role]
    copy = reverse("club-house-rule-copy", args=[club.slug])
    assert client.get(copy, {"base": "bmja"}).status_code == ADMIN_GET[role]


@pytest.mark.parametrize("role", ROLES)
def test_copy_and_adjust_by_role(client_as, club, role, users):
    admin = client_as("admin")
    data = copy_form(admin, club)
    if role != "admin":
        admin.logout()
    client = client_as(role)
    data.update(name="Jade rules", slug="jade-rules", scoring__limit=2000)
    answer = client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    assert answer.status_code == ADMIN_POST[role], answer.content[:2000]
    record = HouseRuleRecord.objects.filter(slug="jade-rules").first()
    assert (record is not None) == (role == "admin")
    if record:
        assert record.overrides == {"scoring": {"limit": 2000}}
        assert record.club == club and record.latest_version().number == 1


def test_the_differences_are_shown_in_a_clubs_words(client_as, club):
    client = client_as("admin")
    data = copy_form(client, club)
    data.update(name="Jade rules", slug="jade-rules", scoring__limit=2000,
                payment__east_multiplier=1)
    data.pop("rotation__dealer_repeats_on_draw", None)
    code = next(k for k in data if k.startswith("item__") and k.endswith("__points"))
    data[code] = int(data[code]) + 2
    assert client.post(reverse("club-house-rule-copy", args=[club.slug]), data
                       ).status_code == 302
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    item = code.split("__")[1]
    assert record.overrides["scoring"] == {"limit": 2000}
    assert record.overrides["payment"] == {"east_multiplier": 1}
    assert record.overrides["rotation"] == {"dealer_repeats_on_draw": False}
    assert set(record.overrides["items"]) == {item}
    page = client.get(reverse("club-house-rules", args=[club.slug])).content.decode()
    assert "Limit (most a hand can score): <s>1000</s> → <strong>2000</strong>" in page
    assert "East pays and receives (times)" in page
    detail = client.get(reverse("club-house-rule", args=[club.slug, "jade-rules"]))
    assert "What we changed" in detail.content.decode()


def test_each_change_a_new_version_and_undo(client_as, club, bmja_version, users):
    client = client_as("admin")
    data = copy_form(client, club)
    data.update(name="Jade rules", slug="jade-rules", scoring__limit=2000)
    client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    record = HouseRuleRecord.objects.get(slug="jade-rules")
    v1 = record.latest_version()
    session = ClubSession.objects.create(club=club, date="2026-10-01", house_rule_version=v1)
    edit = reverse("club-house-rule-edit", args=[club.slug, "jade-rules"])
    data = as_sent(client.get(edit).context["form"])
    data["scoring__limit"] = 3000
    assert client.post(edit, data).status_code == 302
    record.refresh_from_db()
    assert record.latest_version().number == 2 and record.overrides["scoring"]["limit"] == 3000
    session.refresh_from_db()
    assert session.house_rule_version == v1  # the night played keeps its version
    entry = AuditEntry.objects.filter(object_type="house_rule", action="update").first()
    assert client.post(reverse("club-house-rule-undo", args=[club.slug, "jade-rules",
                                                             entry.pk])).status_code == 302
    record.refresh_from_db()
    assert record.overrides == {"scoring": {"limit": 2000}}
    assert record.latest_version().data["scoring"]["limit"] == 2000


def test_a_bad_slug_or_limit_is_a_form_error(client_as, club):
    client = client_as("admin")
    data = copy_form(client, club)
    data.update(name="Again", slug="bmja", scoring__limit=-5)
    answer = client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    assert answer.status_code == 400
    assert "Give a whole number from 0 to 1,000,000,000, or leave it empty (null) for none." in answer.content.decode()
    data["scoring__limit"] = 2000
    answer = client.post(reverse("club-house-rule-copy", args=[club.slug]), data)
    assert answer.status_code == 400 and "exists already" in answer.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_use_for_new_nights_by_role(client_as, club, role):
    answer = client_as(role).post(reverse("club-house-rule-default", args=[club.slug, "guide"]))
    assert answer.status_code == ADMIN_POST[role]
    club.refresh_from_db()
    assert (club.default_house_rule.slug == "guide") == (role == "admin")
