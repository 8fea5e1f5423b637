"""What a comparison covers: one table, a night, a season or a club's dates, as the tables it
holds (in the order they were played) and a title."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from clubs.models import Club, ClubSession, Hand, Season, Seat, Table
from clubs.permissions import can_view_club
from clubs.table_state import recorded_hands
from compare.replay_compare import TableToCompare
from play import SeatInfo

KINDS = ("table", "session", "season", "range")


class ScopeError(ValueError):
    """A scope that names nothing the user may compare; ``errors`` is DRF-shaped."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__(" ".join(m for msgs in errors.values() for m in msgs))


@dataclass(frozen=True)
class Scope:
    club: Club
    title: str
    spec: dict
    tables: list[int]


def _date(value, field: str) -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ScopeError({field: [f"{value!r} is not a date: write it as 2026-03-31."]}) from None


def resolve_scope(spec: dict, user) -> Scope:
    """``{"table": id}``, ``{"session": id}``, ``{"season": id}`` or ``{"club": slug, "from":
    date, "to": date}``; what the user may not read is answered as missing."""
    tables = Table.objects.select_related("session__club")
    if spec.get("table") is not None:
        table = tables.filter(pk=_int(spec["table"], "table")).first()
        club = table.session.club if table else None
        _check(club, user, "table", "table")
        title = f"{club.name}, {table.session.date:%d %b %Y}, table {table.number}"
        return Scope(club, title, {"table": table.pk}, [table.pk])
    if spec.get("session") is not None:
        session = ClubSession.objects.select_related("club").filter(
            pk=_int(spec["session"], "session")).first()
        club = session.club if session else None
        _check(club, user, "session", "club night")
        return Scope(club, f"{club.name}, {session.date:%d %b %Y}", {"session": session.pk},
                     _ordered(tables.filter(session=session)))
    if spec.get("season") is not None:
        season = Season.objects.select_related("club").filter(
            pk=_int(spec["season"], "season")).first()
        club = season.club if season else None
        _check(club, user, "season", "season")
        return Scope(club, f"{club.name}, {season.name}", {"season": season.pk},
                     _ordered(tables.filter(session__season=season)))
    if spec.get("club"):
        club = Club.objects.filter(slug=str(spec["club"])).first()
        _check(club, user, "club", "club")
        start, end = _date(spec.get("from"), "from"), _date(spec.get("to"), "to")
        if end < start:
            raise ScopeError({"to": ["The end date is before the start date."]})
        return Scope(club, f"{club.name}, {start:%d %b %Y} to {end:%d %b %Y}",
                     {"club": club.slug, "from": str(start), "to": str(end)},
                     _ordered(tables.filter(session__club=club, session__date__range=(start, end))))
    raise ScopeError({"scope": ["Say what to compare: a table, session, season, or club with "
                                "from and to dates."]})


def _int(value, field: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ScopeError({field: [f"{value!r} is not an id: give the number."]}) from None


def _check(club, user, field: str, words: str) -> None:
    if club is None or not can_view_club(user, club):
        raise ScopeError({field: [f"No such {words}, or not one you may see."]})


def _ordered(tables) -> list[int]:
    # A table with no hands (a night imported as totals) has nothing to replay: left out.
    tables = tables.filter(Exists(Hand.objects.filter(table_id=OuterRef("pk"))))
    return list(tables.order_by("session__date", "session_id", "number").values_list("pk", flat=True))


def load_tables(table_ids: list[int]) -> list[TableToCompare]:
    """Tables' seats and recorded hands as play's plain objects, in the order asked: four plain
    queries however many tables, no model objects built (a season is hundreds of tables, and
    loading is a good part of a replay's cost)."""
    table_ids = list(table_ids)
    info = {pk: (session_id, date, number) for pk, session_id, date, number in
            Table.objects.filter(pk__in=table_ids)
            .values_list("pk", "session_id", "session__date", "number")}
    seats: dict[int, list[SeatInfo]] = {}
    for table_id, pk, position, wind, member_id, guest_name, display_name in (
            Seat.objects.filter(table_id__in=table_ids).order_by("table_id", "position")
            .values_list("table_id", "pk", "position", "starting_wind", "member_id",
                         "guest_name", "member__display_name")):
        seats.setdefault(table_id, []).append(
            SeatInfo(pk, display_name if member_id else guest_name, position, wind, member_id))
    hands = recorded_hands(table_ids)
    return [
        TableToCompare(table_id, info[table_id][0], info[table_id][1].isoformat(),
                       info[table_id][2], tuple(seats.get(table_id, ())), hands[table_id])
        for table_id in table_ids if table_id in info
    ]


def load_table(table_id: int) -> TableToCompare:
    return load_tables([table_id])[0]
