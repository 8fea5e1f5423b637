"""The audit trail of a club's house rules: houserules announces each copy made or changed
(``houserules.signals.house_rule_changed``, inside its transaction) and this writes the
club's ``AuditEntry``, so the entry commits or rolls back with the change."""

from __future__ import annotations

from django.dispatch import receiver

from clubs.models import AuditAction, AuditEntry
from houserules.signals import house_rule_changed


@receiver(house_rule_changed, dispatch_uid="clubs_house_rule_audit")
def audit_house_rule_change(sender, record, user, action, before, after, note, **kwargs) -> None:
    AuditEntry.objects.create(
        club_id=record.club_id, user=user, action=AuditAction(action),
        object_type="house_rule", object_id=record.slug, before=before, after=after, note=note,
    )
