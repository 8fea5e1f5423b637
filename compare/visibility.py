"""Which house rules a user may name in a comparison: the built-in rules, copies of published
clubs, and the copies of the user's own clubs (a superuser: all). The same visibility as the
house-rule API (``scoring.house_rule_api``); when ``scoring.resolve`` gains its own visibility
check (issue #13), ``visible_house_rule`` is the one function to point at it.
"""

from __future__ import annotations

from django.db.models import Q

from clubs.models import HouseRuleRecord
from clubs.permissions import member_club_ids
from scoring.engine import HouseRule, UnknownHouseRule, builtin_house_rules
from scoring.resolve import resolve_house_rule


def _visible_records(user):
    visible = Q(club__isnull=True) | Q(club__published=True)
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return HouseRuleRecord.objects.all()
        visible |= Q(club_id__in=member_club_ids(user))
    return HouseRuleRecord.objects.filter(visible)


def visible_slugs(user) -> list[str]:
    builtin = list(builtin_house_rules())
    stored = _visible_records(user).exclude(slug__in=builtin).order_by("slug")
    return builtin + list(stored.values_list("slug", flat=True))


def visible_house_rule(slug: str, user) -> HouseRule:
    """The house rule ``slug`` if this user may see it. A rule they may not see is answered
    exactly as one that does not exist (``UnknownHouseRule`` listing only what they may see),
    so an outsider cannot even learn that another club's private rule is there."""
    if slug not in builtin_house_rules() and (
            "\x00" in slug or not _visible_records(user).filter(slug=slug).exists()):
        raise UnknownHouseRule(slug, visible_slugs(user))
    return resolve_house_rule(slug)
