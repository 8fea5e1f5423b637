"""A comparison of recorded play under several house rules: what was asked, its progress table
by table, and the finished report (written once, whole, when the last table is in)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Comparison(models.Model):
    RUNNING, DONE, FAILED = "running", "done", "failed"

    # A random id: a finished report is linked to and shared by its address.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="comparisons")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    title = models.CharField(max_length=200)
    scope = models.JSONField(help_text="What was compared: a table, night, season or dates.")
    rules = models.JSONField(help_text="The house rules' slugs, in the order asked.")
    # The rules as they were when the comparison started, so every table is replayed under the
    # same rules even if a club edits its copy half-way.
    rule_data = models.JSONField(editable=False)
    status = models.CharField(max_length=10, default=RUNNING,
                              choices=[(RUNNING, "running"), (DONE, "done"), (FAILED, "failed")])
    # What stopped a failed comparison, in a sentence (a table no worker could replay).
    problem = models.TextField(blank=True, editable=False)
    # Shown to everyone who may read the club's pages (a published club's visitors), not only
    # to its members: the member who starts it chooses.
    shared = models.BooleanField(
        default=False, help_text="Shown on the club's public pages, not only to its members.")
    tables_total = models.PositiveIntegerField(default=0)
    hands_total = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)
    # When a worker last took a turn at it: the queue serves first the person and club served
    # longest ago (``compare.runs``), remembered here even once the comparison is done.
    served_at = models.DateTimeField(null=True, blank=True, editable=False)
    report = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created"]
        indexes = [
            # Each user's and club's share counts its running comparisons: only those.
            models.Index(fields=["created_by"], condition=models.Q(status="running"),
                         name="compare_running_by_user"),
            models.Index(fields=["club"], condition=models.Q(status="running"),
                         name="compare_running_by_club"),
            models.Index(fields=["served_at"], name="compare_served_at"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_done(self) -> bool:
        return self.report is not None


class ComparisonPart(models.Model):
    """One table of a comparison: the unit of work a background worker takes."""

    comparison = models.ForeignKey(Comparison, on_delete=models.CASCADE, related_name="parts")
    table = models.ForeignKey("clubs.Table", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    result = models.JSONField(null=True, blank=True, editable=False)
    done_at = models.DateTimeField(null=True, blank=True)
    # The lease of the worker replaying this table (``compare.runs.claim``): who holds it (its
    # task's id), since when, and until when. The worker renews it after each table it stores;
    # a lease past its end belongs to a worker that died, and the table is claimable again.
    claimed_by = models.CharField(max_length=64, blank=True, editable=False)
    claimed_at = models.DateTimeField(null=True, blank=True, editable=False)
    lease_until = models.DateTimeField(null=True, blank=True, editable=False)
    attempts = models.PositiveSmallIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["comparison", "position"]
        constraints = [models.UniqueConstraint(fields=["comparison", "table"],
                                               name="compare_part_once_per_table")]
        indexes = [
            # The queue is the tables not yet stored: finding work never reads finished ones.
            models.Index(fields=["comparison", "position"],
                         condition=models.Q(done_at__isnull=True), name="compare_part_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.comparison} / table {self.table_id}"
