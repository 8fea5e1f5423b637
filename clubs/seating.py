"""Seating a table: who sits where, with the wind each drew, checked once for the session
page's form and the club API, and written in one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from clubs.league_guards import seated_elsewhere
from clubs.models import ClubSession, Member, Seat, Table, Wind
from houserules.models import HouseRuleVersion
from settlements.engine.rotation import SEATS_FOR

WIND_NAMES = dict(Wind.choices)


@dataclass(frozen=True)
class SeatChoice:
    """One seat as asked for: a member of the club or a guest's name, and the wind drawn ("" for
    a fifth player, who sits out the first hand)."""

    member: Member | None
    guest_name: str
    starting_wind: str


def players_of(session: ClubSession, version: HouseRuleVersion | None = None) -> int:
    """How many the table seats: its own house rule's players (a table of 3 or 5 under the 001
    variation), else the session's."""
    version = version or session.house_rule_version
    return version.data.get("scoring", {}).get("players", 4)


def _where(wind: str) -> str:
    return WIND_NAMES[wind] if wind else "out for the first hand"


def seat_problems(session: ClubSession, seats: list[SeatChoice],
                  version: HouseRuleVersion | None = None, exclude_table: Table | None = None,
                  ) -> tuple[list[dict[str, list[str]]], list[str]]:
    """What is wrong with a seating: for each seat, messages by field (``member``,
    ``guest_name``, ``starting_wind``), and the table's own messages (how many players, which
    winds). Empty when it can be seated. A member already seated at another table of the night
    (other than ``exclude_table``, the one being re-seated) is refused: one seat a night."""
    problems: list[dict[str, list[str]]] = []
    members: dict[int, str] = {}
    guests: dict[str, str] = {}
    winds: set[str] = set()
    for seat in seats:
        problem: dict[str, list[str]] = {}
        member, guest, wind = seat.member, seat.guest_name.strip(), seat.starting_wind
        if member is None and not guest:
            problem["member"] = ["Give a member of the club, or a guest's name."]
        elif member is not None and guest:
            problem["guest_name"] = [f"{_where(wind)} is {member.display_name}; clear the "
                                     "guest's name, or pick no member."]
        elif member is not None and member.club_id != session.club_id:
            problem["member"] = ["Not a member of this club; seat them as a guest."]
        elif member is not None and member.pk in members:
            problem["member"] = [f"{member.display_name} already sits {members[member.pk]}: "
                                 "everyone has one seat at a table."]
        elif guest and guest.casefold() in guests:
            problem["guest_name"] = [f"A guest called {guest!r} already sits "
                                     f"{guests[guest.casefold()]}, so already has a seat at "
                                     "the table; add an initial to tell them apart."]
        if member is not None:
            members.setdefault(member.pk, _where(wind))
        elif guest:
            guests.setdefault(guest.casefold(), _where(wind))
        if wind and wind in winds:
            problem["starting_wind"] = [f"Two players cannot both start as {WIND_NAMES[wind]}."]
        winds.add(wind)
        problems.append(problem)
    elsewhere = seated_elsewhere(session, [s.member.pk for s in seats if s.member is not None],
                                 exclude_table)
    for seat, problem in zip(seats, problems, strict=True):
        if seat.member is not None and seat.member.pk in elsewhere and "member" not in problem:
            problem["member"] = [f"{seat.member.display_name} already sits at table "
                                 f"{elsewhere[seat.member.pk]} tonight: a member has one seat "
                                 "a night (seat a guest, or mend that table first)."]
    table: list[str] = []
    players = players_of(session, version)
    if len(seats) != players:
        whose = "This table's" if version else "This session's"
        table.append(f"{whose} house rule is for {players} players: seat {players} "
                     f"(you seated {len(seats)}).")
    elif not any(problems) and winds - {""} != set(SEATS_FOR[players]):
        table.append(f"Give the starting winds {', '.join(SEATS_FOR[players])} one each"
                     + (" (the fifth player starts sitting out: no wind)." if players == 5
                        else "."))
    return problems, table


@transaction.atomic
def seat_table(session: ClubSession, seats: list[SeatChoice], number: int | None = None,
               version: HouseRuleVersion | None = None) -> Table:
    """A new table of the session (numbered next unless ``number`` is given) with its seats in
    the order given, played under ``version`` when it is not the session's house rule. The
    caller has checked them with ``seat_problems`` (given the same ``version``)."""
    if number is None:
        last = session.tables.order_by("-number").values_list("number", flat=True).first()
        number = (last or 0) + 1
    table = Table.objects.create(session=session, number=number, house_rule_version=version)
    Seat.objects.bulk_create(
        Seat(table=table, position=position, member=seat.member,
             guest_name="" if seat.member else seat.guest_name.strip(),
             starting_wind=seat.starting_wind)
        for position, seat in enumerate(seats)
    )
    return table
