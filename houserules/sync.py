"""Keeping the database's copies of the built-in house rules in step with the scoring engine."""

from __future__ import annotations

from django.db import transaction

from houserules.models import HouseRuleRecord, HouseRuleVersion


def freeze_version(record: HouseRuleRecord, data: dict) -> HouseRuleVersion:
    """The record's newest version if it already holds ``data``, else a new version of it.

    Versions are never edited: a session keeps pointing at the exact rules it was played under.
    """
    latest = record.latest_version()
    if latest is not None and latest.data == data:
        return latest
    number = (latest.number if latest else 0) + 1
    return HouseRuleVersion.objects.create(record=record, number=number, data=data)


@transaction.atomic
def ensure_builtin_house_rules(rules: dict | None = None) -> dict[str, HouseRuleVersion]:
    """Create or update a record and its newest version for every built-in house rule.

    ``rules`` (slug -> HouseRule) defaults to the scoring engine's built-in set. Returns the
    current version of each, by slug. Running it again without engine changes adds nothing.
    """
    if rules is None:
        from scoring.engine import builtin_house_rules

        rules = builtin_house_rules()
    versions: dict[str, HouseRuleVersion] = {}
    records: dict[str, HouseRuleRecord] = {}
    for slug, rule in rules.items():
        record, _ = HouseRuleRecord.objects.update_or_create(
            slug=slug,
            defaults={"name": rule.name, "description": rule.description, "club": None},
        )
        records[slug] = record
        versions[slug] = freeze_version(record, rule.to_dict())
    # Link derived built-ins after all exist, whatever order the engine lists them in.
    for slug, rule in rules.items():
        parent = records.get(rule.based_on) if rule.based_on else None
        if parent is not None and records[slug].based_on_id != parent.pk:
            records[slug].based_on = parent
            records[slug].save(update_fields=["based_on", "updated"])
    return versions
