"""Audit entries for what the pages create outside the recording service (sessions, tables)."""

from __future__ import annotations

from clubs.models import AuditAction, AuditEntry


def log_creation(user, club, obj, after: dict) -> AuditEntry:
    return AuditEntry.objects.create(
        club=club,
        user=user if user.is_authenticated else None,
        action=AuditAction.CREATE,
        object_type=obj._meta.model_name,
        object_id=str(obj.pk),
        after=after,
    )
