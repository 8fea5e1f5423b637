"""Starting, changing and closing a club's seasons: one path for the pages and the API, each
change audited and undoable, refused with a sentence where it would leave a night outside its
season (``league_guards``)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from clubs.league_guards import club_today, day, nights_outside
from clubs.members.merge import MoveRefused
from clubs.models import AuditAction, AuditEntry, Club, Season

OBJECT_TYPE = "season"
FIELDS = ("name", "start", "end")
NAME_MAX = Season._meta.get_field("name").max_length

SeasonRefused = MoveRefused  # errors by field, as the members' refusals


def _plain(season: Season) -> dict:
    return {"name": season.name, "start": season.start.isoformat(),
            "end": season.end.isoformat() if season.end else None}


def _date(value) -> dt.date | None:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def check_season(club: Club, name: str, start: dt.date | None, end: dt.date | None,
                 season: Season | None = None) -> str:
    """The name as stored, or ``SeasonRefused`` saying what to mend."""
    name = " ".join((name or "").split())
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["Name the season (\"2026\", \"Autumn league\")."]
    elif len(name) > NAME_MAX:
        errors["name"] = [f"A season's name has at most {NAME_MAX} characters."]
    elif Season.objects.filter(club=club, name__iexact=name).exclude(
            pk=season.pk if season else None).exists():
        errors["name"] = [f"{club.name} already has a season called {name!r}."]
    if start is None:
        errors["start"] = ["Give the day the season starts."]
    elif end is not None and end < start:
        errors["end"] = [f"A season ends on or after its start ({day(start)})."]
    elif season is not None and (problem := nights_outside(season, start, end)):
        errors["start" if start != season.start else "end"] = [problem]
    if errors:
        raise SeasonRefused(errors)
    return name


def create_season(club: Club, name: str, start: dt.date, end: dt.date | None = None, *,
                  user=None) -> Season:
    with transaction.atomic():
        name = check_season(club, name, start, end)
        season = Season.objects.create(club=club, name=name, start=start, end=end)
        AuditEntry.objects.create(club=club, user=user, action=AuditAction.CREATE,
                                  object_type=OBJECT_TYPE, object_id=str(season.pk),
                                  after=_plain(season), note=f"Season {name} started.")
    return season


def change_season(season: Season, *, user=None, note: str = "", action=AuditAction.UPDATE,
                  **changes) -> AuditEntry | None:
    """Rename a season or move its dates; None when nothing changed."""
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("club").get(pk=season.pk)
        before = _plain(season)
        name = changes.get("name", season.name)
        start = _date(changes.get("start", season.start))
        end = _date(changes["end"]) if "end" in changes else season.end
        name = check_season(season.club, name, start, end, season)
        season.name, season.start, season.end = name, start, end
        after = _plain(season)
        if after == before:
            return None
        season.save(update_fields=list(FIELDS))
        changed = [k for k in FIELDS if before[k] != after[k]]
        return AuditEntry.objects.create(
            club_id=season.club_id, user=user, action=action, object_type=OBJECT_TYPE,
            object_id=str(season.pk), before={k: before[k] for k in changed},
            after={k: after[k] for k in changed},
            note=note or f"Season {name}: " + ", ".join(
                f"{k} {_said(before[k])} → {_said(after[k])}" for k in changed) + ".")


def _said(value) -> str:
    if value is None:
        return "open"
    try:
        return day(dt.date.fromisoformat(value))
    except (TypeError, ValueError):
        return str(value)


def close_season(season: Season, *, user=None) -> AuditEntry:
    """End the season today (where the club plays): its standings stop growing and new nights
    go to the next season. Refused when it has ended already or has nights after today."""
    today = club_today(season.club)
    if season.end is not None and season.end <= today:
        raise SeasonRefused({"end": [f"{season.name} ended on {day(season.end)} already."]})
    if season.start > today:
        raise SeasonRefused({"end": [f"{season.name} starts on {day(season.start)}: it can "
                                     "close once it has begun."]})
    return change_season(season, user=user, action=AuditAction.CLOSE, end=today,
                         note=f"Season {season.name} closed on {day(today)}.")


def current_season(club: Club, on: dt.date | None = None) -> Season | None:
    """The season a night on this day belongs to (the latest begun, where two overlap)."""
    from django.db.models import Q

    on = on or club_today(club)
    return (club.seasons.filter(start__lte=on).filter(Q(end__isnull=True) | Q(end__gte=on))
            .order_by("-start").first())


def season_undoable(entry: AuditEntry) -> bool:
    return (entry.object_type == OBJECT_TYPE and isinstance(entry.before, dict)
            and entry.action in (AuditAction.UPDATE, AuditAction.CLOSE) and bool(entry.before))


def undo_season_change(entry: AuditEntry, *, user=None) -> AuditEntry | None:
    """Put a season's name and dates back as they were before ``entry`` (a close reopens)."""
    if not season_undoable(entry):
        raise SeasonRefused({"entry": ["Only a change of a season's name or dates, or its "
                                       "closing, can be put back."]})
    season = Season.objects.filter(pk=entry.object_id, club_id=entry.club_id).first()
    if season is None:
        raise SeasonRefused({"entry": ["That season no longer exists."]})
    reopen = entry.action == AuditAction.CLOSE
    return change_season(season, user=user, **entry.before,
                         action=AuditAction.REOPEN if reopen else AuditAction.UPDATE,
                         note=(f"Season {season.name} reopened." if reopen else
                               f"Undone: season {season.name} put back as it was."))
