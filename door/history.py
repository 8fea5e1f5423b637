"""The season so far as the draw reads it: every earlier night's tables, each as its players'
keys in wind order (East first). One query over the season's seats; a season is bounded (tens
of nights of a few tables), so this grows with the season, not with the club's history."""

from __future__ import annotations

from datetime import timedelta

from clubs.models import ClubSession, Seat
from door.draw import PastNight
from door.models import player_key

WIND_ORDER = {"E": 0, "S": 1, "W": 2, "N": 3, "": 4}
# A night with no season reads the club's nights of the year before it.
NO_SEASON_DAYS = 365


def earlier_sessions(session: ClubSession):
    sessions = ClubSession.objects.filter(club_id=session.club_id).exclude(pk=session.pk)
    if session.season_id:
        sessions = sessions.filter(season_id=session.season_id)
    else:
        sessions = sessions.filter(season__isnull=True,
                                   date__gte=session.date - timedelta(days=NO_SEASON_DAYS))
    # Nights before this one (and earlier sessions of the same day).
    return sessions.filter(date__lte=session.date).exclude(date=session.date, pk__gt=session.pk)


def season_history(session: ClubSession) -> tuple[PastNight, ...]:
    rows = (Seat.objects.filter(table__session__in=earlier_sessions(session))
            .values_list("table__session__date", "table__session_id", "table__number",
                         "member_id", "guest_name", "starting_wind", "position")
            .order_by("table__session__date", "table__session_id", "table__number"))
    nights: dict[int, dict[int, list]] = {}
    order: list[int] = []
    for _date, session_id, number, member_id, guest, wind, position in rows:
        if session_id not in nights:
            nights[session_id] = {}
            order.append(session_id)
        nights[session_id].setdefault(number, []).append(
            (WIND_ORDER.get(wind, 4), position, player_key(member_id, guest)))
    return tuple(
        PastNight(tuple(tuple(key for *_, key in sorted(seats))
                        for _, seats in sorted(nights[s].items())))
        for s in order)
