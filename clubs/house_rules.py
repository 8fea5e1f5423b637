"""Moved to ``houserules.sync``; named here too so that code written against clubs (and
branches in flight) keeps working. New code imports ``houserules.sync``."""

from houserules.sync import ensure_builtin_house_rules, freeze_version

__all__ = ["ensure_builtin_house_rules", "freeze_version"]
