"""Who may see and change a club's house rules: asked of the app that knows about clubs.

Houserules sits below ``clubs`` and must not import it, yet visibility and the right to edit a
copy depend on club roles. So houserules states the little it needs (``HouseRuleAccess``) and
the project names the class that answers it (which clubs a user may see: those they belong to
and the published ones; which they administer) in the setting ``HOUSE_RULE_ACCESS`` (a dotted
path, loaded with ``import_string``; ``clubs.permissions.HouseRuleAccess`` in this project).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.models import QuerySet
from django.utils.module_loading import import_string


class HouseRuleAccess(Protocol):
    """The club roles houserules asks about. ``user`` may be anonymous or None (no one)."""

    def visible_clubs(self, user) -> QuerySet:
        """Clubs whose house rules the user may see: those they belong to and every
        published club."""

    def can_admin(self, user, club: Any) -> bool:
        """Whether the user administers ``club`` (and so may change its house rules)."""


@cache
def _policy_class(path: str) -> type:
    try:
        return import_string(path)
    except ImportError as error:
        raise ImproperlyConfigured(
            f"HOUSE_RULE_ACCESS = {path!r} names no class that can be imported ({error}); set it "
            "to the dotted path of a class with visible_clubs and can_admin."
        ) from error


def house_rule_access() -> HouseRuleAccess:
    """The configured policy (read from the settings each time, so tests may override it)."""
    path = getattr(settings, "HOUSE_RULE_ACCESS", None)
    if not path:
        raise ImproperlyConfigured(
            "Set HOUSE_RULE_ACCESS to the dotted path of the class that says which clubs a user "
            'belongs to, may see and administers, e.g. "clubs.permissions.HouseRuleAccess".')
    return _policy_class(path)()
