"""Who is recording a table: one scorer at a time (issue #24).

A scorer who opens a table's record page holds it for ``HOLD`` after their last save or visit
(on any phone of theirs: ``device`` is the one they opened it on last); another scorer opening
the page sees who holds it and may take over explicitly. Hands the old
holder still sends (its queue from a spell without signal) are accepted as ever; a hand number
taken meanwhile answers a conflict. Kept in the database, not in a process's memory, so every
app process sees the same holder.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models

HOLD = dt.timedelta(minutes=30)


class TableWriter(models.Model):
    table = models.OneToOneField("clubs.Table", on_delete=models.CASCADE, related_name="writer",
                                 primary_key=True)
    # A random id the phone's browser keeps in a cookie (no JavaScript needed).
    device = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                             related_name="+")
    # What the other phones are told: the scorer's name at the club, and the phone's browser.
    holder_name = models.CharField(max_length=80)
    device_label = models.CharField(max_length=60, blank=True)
    since = models.DateTimeField()
    expires = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.table} recorded by {self.holder_name}"
