"""What would corrupt a club's league, refused with a sentence before it is written: a night
dated outside its season, a season's dates moved so its nights fall outside, a member seated at
two tables on one night, standings published as of a day still to come or after the season.
Plain checks that return the sentence (or nothing); the forms, serializers and models raise it
on the field it belongs to."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.utils import timezone

from clubs.models import Seat


def day(value: dt.date) -> str:
    return f"{value.day} {value:%b %Y}"


def season_span(season) -> str:
    return f"from {day(season.start)}" + (f" to {day(season.end)}" if season.end else " on")


def night_outside_season(season, date: dt.date | None) -> str | None:
    """The sentence when a night of ``date`` cannot belong to ``season``."""
    if season is None or date is None:
        return None
    if date < season.start or (season.end is not None and date > season.end):
        return (f"This night is dated {day(date)}, outside the season {season.name} "
                f"({season_span(season)}): pick the season it falls in, or change the date.")
    return None


def nights_outside(season, start: dt.date | None, end: dt.date | None) -> str | None:
    """The sentence when a season's new dates would leave some of its nights outside."""
    if season is None or season.pk is None or start is None:
        return None
    from django.db.models import Q

    outside = season.sessions.filter(Q(date__lt=start) | Q(date__gt=end) if end else
                                     Q(date__lt=start))
    count = outside.count()
    if not count:
        return None
    first = outside.order_by("date").values_list("date", flat=True).first()
    return (f"{count} night{'s' if count != 1 else ''} of this season (the first on "
            f"{day(first)}) would fall outside these dates: move {'them' if count != 1 else 'it'}"
            " to another season first, or keep the dates wide enough.")


def seated_elsewhere(session, member_ids, exclude_table=None) -> dict[int, int]:
    """{member id: table number} of these members already seated at another table of the
    night (one query)."""
    ids = [m for m in member_ids if m]
    if session is None or session.pk is None or not ids:
        return {}
    seats = Seat.objects.filter(table__session=session, member_id__in=ids)
    if exclude_table is not None:
        seats = seats.exclude(table=exclude_table)
    return dict(seats.values_list("member_id", "table__number"))


def club_today(club) -> dt.date:
    """Today where the club plays (its time zone), not the server's."""
    name = getattr(club, "time_zone", "") or ""
    try:
        return timezone.localdate(timezone=zoneinfo.ZoneInfo(name)) if name else (
            timezone.localdate())
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.localdate()


def snapshot_date_problem(season, as_of: dt.date, today: dt.date) -> str | None:
    """The sentence when standings as of ``as_of`` cannot be published for ``season``."""
    if as_of > today:
        return (f"{day(as_of)} is still to come: standings can be published as of today "
                f"({day(today)}) or an earlier day.")
    if season.end is not None and as_of > season.end:
        return (f"The season {season.name} ended on {day(season.end)}: publish its standings "
                f"as of {day(season.end)} or earlier.")
    if as_of < season.start:
        return (f"The season {season.name} starts on {day(season.start)}: publish its "
                "standings as of a day from then on.")
    return None


def snapshot_default_date(season, today: dt.date) -> dt.date:
    """As of today, or the season's last day once it is over."""
    return min(today, season.end) if season.end else today
