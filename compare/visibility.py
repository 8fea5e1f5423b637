"""Which house rules a user may name in a comparison: the same as everywhere else, decided in
one place (``houserules.resolve``): the built-in rules, the user's own clubs' copies and
published clubs' copies. A rule they may not see is answered exactly as one that does not
exist, so an outsider cannot even learn that another club's private rule is there."""

from __future__ import annotations

from houserules.resolve import known_slugs, resolve_visible_house_rule
from scoring.engine import HouseRule


def visible_slugs(user) -> list[str]:
    return known_slugs(user)


def visible_house_rule(slug: str, user) -> HouseRule:
    return resolve_visible_house_rule(slug, user)
