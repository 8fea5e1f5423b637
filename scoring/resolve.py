"""One place that turns a house rule's slug into a ``HouseRule``: the engine's built-in rules
first, then a club's own rules stored in the database (their newest frozen version)."""

from __future__ import annotations

import json
from functools import lru_cache

from clubs.models import HouseRuleRecord
from scoring.engine import HouseRule, UnknownHouseRule, builtin_house_rules, get_house_rule


def resolve_house_rule(slug: str) -> HouseRule:
    """The house rule called ``slug``; ``UnknownHouseRule`` (listing the known slugs) if none
    is, ``HouseRuleError`` if a stored rule's data can no longer be used."""
    try:
        return get_house_rule(slug)
    except UnknownHouseRule:
        pass
    try:
        if "\x00" in slug:  # PostgreSQL refuses it in a query; no slug has one
            raise HouseRuleRecord.DoesNotExist
        record = HouseRuleRecord.objects.get(slug=slug)
    except HouseRuleRecord.DoesNotExist:
        raise UnknownHouseRule(slug, known_slugs()) from None
    version = record.latest_version()
    if version is None:
        raise UnknownHouseRule(slug, known_slugs())
    return _from_version(version.pk, version.data)


def known_slugs() -> list[str]:
    builtin = list(builtin_house_rules())
    stored = HouseRuleRecord.objects.exclude(slug__in=builtin).order_by("slug")
    return builtin + list(stored.values_list("slug", flat=True))


def _from_version(pk: int, data: dict) -> HouseRule:
    # A version's data never changes, so its parsed rule is kept per process; keyed by the
    # data too, as a test database reuses primary keys.
    return _parsed(pk, json.dumps(data, sort_keys=True))


@lru_cache(maxsize=256)
def _parsed(pk: int, frozen: str) -> HouseRule:
    return HouseRule.from_dict(json.loads(frozen))
