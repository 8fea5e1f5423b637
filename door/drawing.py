"""Tonight's draw, stored: made from who is here and the host's rules, swapped, and accepted
into seated tables in one transaction.

Nothing is kept in process memory between requests: the proposal lives in ``TableDraw`` with a
revision number that every redraw or swap moves on. Accepting names the revision the host
looked at: the same revision again (a double tap, a second phone) answers with the tables
already made; an older one is refused, because the host has not seen what they would accept.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from clubs.models import ClubSession, SessionStatus, Table
from clubs.seating import SeatChoice, seat_problems, seat_table
from door.checkin import DoorError, present
from door.draw import (
    Constraints,
    Draw,
    DrawError,
    DrawRequest,
    Player,
    plan_sizes,
    quality,
    summarise,
    swap,
)
from door.draw import draw as solve
from door.history import season_history
from door.models import CheckIn, DrawRule, OddTables, RuleKind, TableDraw, player_key
from door.variations import players_in, settings_of, versions_for
from houserules.models import HouseRuleVersion


class DrawConflict(Exception):
    """The draw moved on since the host looked (someone redrew or swapped)."""

    def __init__(self, revision: int):
        super().__init__(f"The draw has changed since you looked (it is now revision "
                         f"{revision}): look at it again, then accept.")
        self.revision = revision


@dataclass(frozen=True)
class Tonight:
    """What the draw is made from: who is here and not yet seated, the host's rules, sizes."""

    rows: dict[str, CheckIn]  # player key -> check-in
    request: DrawRequest
    versions: dict[int, int]  # size -> house-rule version id


def _seated_elsewhere(session: ClubSession, draw: TableDraw | None) -> set[str]:
    """Players already at a table of the night that the draw did not make (seated by hand)."""
    own = set(draw.tables) if draw is not None and draw.accepted_revision else set()
    return {player_key(m, g) for m, g in
            Table.objects.filter(session=session).exclude(pk__in=own)
            .values_list("seats__member_id", "seats__guest_name") if m or g}


def tonight(session: ClubSession, seed: int, draw: TableDraw | None = None) -> Tonight:
    settings = settings_of(session.club)
    versions = versions_for(session, settings)
    base = players_in(session.house_rule_version)
    skip = _seated_elsewhere(session, draw)
    rows = {c.key: c for c in present(session) if c.key not in skip}
    by_id = {c.pk: c.key for c in rows.values()}
    constraints = _constraints(session, by_id)
    players = tuple(Player(key, row.name, newcomer=row.newcomer) for key, row in rows.items())
    prefer = (5, 3) if settings.odd_tables == OddTables.FIVES else (3, 5)
    allowed = tuple(s for s in versions if s != base)
    try:
        sizes = plan_sizes(len(players), base, allowed, prefer)
    except DrawError as err:
        raise DoorError({"draw": [_why_no_plan(err, session, settings, versions, base)]}) from None
    req = DrawRequest(players, sizes, season_history(session), constraints, seed)
    return Tonight(rows, req, {size: version.pk for size, version in versions.items()})


def _why_no_plan(err: DrawError, session: ClubSession, settings, versions, base: int) -> str:
    """The engine knows only the sizes it may use. A size the door settings allow but no rule
    plays (a club's own copy of a rule has no 3- or 5-player version) is said as such: the
    engine's "Allow tables of 3 or tables of 5 in the door settings" sent a secretary who had
    allowed both back to a page where both were ticked."""
    ruleless = [size for size, allowed in ((3, settings.allow_threes), (5, settings.allow_fives))
                if allowed and size != base and size not in versions]
    if not ruleless:
        return err.message
    sizes = " or ".join(map(str, ruleless))
    return (f"{err.message.split('.')[0]}. Tables of {sizes} are allowed, but "
            f"{session.house_rule_version.record.name} has no version for {sizes} players: "
            f"choose the house rule tables of {sizes} play under in the door settings, or check "
            "in or remove someone so they divide.")


def _constraints(session: ClubSession, by_id: dict[int, str]) -> Constraints:
    apart, together, fixed = [], [], []
    for rule in DrawRule.objects.filter(session=session):
        first = by_id.get(rule.first_id)
        second = by_id.get(rule.second_id) if rule.second_id else None
        if first is None or (rule.kind != RuleKind.FIXED and second is None):
            continue  # someone in it went home: the rule has nobody to hold
        if rule.kind == RuleKind.APART:
            apart.append((first, second))
        elif rule.kind == RuleKind.TOGETHER:
            together.append((first, second))
        else:
            fixed.append((first, rule.table_number))
    return Constraints(tuple(apart), tuple(together), tuple(fixed))


def _check_open(session: ClubSession) -> None:
    if session.status != SessionStatus.OPEN:
        raise DoorError({"session": ["This session is closed: reopen it to draw tables."]})


def make_draw(session: ClubSession, seed: int | None = None) -> TableDraw:
    """Draw (or draw again) tonight's tables and store the proposal with its quality."""
    _check_open(session)
    current = TableDraw.objects.filter(session=session).first()
    if current is not None and current.play_started():
        raise DoorError({"draw": ["Play has started at the drawn tables: the draw can no "
                                  "longer change. Seat a late arrival with 'Add a table'."]})
    seed = secrets.randbelow(2**31) if seed is None else seed
    night = tonight(session, seed, current)
    try:
        drawn = solve(night.request, base=players_in(session.house_rule_version))
    except DrawError as err:
        raise DoorError({"draw": [err.message]}) from None
    return _store(session, night, drawn, current)


