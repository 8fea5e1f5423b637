"""One place that turns a house rule's slug into a ``HouseRule``, and the one place that says
which house rules a user may see.

A house rule is visible to a user if it is built in, belongs to one of the user's clubs, or
belongs to a published club (staff superusers see every one). Everything else is an "unknown
house rule", worded exactly as for a slug nobody has used, so a request cannot tell another
club's private rule from no rule at all. Every request that names a house rule asks
``resolve_visible_house_rule`` (the calculators, the house-rule API and its copies, and later
features such as comparing rules); ``resolve_house_rule`` is for the operator's own commands
and for rules a stored record already names. Which clubs a user belongs to or may see is asked
of the configured ``houserules.access`` policy.

``rule_of(version_id)`` is the one cache of parsed versions: a version is never edited, so its
``HouseRule`` is parsed once per process (a pure function's cache; the table pages, recording
and the resolver all read through it).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.db.models.signals import post_delete, post_save

from houserules.access import house_rule_access
from houserules.models import HouseRuleRecord, HouseRuleVersion
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
    # Built in, or of a club the user may see (their own, and every published one).
    return Q(club__isnull=True) | Q(club__in=house_rule_access().visible_clubs(user))


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
    return rule_of(version.pk, version.data)


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


def rule_of(version_id: int, data: dict | None = None) -> HouseRule:
    """The frozen house rule of a version (``data``: its stored data, when already read)."""
    rule = _versions.get(version_id)
    if rule is None:
        if data is None:
            data = HouseRuleVersion.objects.values_list("data", flat=True).get(pk=version_id)
        rule = _versions[version_id] = HouseRule.from_dict(data)
    return rule


# version id -> its parsed HouseRule. Versions are never edited, so only a row written under an
# id already cached (SQLite reuses the ids of rolled-back rows, as in the tests) is forgotten.
_versions: dict[int, HouseRule] = {}


def _forget_version(sender, instance, **kwargs) -> None:
    _versions.pop(instance.pk, None)


post_save.connect(_forget_version, sender=HouseRuleVersion, dispatch_uid="houserules_versions")
post_delete.connect(_forget_version, sender=HouseRuleVersion,
                    dispatch_uid="houserules_versions_deleted")
