"""Publishing and withdrawing a season's frozen standings.

Publishing refuses a date still to come or past the season's end (``clubs.league_guards``);
withdrawing deletes the snapshot from the public pages but keeps it whole in the club's audit
trail (its standings as published, who published it and when), from where ``restore_snapshot``
publishes it again as it was."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from clubs.league_guards import club_today, snapshot_date_problem, snapshot_default_date
from clubs.models import AuditAction, AuditEntry
from league.models import Snapshot, rules_of
from league.queries import Filters, standings

OBJECT_TYPE = "snapshot"


class PublishRefused(Exception):
    def __init__(self, errors: dict[str, list[str]]):
        super().__init__(" ".join(m for msgs in errors.values() for m in msgs))
        self.errors = errors


def publish_snapshot(season, user, as_of: dt.date | None = None, note: str = "") -> Snapshot:
    """Freeze the season's standings as of a date (today, or the season's last day once it is
    over), with the calculation written out; ``PublishRefused`` on ``as_of`` for a day still to
    come, after the season or before it."""
    today = club_today(season.club)
    as_of = as_of or snapshot_default_date(season, today)
    if problem := snapshot_date_problem(season, as_of, today):
        raise PublishRefused({"as_of": [problem]})
    with transaction.atomic():
        table = standings(rules_of(season), season=season, filters=Filters(as_of=as_of))
        snapshot = Snapshot.objects.create(season=season, as_of=as_of, note=note,
                                           published_by=user if user and user.pk else None,
                                           data=table.to_json())
        AuditEntry.objects.create(
            club_id=season.club_id, user=snapshot.published_by, action=AuditAction.CREATE,
            object_type=OBJECT_TYPE, object_id=str(snapshot.pk),
            after={"season": season.pk, "as_of": as_of.isoformat(), "note": note},
            note=f"Standings of {season.name} published as of {as_of:%-d %b %Y}.")
    return snapshot


def _kept(snapshot: Snapshot) -> dict:
    return {"id": snapshot.pk, "season": snapshot.season_id, "as_of": snapshot.as_of.isoformat(),
            "published": snapshot.published.isoformat(), "published_by": snapshot.published_by_id,
            "note": snapshot.note, "data": snapshot.data}


def withdraw_snapshot(snapshot: Snapshot, user, reason: str = "") -> AuditEntry:
    """Take published standings off the club's pages and the API; the audit entry keeps them
    whole (``restore_snapshot`` puts them back)."""
    with transaction.atomic():
        snapshot = Snapshot.objects.select_for_update().select_related("season").get(
            pk=snapshot.pk)
        entry = AuditEntry.objects.create(
            club_id=snapshot.season.club_id, user=user, action=AuditAction.DELETE,
            object_type=OBJECT_TYPE, object_id=str(snapshot.pk), before=_kept(snapshot),
            note=(f"Standings of {snapshot.season.name} as of {snapshot.as_of:%-d %b %Y} "
                  "withdrawn" + (f": {reason}" if reason else ".")))
        snapshot.delete()
    return entry


def withdrawn(season) -> list[AuditEntry]:
    """The season's withdrawn snapshots not published again, newest first."""
    entries = list(AuditEntry.objects.filter(club_id=season.club_id, object_type=OBJECT_TYPE,
                                             action=AuditAction.DELETE,
                                             before__season=season.pk)[:20])
    live = set(Snapshot.objects.filter(pk__in=[int(e.object_id) for e in entries])
               .values_list("pk", flat=True))
    return [e for e in entries if int(e.object_id) not in live]


def restore_snapshot(entry: AuditEntry, user) -> Snapshot:
    """Publish a withdrawn snapshot again exactly as it was (its id, date, note, standings)."""
    kept = entry.before
    with transaction.atomic():
        if Snapshot.objects.filter(pk=kept["id"]).exists():
            raise PublishRefused({"entry": ["These standings are published already."]})
        snapshot = Snapshot.objects.create(
            pk=kept["id"], season_id=kept["season"], as_of=kept["as_of"], note=kept["note"],
            published_by_id=kept["published_by"], data=kept["data"])
        # auto_now_add set the time of this save: put back when it was first published.
        Snapshot.objects.filter(pk=snapshot.pk).update(published=kept["published"])
        snapshot.refresh_from_db()
        AuditEntry.objects.create(
            club_id=entry.club_id, user=user, action=AuditAction.RESTORE,
            object_type=OBJECT_TYPE, object_id=entry.object_id,
            after={"undoes": entry.pk, "as_of": kept["as_of"]},
            note=f"Standings as of {snapshot.as_of:%-d %b %Y} published again.")
    return snapshot