def _store(session, night: Tonight, drawn: Draw, current: TableDraw | None) -> TableDraw:
    season = summarise(night.request.history, night.request.weights)
    judged = quality(night.request, drawn, season)
    fields = {
        "seed": drawn.seed, "drawn": drawn.to_json(), "quality": judged.to_json(),
        "players": {key: row.pk for key, row in night.rows.items()},
        "versions": {str(k): v for k, v in night.versions.items()},
    }
    with transaction.atomic():
        row, created = TableDraw.objects.select_for_update().get_or_create(
            session=session, defaults={**fields, "revision": 1})
        if not created:
            for name, value in fields.items():
                setattr(row, name, value)
            row.revision += 1
            row.save()
    return row


def judged_again(session: ClubSession, draw: TableDraw) -> dict:
    """The draw's quality (``Quality.to_json()``) judged again, by the engine's own ``quality``,
    from its tables as they are now (after a re-seat, or a player's nights given to another):
    the same season so far, the same seed for the random yardstick, the host's rules of those
    still drawn, and each drawn player's newcomer mark from their check-in."""
    drawn = Draw.from_json(draw.drawn)
    keys = [key for table in drawn.tables for key in table.seats]
    rows = {c.key: c for c in CheckIn.objects.filter(session=session).select_related("member")}
    players = tuple(Player(key, rows[key].name, newcomer=rows[key].newcomer) if key in rows
                    else Player(key, key) for key in keys)
    constraints = _constraints(session, {rows[key].pk: key for key in keys if key in rows})
    request = DrawRequest(players, tuple(len(t.seats) for t in drawn.tables),
                          season_history(session), constraints, drawn.seed)
    season = summarise(request.history, request.weights)
    return quality(request, drawn, season).to_json()


def swap_players(session: ClubSession, draw: TableDraw, first: int, second: int,
                 revision: int | None = None) -> TableDraw:
    """Exchange two drawn players' seats (check-in ids) and judge the draw again."""
    _check_open(session)
    if draw is not None and draw.play_started():
        raise DoorError({"draw": ["Play has started at the drawn tables: swap players at the "
                                  "table page instead."]})
    if revision is not None and revision != draw.revision:
        raise DrawConflict(draw.revision)
    keys = {pk: key for key, pk in draw.players.items()}
    if first not in keys or second not in keys:
        raise DoorError({"first": ["Pick two players from tonight's draw."]})
    try:
        swapped = swap(Draw.from_json(draw.drawn), keys[first], keys[second])
    except DrawError as err:
        raise DoorError({"second": [err.message]}) from None
    night = tonight(session, draw.seed, draw)
    if set(night.rows) != set(draw.players):
        raise DoorError({"draw": ["Someone has come or gone since the draw: draw again."]})
    return _store(session, night, swapped, draw)


def accept(session: ClubSession, revision: int) -> tuple[TableDraw, bool]:
    """Seat the drawn tables (numbered after any the night has) with their starting winds and
    house rules, all at once. (draw, made now): a repeat of an accepted revision makes nothing."""
    _check_open(session)
    with transaction.atomic():
        draw = TableDraw.objects.select_for_update().filter(session=session).first()
        if draw is None:
            raise DoorError({"revision": ["There is no draw to accept yet: draw first."]})
        if draw.accepted_revision == revision == draw.revision:
            return draw, False
        if revision != draw.revision:
            raise DrawConflict(draw.revision)
        if draw is not None and draw.play_started():
            raise DoorError({"draw": ["Play has started at the drawn tables."]})
        rows = {c.pk: c for c in CheckIn.objects.filter(pk__in=draw.players.values())
                .select_related("member")}
        gone = [rows[pk].name for pk in draw.players.values()
                if pk not in rows or rows[pk].left is not None]
        if gone:
            raise DoorError({"draw": [f"{', '.join(gone)} went home after the draw: draw "
                                      "again."]})
        # A redraw after accepting (before play): the earlier drawn tables go.
        Table.objects.filter(pk__in=draw.tables, session=session).delete()
        versions = {int(k): v for k, v in draw.versions.items()}
        by_pk = HouseRuleVersion.objects.in_bulk(versions.values())
        base = players_in(session.house_rule_version)
        last = (Table.objects.filter(session=session).order_by("-number")
                .values_list("number", flat=True).first()) or 0
        made = []
        for offset, table in enumerate(Draw.from_json(draw.drawn).tables, 1):
            size = len(table.seats)
            version = None if size == base else by_pk[versions[size]]
            seats = [SeatChoice(rows[draw.players[key]].member,
                                "" if rows[draw.players[key]].member_id
                                else rows[draw.players[key]].guest_name, wind)
                     for key, wind in table.seated()]
            problems, whole = seat_problems(session, seats, version)
            if any(problems) or whole:
                words = [m for p in problems for msgs in p.values() for m in msgs] + whole
                raise DoorError({"draw": [f"Table {last + offset}: {' '.join(words)}"]})
            made.append(seat_table(session, seats, last + offset, version).pk)
        draw.tables = made
        draw.accepted_revision = draw.revision
        draw.accepted = timezone.now()
        draw.save(update_fields=["tables", "accepted_revision", "accepted", "updated"])
    return draw, True
