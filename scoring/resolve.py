"""Moved to ``houserules.resolve``; named here too so that code written against scoring (and
branches in flight) keeps working. New code imports ``houserules.resolve``."""

from houserules.resolve import (
    EVERY_RULE,
    is_visible_house_rule,
    known_slugs,
    resolve_house_rule,
    resolve_visible_house_rule,
    rule_of,
    visible_house_rules,
)

__all__ = ["EVERY_RULE", "is_visible_house_rule", "known_slugs", "resolve_house_rule",
           "resolve_visible_house_rule", "rule_of", "visible_house_rules"]
