"""The house rules a comparison names: ``"a,b,c"`` or a list of slugs, each one the user may
see (``visibility.visible_house_rule``), with DRF-shaped errors that say how to mend them."""

from __future__ import annotations

from rest_framework import serializers

from compare.visibility import visible_house_rule
from scoring.engine import HouseRule, HouseRuleError, UnknownHouseRule

MAX_RULES = 8


def rule_slugs(value, minimum: int = 1, field: str = "rules") -> list[str]:
    """The slugs named, in order and without repeats; a 400 on ``field`` otherwise."""
    if isinstance(value, str):
        value = [s.strip() for s in value.split(",") if s.strip()]
    if not isinstance(value, list) or not all(isinstance(s, str) and s for s in value):
        raise serializers.ValidationError({field: [
            'Give the house rules as a list of slugs, e.g. ["bmja", "guide"].']})
    slugs = list(dict.fromkeys(value))
    if len(slugs) < minimum:
        raise serializers.ValidationError({field: [
            f"Name at least {minimum} different house rules to compare, e.g. bmja,guide."]})
    if len(slugs) > MAX_RULES:
        raise serializers.ValidationError({field: [
            f"At most {MAX_RULES} house rules at once; you named {len(slugs)}."]})
    return slugs


def chosen_rules(value, user, minimum: int = 1, field: str = "rules") -> list[HouseRule]:
    """The house rules named, each visible to ``user``; errors keyed by position."""
    slugs = rule_slugs(value, minimum, field)
    rules, errors = [], {}
    for index, slug in enumerate(slugs):
        try:
            rules.append(visible_house_rule(slug, user))
        except UnknownHouseRule as error:
            errors[str(index)] = [str(error)]
        except HouseRuleError as error:
            errors[str(index)] = [f"The house rule {slug!r} cannot be used: {error}. "
                                  "Ask the club to mend it."]
    if errors:
        raise serializers.ValidationError({field: errors})
    return rules
