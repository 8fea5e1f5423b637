"""The built-in house rules, by slug: one module per rule document, collected here."""

from __future__ import annotations

from .. import memo
from . import (  # noqa: F401 - the rule functions register themselves on import
    balsall_common,
    bmja,
    functions_more,
    guide,
    special_hands,
    variations,
    west_wind_goulash,
)
from .functions import RULE_FUNCTIONS
from .model import HouseRule

# Each module's ``house_rules()`` gives its house rules; a new built-in rule adds its module.
_MODULES = (bmja, guide, balsall_common, west_wind_goulash, variations)


class UnknownHouseRule(LookupError):
    """No built-in house rule has this slug; the message lists the ones there are."""

    def __init__(self, slug: str, known: list[str] | tuple[str, ...]):
        self.slug = slug
        self.known = tuple(known)
        super().__init__(f"Unknown house rule {slug!r}; choose one of: {', '.join(self.known)}.")


@memo.cached(maxsize=1)
def _rules() -> tuple[tuple[str, HouseRule], ...]:
    found: dict[str, HouseRule] = {}
    known_functions = set(RULE_FUNCTIONS)
    for module in _MODULES:
        for rule in module.house_rules():
            if rule.slug in found:
                raise ValueError(f"Two built-in house rules have the slug {rule.slug!r}.")
            rule.check(known_functions)
            found[rule.slug] = rule
    return tuple(found.items())


def builtin_house_rules() -> dict[str, HouseRule]:
    """Every built-in house rule by slug (a new dict each call; the rules are frozen)."""
    return dict(_rules())


def get_house_rule(slug: str) -> HouseRule:
    for known, rule in _rules():
        if known == slug:
            return rule
    raise UnknownHouseRule(slug, [known for known, _ in _rules()])
