"""Giving a player's past seats to another player, in one atomic, audited move:

- ``guest_to_member``: a guest who played (known only by a typed name) becomes a member, new or
  existing, and the guest's hands, nights and standings become the member's;
- ``merge_members``: a member entered twice ("Ann Lee" and "Ann  Lee") becomes one; the
  duplicate's seats, results and login go to the member kept, and the duplicate is deleted;
- ``undo_move``: either put back, where the data allows (the seats moved are still the
  member's, the duplicate's name is still free).

Plain functions for the pages, the API and imports (a spreadsheet's names matched to members).
What a seat says is the record; the copies derived from it move in the same transaction:
``HandResult.member``, each table's ``Table.state`` names (``seat_names``), and the feature
apps' rows through ``clubs.signals.players_moved`` (league's ``NightResult``, door's check-ins).
Nothing is rescored: who sat where is unchanged, only who they were.

A move that would seat one member twice on one night (the guest and the member both played
that night, or the two members did) corrupts the league and is refused with a sentence
(``MoveRefused``, errors by field as DRF gives them).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from clubs.members.seat_names import refresh_seat_names
from clubs.models import AuditAction, AuditEntry, Club, HandResult, Member, MemberRole, Seat
from clubs.signals import players_moved

OBJECT_TYPE = "member"
GUEST_TO_MEMBER = "guest_to_member"
MERGE = "merge"
_RANK = {MemberRole.MEMBER: 1, MemberRole.SCORER: 2, MemberRole.ADMIN: 3}


class MoveRefused(Exception):
    """The move was not made: ``errors`` says why, by field (``{"member": ["..."]}``)."""

    def __init__(self, errors: dict[str, list]):
        super().__init__(" ".join(_sentences(errors)))
        self.errors = errors


def _sentences(errors) -> list[str]:
    """Every sentence of DRF-shaped errors (lists of sentences, or per-row dicts of them)."""
    if isinstance(errors, str):
        return [errors]
    if isinstance(errors, dict):
        return [m for value in errors.values() for m in _sentences(value)]
    return [m for value in errors for m in _sentences(value)]


@dataclass(frozen=True)
class Move:
    """What a move did: the member who now holds the seats, the seats, tables and nights
    moved, and the audit entry that records it (and can undo it)."""

    member: Member
    seat_ids: tuple[int, ...]
    table_ids: tuple[int, ...]
    session_ids: tuple[int, ...]
    hands: int
    audit: AuditEntry

    @property
    def nights(self) -> int:
        return len(self.session_ids)


# -- guests -----------------------------------------------------------------------------------


def guest_seats(club: Club, guest_name: str, seat_ids=None):
    """The seats of the club's nights where a guest of this name sat (case and surrounding
    spaces ignored), or only those of ``seat_ids`` among them."""
    seats = Seat.objects.filter(table__session__club=club, member__isnull=True,
                                guest_name__iexact=guest_name.strip())
    if seat_ids is not None:
        seats = seats.filter(pk__in=list(seat_ids))
    return seats


GUEST_SQL = """
SELECT LOWER(g.guest_name) AS name_key, MAX(g.guest_name), COUNT(*), MAX(g.date)
FROM (
    SELECT n.guest_name, n.date FROM league_nightresult n {night_index}
    WHERE n.club_id = %(club)s AND n.member_id IS NULL
    UNION ALL
    SELECT s.guest_name, ss.date FROM clubs_clubsession ss {session_index}
    {join} clubs_table t {join} clubs_seat s
    WHERE ss.club_id = %(club)s AND ss.status = 'open' AND t.session_id = ss.id
      AND s.table_id = t.id AND s.member_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM league_nightresult r WHERE r.seat_id = s.id)
) g
GROUP BY LOWER(g.guest_name)
ORDER BY name_key
"""
# SQLite's planner, without statistics, walks the club's every night by ``night_by_club_date``
# and every club's guests' seats by ``seat_by_member`` (member_id IS NULL): it is told the
# partial indexes, and the join's order (a CROSS JOIN keeps it). PostgreSQL picks them itself.
SQLITE_HINTS = {"night_index": "INDEXED BY night_guest_by_club",
                "session_index": "INDEXED BY session_open_by_club", "join": "CROSS JOIN"}
PLAIN = {"night_index": "", "session_index": "", "join": "CROSS JOIN"}


def guest_names(club: Club) -> list[dict]:
    """Each guest name that played at the club, with how many seats (nights at a table) and
    the last date: what the members page offers to turn into a member. One grouped query.

    Read from the league's per-night rows (one a seat, made with a table's first hand, kept
    in step with every change of who sat there), the guests' own by a partial index
    (``night_guest_by_club``), with the seats of the club's open nights whose tables have no
    hand yet (``session_open_by_club``): what the list shows, not the club's every table
    (issue #27: walking the club's nights grew with its history). A guest seated at a table
    of a closed night that never recorded a hand is not listed."""
    from django.db import connection

    with connection.cursor() as cursor:
        hints = SQLITE_HINTS if connection.vendor == "sqlite" else PLAIN
        cursor.execute(GUEST_SQL.format(**hints), {"club": club.pk})
        rows = cursor.fetchall()
    return [{"name": name, "seats": seats, "last": _date(last)}
            for _key, name, seats, last in rows]


def _date(value):
    # SQLite answers MAX() of a date column as text.
    import datetime as dt

    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def guest_to_member(club: Club, guest_name: str, member: Member | None = None, *, user=None,
                    seat_ids=None, new_name: str = "", note: str = "") -> Move:
    """Give the guest's seats (every seat of that name at the club, or ``seat_ids`` among them)
    to ``member``, or to a new member named ``new_name`` or the guest's name. Atomic, audited;
    raises ``MoveRefused`` (nothing changed) when there is nothing to move, the member is
    another club's, or the member would sit twice on one night."""
    name = (guest_name or "").strip()
    if not name:
        raise MoveRefused({"guest_name": ["Give the guest's name as it was typed at the table."]})
    if member is not None and member.club_id != club.pk:
        raise MoveRefused({"member": ["Pick a member of this club."]})
    with transaction.atomic():
        seats = list(guest_seats(club, name, seat_ids).select_related("table__session")
                     .order_by("table__session__date", "table__number"))
        if not seats:
            raise MoveRefused({"guest_name": [
                f"No guest called {name!r} played at {club.name}"
                + (" at the seats given." if seat_ids is not None else ".")]})
        created = member is None
        if created:
            display = (new_name or seats[0].guest_name).strip()
            if Member.objects.filter(club=club, display_name=display).exists():
                raise MoveRefused({"new_name": [
                    f"{club.name} already has a member called {display!r}: choose them to give "
                    "them the guest's nights, or type another name."]})
            member = Member.objects.create(club=club, display_name=display,
                                           joined=seats[0].table.session.date)
        else:
            member = Member.objects.select_for_update().get(pk=member.pk)
        name = seats[0].guest_name
        _refuse_two_seats_a_night(seats, member, who=f"the guest {name!r}")
        typed = {str(s.pk): s.guest_name for s in seats}  # as typed, for an undo
        move = _give_seats(club, seats, member, from_guest=name)
        before = {"move": GUEST_TO_MEMBER, "guest": name, "seats": list(move.seat_ids),
                  "guest_names": typed, "member_created": created}
        after = {"member": member.pk, "name": member.display_name, "seats": list(move.seat_ids)}
        audit = AuditEntry.objects.create(
            club=club, user=user, action=AuditAction.UPDATE, object_type=OBJECT_TYPE,
            object_id=str(member.pk), before=before, after=after,
            note=note or (f"The guest {name} is now the member {member.display_name}: "
                          f"{_count(move.hands, 'hand')} on {_count(move.nights, 'night')}."),
        )
    return Move(member, move.seat_ids, move.table_ids, move.session_ids, move.hands, audit)


# -- members entered twice ---------------------------------------------------------------------


def _fields(member: Member) -> dict:
    return {"id": member.pk, "display_name": member.display_name, "user": member.user_id,
            "role": member.role, "active": member.active,
            "joined": member.joined.isoformat() if member.joined else None}


def merge_members(keep: Member, duplicate: Member, *, user=None, note: str = "") -> Move:
    """Make ``duplicate`` (the same person entered twice) part of ``keep``: its seats, results
    and check-ins become ``keep``'s, its login too when ``keep`` has none, the higher of the
    two roles and the earlier joining date are kept, and ``duplicate`` is deleted. Atomic,
    audited, undoable (``undo_move``); ``MoveRefused`` when they are one member, of two clubs,
    both have logins, or both played on one night."""
    if keep.pk == duplicate.pk:
        raise MoveRefused({"duplicate": ["Pick two different members to merge."]})
    if keep.club_id != duplicate.club_id:
        raise MoveRefused({"duplicate": ["Both members must be of the same club."]})
    with transaction.atomic():
        locked = {m.pk: m for m in Member.objects.select_for_update()
                  .filter(pk__in=[keep.pk, duplicate.pk])}
        if len(locked) != 2:
            raise MoveRefused({"duplicate": ["One of these members no longer exists."]})
        keep, duplicate = locked[keep.pk], locked[duplicate.pk]
        if keep.user_id and duplicate.user_id and keep.user_id != duplicate.user_id:
            raise MoveRefused({"duplicate": [
                f"{keep.display_name} and {duplicate.display_name} each have their own login, "
                "so they are two people: merge only a member entered twice."]})
        before = {"move": MERGE, "keep": _fields(keep), "duplicate": _fields(duplicate)}
        seats = list(Seat.objects.filter(member=duplicate).select_related("table__session")
                     .order_by("table__session__date", "table__number"))
        _refuse_two_seats_a_night(seats, keep, who=duplicate.display_name)
        move = _give_seats(Club(pk=keep.club_id), seats, keep, from_member=duplicate,
                           everything=True)
        login = duplicate.user_id
        try:
            with transaction.atomic():
                duplicate.delete()
        except ProtectedError as err:
            names = sorted({obj._meta.verbose_name for obj in err.protected_objects})
            raise MoveRefused({"duplicate": [
                f"{duplicate.display_name} is still named by {', '.join(names)} that could not "
                "be moved; nothing was changed."]}) from err
        if login and not keep.user_id:
            keep.user_id = login
        if _RANK[MemberRole(duplicate.role)] > _RANK[MemberRole(keep.role)]:
            keep.role = duplicate.role
        keep.active = keep.active or duplicate.active
        if duplicate.joined and (keep.joined is None or duplicate.joined < keep.joined):
            keep.joined = duplicate.joined
        keep.save(update_fields=["user", "role", "active", "joined"])
        before["seats"] = list(move.seat_ids)
        after = {"member": keep.pk, "name": keep.display_name, "seats": list(move.seat_ids),
                 "keep": _fields(keep)}
        audit = AuditEntry.objects.create(
            club_id=keep.club_id, user=user, action=AuditAction.UPDATE,
            object_type=OBJECT_TYPE, object_id=str(keep.pk), before=before, after=after,
            note=note or (f"{duplicate.display_name} merged into {keep.display_name}: "
                          f"{_count(move.hands, 'hand')} on {_count(move.nights, 'night')}."),
        )
    return Move(keep, move.seat_ids, move.table_ids, move.session_ids, move.hands, audit)


# -- undoing ----------------------------------------------------------------------------------


def undone_by(entry: AuditEntry) -> AuditEntry | None:
    """The entry that undid this move, if any."""
    return (AuditEntry.objects.filter(club_id=entry.club_id, action=AuditAction.RESTORE,
                                      object_type=OBJECT_TYPE, object_id=entry.object_id,
                                      after__undoes=entry.pk).first())


def undoable(entry: AuditEntry) -> bool:
    return (entry.object_type == OBJECT_TYPE and entry.action == AuditAction.UPDATE
            and (entry.before or {}).get("move") in (GUEST_TO_MEMBER, MERGE))


def undo_move(entry: AuditEntry, *, user=None) -> AuditEntry:
    """Put a move back: the seats it gave go back to the guest (the member it made is deleted
    when nothing else is theirs), or to the duplicate, made again as it was. Refused with a
    sentence when it was undone already or the data no longer allows it (a seat moved since,
    the name taken, the member since seated on one of those nights)."""
    if not undoable(entry):
        raise MoveRefused({"entry": ["Only a guest made a member, or a merge, can be undone "
                                     "here."]})
    with transaction.atomic():
        entry = AuditEntry.objects.select_for_update().get(pk=entry.pk)
        if undone_by(entry):
            raise MoveRefused({"entry": ["This was undone already."]})
        before, after = entry.before, entry.after
        member = Member.objects.select_for_update().filter(pk=after["member"]).first()
        seat_ids = before["seats"]
        seats = list(Seat.objects.filter(pk__in=seat_ids).select_related("table__session"))
        if member is None or len(seats) != len(seat_ids) or any(
                s.member_id != member.pk for s in seats):
            raise MoveRefused({"entry": [
                "The seats this moved have changed since (a table mended, deleted or merged "
                "again), so it cannot be put back as it was."]})
        club = Club.objects.get(pk=entry.club_id)
        if before["move"] == GUEST_TO_MEMBER:
            typed = before.get("guest_names", {})
            by_name: dict[str, list[Seat]] = {}
            for seat in seats:
                by_name.setdefault(typed.get(str(seat.pk), before["guest"]), []).append(seat)
            for guest, group in sorted(by_name.items()):
                _give_seats(club, group, None, from_member=member, to_guest=guest)
            removed = before["member_created"] and _unused(member) and _deleted(member)
            note = f"Undone: {member.display_name} is the guest {before['guest']} again" + (
                "" if removed else f" on those nights ({member.display_name} stays a member).")
        else:
            old = before["duplicate"]
            if Member.objects.filter(club=club, display_name=old["display_name"]).exists():
                raise MoveRefused({"entry": [
                    f"{club.name} has another member called {old['display_name']!r} now: "
                    "rename them first."]})
            kept = before["keep"]
            login = old["user"] if old["user"] and member.user_id == old["user"] else None
            if login:
                member.user_id = kept["user"]
            member.role, member.active = kept["role"], kept["active"]
            member.joined = kept["joined"]
            member.save(update_fields=["user", "role", "active", "joined"])
            duplicate = Member.objects.create(
                pk=old["id"] if not Member.objects.filter(pk=old["id"]).exists() else None,
                club=club, display_name=old["display_name"], user_id=login, role=old["role"],
                active=old["active"], joined=old["joined"])
            _give_seats(club, seats, duplicate, from_member=member)
            note = f"Undone: {duplicate.display_name} is a member apart from {member.display_name} again."
        return AuditEntry.objects.create(
            club=club, user=user, action=AuditAction.RESTORE, object_type=OBJECT_TYPE,
            object_id=entry.object_id, before=after, after={**before, "undoes": entry.pk},
            note=note)


# -- the move itself --------------------------------------------------------------------------


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _unused(member: Member) -> bool:
    return not member.user_id and not Seat.objects.filter(member=member).exists()


def _deleted(member: Member) -> bool:
    """Delete a member nothing else needs; False (kept) when a feature app's row still
    names them (a check-in on another night)."""
    try:
        with transaction.atomic():
            member.delete()
    except ProtectedError:
        return False
    return True


def _day(date) -> str:
    return f"{date.day} {date:%B %Y}"


def _refuse_two_seats_a_night(seats: list[Seat], member: Member, who: str) -> None:
    """One seat a night per member: refuse when the seats moving are on one night twice, or on
    a night the member already played."""
    nights: dict[int, Seat] = {}
    for seat in seats:
        other = nights.setdefault(seat.table.session_id, seat)
        if other is not seat:
            raise MoveRefused({"member": [
                f"{who} played at tables {other.table.number} and {seat.table.number} on "
                f"{_day(seat.table.session.date)}, so they are two people: give the seats "
                "one at a time."]})
    clash = (Seat.objects.filter(member=member, table__session_id__in=list(nights))
             .select_related("table__session").order_by("table__session__date").first())
    if clash is not None:
        theirs = nights[clash.table.session_id]
        when = _day(clash.table.session.date)
        if clash.table_id == theirs.table_id:
            said = f"{member.display_name} and {who} both played at table {clash.table.number} on {when}"
        else:
            said = (f"{member.display_name} played at table {clash.table.number} and {who} at "
                    f"table {theirs.table.number} on {when}")
        raise MoveRefused({"member": [
            f"{said}: a member has one seat a night, so these are two people."]})


@dataclass(frozen=True)
class _Moved:
    seat_ids: tuple[int, ...]
    table_ids: tuple[int, ...]
    session_ids: tuple[int, ...]
    hands: int

    @property
    def nights(self) -> int:
        return len(self.session_ids)


def _give_seats(club: Club, seats: list[Seat], member: Member | None, *,
                from_member: Member | None = None, from_guest: str = "",
                to_guest: str = "", everything: bool = False) -> _Moved:
    """Write the move: the seats, their hand results, the tables' states and (through
    ``players_moved``) the feature apps' rows. Inside the caller's transaction. With
    ``everything`` (a merge: ``from_member`` is about to be deleted) the feature apps move
    all their rows of ``from_member``, not only those of the seats' nights."""
    seat_ids = tuple(sorted(s.pk for s in seats))
    table_ids = tuple(sorted({s.table_id for s in seats}))
    session_ids = tuple(sorted({s.table.session_id for s in seats}))
    try:
        with transaction.atomic():
            Seat.objects.filter(pk__in=seat_ids).update(
                member=member, guest_name="" if member is not None else to_guest)
            hands = HandResult.objects.filter(seat_id__in=seat_ids).update(member=member)
    except IntegrityError as err:  # a constraint the checks above did not foresee
        raise MoveRefused({"member": [
            "These seats cannot be given to that player (the database refused it: "
            f"{err.__class__.__name__}); nothing was changed."]}) from err
    refresh_seat_names(table_ids)
    players_moved.send(sender=Member, club=club, seat_ids=seat_ids, session_ids=session_ids,
                       from_member=from_member, from_guest=from_guest, to_member=member,
                       to_guest=to_guest, everything=everything)
    return _Moved(seat_ids, table_ids, session_ids, hands)
