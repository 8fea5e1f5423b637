"""House rules as the database keeps them: a record a club can edit, and frozen versions.

A session points at a ``HouseRuleVersion``, never at the record, so editing a club's house rule
later never changes how an old session was scored.

The tables keep the names they had when these models lived in ``clubs`` (moved by
``houserules/migrations/0001_initial.py`` and ``clubs/migrations/0006``, state only): no data
was copied.
"""

from django.db import models
from django.db.models import Q


class HouseRuleRecord(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    # Null: a built-in house rule from the scoring engine, shared by every club.
    club = models.ForeignKey(
        "clubs.Club",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="house_rules",
    )
    based_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="derived"
    )
    # The club's changes to ``based_on`` (see scoring.engine.rules.model.apply_overrides).
    overrides = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "clubs_houserulerecord"
        ordering = ["slug"]
        indexes = [models.Index(fields=["club", "slug"], name="houserule_by_club")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_builtin(self) -> bool:
        return self.club_id is None

    def latest_version(self) -> "HouseRuleVersion | None":
        return self.versions.order_by("-number").first()


class HouseRuleVersion(models.Model):
    record = models.ForeignKey(HouseRuleRecord, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    # HouseRule.to_dict() at the moment the version was made; never changed afterwards.
    data = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "clubs_houseruleversion"
        ordering = ["record", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["record", "number"], name="houseruleversion_unique_number"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1), name="houseruleversion_number_from_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.record.slug} v{self.number}"
