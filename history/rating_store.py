"""Keeping a club's rating lines in step with its results (filled in below)."""

from __future__ import annotations

from django.db.models import Q

from history.models import RatingSettings


def mark_stale(club_id: int, date) -> None:
    """The results of ``date`` changed: the lines from that date on are recomputed on the next
    read. One UPDATE, and none at all for a club that has not turned the rating on."""
    RatingSettings.objects.filter(club_id=club_id, enabled=True).filter(
        Q(stale_from__isnull=True) | Q(stale_from__gt=date)).update(stale_from=date)
