"""Built-in house rules in the database: a frozen version per change, never an edit in place."""

import datetime as dt

import pytest

from clubs.models import Club, ClubSession, HouseRuleRecord, HouseRuleVersion
from houserules.sync import ensure_builtin_house_rules
from scoring.engine.rules.model import HouseRule

pytestmark = pytest.mark.django_db


def rules(limit=1000):
    bmja = HouseRule(slug="bmja", name="BMJA", description="Every hand scored.")
    bmja = bmja.derive("bmja", {"scoring": {"limit": limit}})
    bmja = HouseRule.from_dict({**bmja.to_dict(), "based_on": None})
    return {"club-variant": bmja.derive("club-variant"), "bmja": bmja}


def test_every_builtin_rule_gets_a_record_and_a_first_version():
    versions = ensure_builtin_house_rules(rules())
    assert set(versions) == {"bmja", "club-variant"}
    record = HouseRuleRecord.objects.get(slug="bmja")
    assert record.is_builtin and record.name == "BMJA"
    assert versions["bmja"].number == 1
    assert HouseRule.from_dict(versions["bmja"].data) == rules()["bmja"]
    # Linked to its parent even though the engine listed the child first.
    assert HouseRuleRecord.objects.get(slug="club-variant").based_on == record


def test_running_again_adds_nothing():
    ensure_builtin_house_rules(rules())
    ensure_builtin_house_rules(rules())
    assert HouseRuleVersion.objects.count() == 2


def test_a_changed_rule_gets_a_new_version_and_old_sessions_keep_theirs():
    first = ensure_builtin_house_rules(rules(limit=1000))["bmja"]
    club = Club.objects.create(name="C", slug="c")
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 1, 5), house_rule_version=first)
    second = ensure_builtin_house_rules(rules(limit=2000))["bmja"]
    assert (first.number, second.number) == (1, 2)
    session.refresh_from_db()
    assert session.house_rule_version.data["scoring"]["limit"] == 1000


def test_the_engines_builtin_rules_all_load(builtin_rules):
    versions = ensure_builtin_house_rules()
    assert set(versions) == set(builtin_rules)
    for slug, version in versions.items():
        assert HouseRule.from_dict(version.data) == builtin_rules[slug]
