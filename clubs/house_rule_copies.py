"""Moved to ``houserules.copies``; named here too so that code written against clubs (and
branches in flight) keeps working. New code imports ``houserules.copies``."""

from houserules.copies import (
    base_record,
    create_copy,
    derive_rule,
    house_rule_of,
    latest_version,
    shape_errors,
    update_copy,
)

__all__ = ["base_record", "create_copy", "derive_rule", "house_rule_of", "latest_version",
           "shape_errors", "update_copy"]
