"""How houserules works without importing clubs (issue #12): a copy's audit entry comes from
clubs receiving ``house_rule_changed`` inside the copy's transaction; club roles come from the
policy named by ``HOUSE_RULE_ACCESS``; stored versions are parsed through one cache."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from clubs.models import AuditEntry, Club, ClubSession, Member, MemberRole
from clubs.table_state import rules_of
from houserules import resolve
from houserules.access import house_rule_access
from houserules.copies import create_copy, update_copy
from houserules.models import HouseRuleRecord, HouseRuleVersion
from houserules.resolve import (
    is_visible_house_rule,
    resolve_visible_house_rule,
    rule_of,
    visible_house_rules,
)
from houserules.signals import house_rule_changed
from scoring.engine import UnknownHouseRule


@pytest.fixture
def club(db):
    return Club.objects.create(name="Four Winds Club", slug="four-winds")


@pytest.fixture
def secretary(club):
    user = get_user_model().objects.create_user(username="secretary", password="x-tiles-42")
    Member.objects.create(club=club, user=user, display_name="Sec", role=MemberRole.ADMIN)
    return user


# -- the audit trail through the signal ---------------------------------------------------------


def test_each_change_is_announced_with_what_the_audit_entry_needs(club, secretary):
    heard = []

    def listen(sender, **kwargs):
        heard.append((kwargs["action"], kwargs["record"].slug, kwargs["user"], kwargs["before"],
                      kwargs["after"]))

    house_rule_changed.connect(listen)
    try:
        record = create_copy(club, "guide", "g2", "G2", {}, secretary)
        update_copy(record, {"scoring": {"limit": 2500}}, secretary)
    finally:
        house_rule_changed.disconnect(listen)
    assert heard == [("create", "g2", secretary, None, {}),
                     ("update", "g2", secretary, {}, {"scoring": {"limit": 2500}})]
    entries = AuditEntry.objects.filter(object_type="house_rule", object_id="g2")
    assert sorted(entries.values_list("action", "club_id", "user_id")) == [
        ("create", club.pk, secretary.pk), ("update", club.pk, secretary.pk)]


def test_a_receiver_that_fails_rolls_the_copy_back(club, secretary):
    """Sent inside the copy's transaction: no copy without its audit entry, and no entry
    without the copy."""

    def refuse(sender, **kwargs):
        raise RuntimeError("audit store unavailable")

    house_rule_changed.connect(refuse)
    try:
        with pytest.raises(RuntimeError):
            create_copy(club, "guide", "g2", "G2", {}, secretary)
    finally:
        house_rule_changed.disconnect(refuse)
    assert not HouseRuleRecord.objects.filter(slug="g2").exists()
    assert not AuditEntry.objects.filter(object_id="g2").exists()


# -- club roles injected -----------------------------------------------------------------------


class NobodyAdministers:
    """A policy that shows every club and lets no one administer any."""

    def visible_clubs(self, user):
        return Club.objects.all()

    def can_admin(self, user, club):
        return False


def test_the_configured_policy_is_the_clubs_one(settings):
    assert settings.HOUSE_RULE_ACCESS == "clubs.permissions.HouseRuleAccess"
    assert type(house_rule_access()).__module__ == "clubs.permissions"


def test_visibility_and_admin_rights_come_from_the_policy(settings, club, secretary):
    create_copy(club, "guide", "private-guide", "Private", {}, secretary)
    assert not is_visible_house_rule("private-guide", AnonymousUser())
    assert is_visible_house_rule("private-guide", secretary)

    settings.HOUSE_RULE_ACCESS = f"{__name__}.NobodyAdministers"
    assert is_visible_house_rule("private-guide", AnonymousUser())
    api = APIClient()
    api.force_authenticate(secretary)
    answer = api.patch("/api/v1/house-rules/private-guide/", {"name": "Renamed"},
                       format="json")
    assert answer.status_code == 403
    assert HouseRuleRecord.objects.get(slug="private-guide").name == "Private"


@pytest.mark.parametrize("value", [None, "", "clubs.permissions.NoSuchPolicy"])
def test_a_missing_or_wrong_policy_says_how_to_set_it(settings, db, value):
    if value is None:
        del settings.HOUSE_RULE_ACCESS
    else:
        settings.HOUSE_RULE_ACCESS = value
    with pytest.raises(ImproperlyConfigured, match="HOUSE_RULE_ACCESS"):
        visible_house_rules(AnonymousUser()).exists()


def test_a_visitor_sees_built_in_and_published_clubs_rules(club, secretary):
    create_copy(club, "guide", "four-winds-guide", "Ours", {}, secretary)
    with pytest.raises(UnknownHouseRule):
        resolve_visible_house_rule("four-winds-guide", AnonymousUser())
    Club.objects.filter(pk=club.pk).update(published=True)
    assert resolve_visible_house_rule("four-winds-guide", AnonymousUser()).slug == (
        "four-winds-guide")


# -- one cache of parsed versions ----------------------------------------------------------------


def test_the_table_and_the_resolver_read_one_parsed_version(club, secretary):
    record = create_copy(club, "guide", "g2", "G2", {"scoring": {"limit": 1500}}, secretary)
    version = record.latest_version()
    resolve._versions.clear()
    by_slug = resolve_visible_house_rule("g2", secretary)
    session = ClubSession(club=club, date="2026-11-20", house_rule_version=version)
    assert rules_of(session).rule is by_slug is rule_of(version.pk)
    assert by_slug.scoring.limit == 1500


def test_a_version_written_under_a_cached_id_is_read_afresh(club, secretary):
    record = create_copy(club, "guide", "g2", "G2", {"scoring": {"limit": 1500}}, secretary)
    version = record.latest_version()
    assert rule_of(version.pk).scoring.limit == 1500
    pk = version.pk
    version.delete()
    data = {**version.data, "scoring": {**version.data["scoring"], "limit": 1800}}
    HouseRuleVersion.objects.create(pk=pk, record=record, number=1, data=data)
    assert rule_of(pk).scoring.limit == 1800
