"""Who changed what, when: a trail a club can read when a score is disputed."""

from django.conf import settings
from django.db import models

from clubs.models.choices import AuditAction


class AuditEntry(models.Model):
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="audit"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=10, choices=AuditAction.choices)
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)
    # The client's id of a correction or void: the same change sent again is answered from
    # here instead of being made twice.
    client_id = models.UUIDField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [
            models.Index(fields=["club", "at"], name="audit_by_club_time"),
            models.Index(fields=["object_type", "object_id"], name="audit_by_object"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_id}"
