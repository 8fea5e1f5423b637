"""One place that turns a house rule's slug into a ``HouseRule``, and the one place that says
which house rules a user may see.

A house rule is visible to a user if it is built in, belongs to one of the user's clubs, or
belongs to a published club (staff superusers see every one). Everything else is an "unknown
house rule", worded exactly as for a slug nobody has used, so a request cannot tell another
club's private rule from no rule at all. Every request that names a house rule asks
``resolve_visible_house_rule`` (the calculators, the house-rule API and its copies, and later
features such as comparing rules); ``resolve_house_rule`` is for the operator's own commands
and for rules a stored record already names.
"""

from __future__ import annotations

import json
from functools import lru_cache

from django.db.models import Q, QuerySet

from clubs.models import HouseRuleRecord, Member
from scoring.engine import HouseRule, UnknownHouseRule, builtin_house_rules, get_house_rule


class _EveryRule:
    """The viewer of a command run by the operator on the server: sees every house rule."""

    is_authenticated = True
    is_superuser = True
    pk = None


EVERY_RULE = _EveryRule()


def visible_house_rules(user) -> QuerySet[HouseRuleRecord]:
    """The stored house rules ``user`` may see (``AnonymousUser`` for a visitor)."""
    return HouseRuleRecord.objects.filter(_visible(user))


def _visible(user) -> Q:
    if user is not None and user.is_authenticated and user.is_superuser:
        return Q()
    visible = Q(club__isnull=True) | Q(club__published=True)
    if user is not None and user.is_authenticated:
        clubs = Member.objects.filter(user_id=user.pk, active=True).values("club_id")
        visible |= Q(club_id__in=clubs)
    return visible


def resolve_visible_house_rule(slug: str, user) -> HouseRule:
    """The house rule called ``slug`` if ``user`` may see it; else ``UnknownHouseRule``,
    listing only the slugs the user may see, whether or not ``slug`` exists elsewhere.
    ``HouseRuleError`` if a visible stored rule's data can no longer be used."""
    try:
        return get_house_rule(slug)
    except UnknownHouseRule:
        pass
    record = None
    if "\x00" not in slug:  # PostgreSQL refuses it in a query; no slug has one
        record = visible_house_rules(user).filter(slug=slug).first()
    version = record.latest_version() if record is not None else None
    if version is None:
        raise UnknownHouseRule(slug, known_slugs(user))
    return _from_version(version.pk, version.data)


def resolve_house_rule(slug: str) -> HouseRule:
    """The house rule called ``slug``, whoever's it is: for the operator's commands and for a
    rule named by a stored rule (a goulash rule). Requests use ``resolve_visible_house_rule``."""
    return resolve_visible_house_rule(slug, EVERY_RULE)


def is_visible_house_rule(slug: str, user) -> bool:
    """Whether ``slug`` names a house rule ``user`` may see (built in or stored)."""
    if slug in builtin_house_rules():
        return True
    return "\x00" not in slug and visible_house_rules(user).filter(slug=slug).exists()


def known_slugs(user=EVERY_RULE) -> list[str]:
    """The slugs ``user`` may name: the built-in ones, then stored ones by slug."""
    builtin = list(builtin_house_rules())
    stored = visible_house_rules(user).exclude(slug__in=builtin).order_by("slug")
    return builtin + list(stored.values_list("slug", flat=True))


def _from_version(pk: int, data: dict) -> HouseRule:
    # A version's data never changes, so its parsed rule is kept per process; keyed by the
    # data too, as a test database reuses primary keys.
    return _parsed(pk, json.dumps(data, sort_keys=True))


@lru_cache(maxsize=256)
def _parsed(pk: int, frozen: str) -> HouseRule:
    return HouseRule.from_dict(json.loads(frozen))
