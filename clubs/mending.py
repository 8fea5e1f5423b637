"""Mending a night's mistakes, each audited and undoable where the data allows:

- ``delete_session``: a night started by mistake, while no table of it has a hand;
- ``delete_table``: a table started by mistake, while it has no counted hand (voided ones go
  with it, and are kept in the audit entry);
- ``void_table``: every hand of a table started by mistake voided at once (they stay listed,
  count for nothing), and ``undo`` restores them;
- ``move_hands``: a table started twice for the same players: its hands moved after the other
  table's, each player's entries to their seat there, both tables recomputed;
- ``reseat_table``: who sat at each seat corrected (a wrong member picked, a guest typed for a
  member); the hands stay with the seats, so nothing is rescored. Starting winds change only
  while the table has no hand (later hands were dealt from them);
- ``undo``: put back a deletion (the night or table, its seats, as they were), a void of the
  table, or a re-seat.

Refusals are ``Refused`` with sentences by field, as a form or a 400 gives them.
"""

from __future__ import annotations

from collections import Counter

from django.db import router, transaction
from django.db.models.deletion import Collector

from clubs.league_guards import seated_elsewhere
from clubs.members.merge import MoveRefused
from clubs.members.seat_names import refresh_seat_names
from clubs.models import (
    AuditAction,
    AuditEntry,
    ClubSession,
    Hand,
    HandResult,
    Member,
    Seat,
    Table,
    Wind,
)
from clubs.signals import table_recomputed, table_reseated
from play import KEPT

Refused = MoveRefused

# What may go with a deleted night or table without a word: its own empty rows and the rows
# derived from them. Anything else (a door's check-ins and takings) is named and refused.
_DERIVED = {"clubs.table", "clubs.seat", "clubs.tablewriter", "clubs.handentry",
            "clubs.handresult", "clubs.hand", "league.nightresult", "door.tabledraw",
            "sheets.sessionlayout"}
_WORDS = {"door.checkin": "check-in at the door", "door.drawrule": "rule for the draw",
          "compare.comparison": "comparison report", "league.snapshot": "published standings"}


def _what_else(obj) -> Counter:
    collector = Collector(using=router.db_for_write(type(obj)))
    collector.collect([obj])
    counts: Counter = Counter()
    for model, rows in collector.data.items():
        label = model._meta.label_lower
        if label not in _DERIVED and model is not type(obj):
            counts[label] += len(rows)
    for qs in collector.fast_deletes:
        label = qs.model._meta.label_lower
        if label not in _DERIVED and qs.model is not type(obj):
            if n := qs.count():
                counts[label] += n
    return counts


def _refuse_others(obj, what: str) -> None:
    others = _what_else(obj)
    if others:
        said = ", ".join(f"{n} {_WORDS.get(label, label.split('.')[1])}{'s' if n != 1 else ''}"
                         for label, n in sorted(others.items()))
        raise Refused({"non_field_errors": [
            f"This {what} has {said}: it is not a mistake to delete whole. Remove those first."]})


def _seats_json(table: Table) -> list[dict]:
    return [{"id": s.pk, "position": s.position, "member": s.member_id,
             "guest_name": s.guest_name, "starting_wind": s.starting_wind}
            for s in table.seats.order_by("position")]


def _table_json(table: Table) -> dict:
    return {"id": table.pk, "number": table.number, "session": table.session_id,
            "house_rule_version": table.house_rule_version_id, "seats": _seats_json(table)}


def _hands_json(table: Table) -> list[dict]:
    return [{"number": h.number, "voided": h.voided, "computed": None}
            for h in table.hands.order_by("number")]


# -- deleting -------------------------------------------------------------------------------


def delete_session(session: ClubSession, *, user=None) -> AuditEntry:
    with transaction.atomic():
        session = ClubSession.objects.select_for_update().select_related("club").get(
            pk=session.pk)
        if Hand.objects.filter(table__session=session).exists():
            raise Refused({"non_field_errors": [
                "This night has hands recorded: delete its tables one by one (void their hands "
                "first if they were played by mistake), or keep the night."]})
        _refuse_others(session, "night")
        kept = {"id": session.pk, "date": session.date.isoformat(), "season": session.season_id,
                "house_rule_version": session.house_rule_version_id,
                "goulash_rule_version": session.goulash_rule_version_id,
                "notes": session.notes, "status": session.status,
                "tables": [_table_json(t) for t in session.tables.order_by("number")]}
        entry = AuditEntry.objects.create(
            club_id=session.club_id, user=user, action=AuditAction.DELETE,
            object_type="clubsession", object_id=str(session.pk), before=kept,
            note=f"The night of {session.date:%-d %b %Y} deleted (no hands were recorded).")
        session.delete()
    return entry


def delete_table(table: Table, *, user=None) -> AuditEntry:
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
        counted = table.hands.filter(voided=False).count()
        if counted:
            raise Refused({"non_field_errors": [
                f"Table {table.number} has {counted} counted hand{'s' if counted != 1 else ''}: "
                "void them first (\"Void every hand\") if the table was started by mistake."]})
        _refuse_others(table, "table")
        hands = _hands_json(table)
        entry = AuditEntry.objects.create(
            club_id=table.session.club_id, user=user, action=AuditAction.DELETE,
            object_type="table", object_id=str(table.pk),
            before={**_table_json(table), "hands": hands},
            note=f"Table {table.number} of {table.session.date:%-d %b %Y} deleted"
            + (f" with its {len(hands)} voided hand{'s' if len(hands) != 1 else ''}."
               if hands else "."))
        table.delete()
    return entry


# -- voiding a table ------------------------------------------------------------------------


def void_table(table: Table, *, user=None, reason: str = "") -> AuditEntry:
    """Void every counted hand of the table at once (a table started by mistake), recomputed
    once; the entry names the hands, and undoing it restores them."""
    from clubs.recording.recompute import recompute_table

    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
        ids = list(table.hands.filter(voided=False).order_by("number")
                   .values_list("pk", flat=True))
        if not ids:
            raise Refused({"non_field_errors": [f"Table {table.number} has no counted hand to "
                                                "void."]})
        Hand.objects.filter(pk__in=ids).update(voided=True)
        entry = AuditEntry.objects.create(
            club_id=table.session.club_id, user=user, action=AuditAction.VOID,
            object_type="table", object_id=str(table.pk), before={"hands": ids, "voided": False},
            after={"hands": ids, "voided": True},
            note=f"Every hand of table {table.number} voided ({len(ids)})"
            + (f": {reason}" if reason else "."))
        recompute_table(table)
    return entry


# -- moving a table's hands ------------------------------------------------------------------


def _player(seat: Seat) -> tuple:
    return (seat.member_id, "" if seat.member_id else seat.guest_name.casefold())


def move_hands(source: Table, target: Table, *, user=None) -> AuditEntry:
    """The hands recorded at ``source`` belong to ``target`` (a table started twice for the
    same players): move them, in order, after ``target``'s own hands, each player's entries to
    their seat there, and recompute both tables. Refused unless both are tables of one night
    and everyone who played at ``source`` sits at ``target``."""
    from clubs.recording.corrections import mark_kept
    from clubs.recording.recompute import recompute_table

    if source.pk == target.pk:
        raise Refused({"target": ["Pick another table of the night."]})
    with transaction.atomic():
        locked = {t.pk: t for t in Table.objects.select_for_update().select_related("session")
                  .filter(pk__in=[source.pk, target.pk])}
        source, target = locked[source.pk], locked[target.pk]
        if source.session_id != target.session_id:
            raise Refused({"target": ["Hands move only between tables of the same night."]})
        hands = list(source.hands.order_by("number"))
        if not hands:
            raise Refused({"non_field_errors": [f"Table {source.number} has no hand to move."]})
        theirs = {_player(s): s for s in target.seats.select_related("member")}
        seat_map, missing = {}, []
        for seat in source.seats.select_related("member"):
            match = theirs.get(_player(seat))
            if match is None:
                missing.append(_name(seat))
            else:
                seat_map[seat.pk] = match.pk
        if missing:
            raise Refused({"target": [
                f"{', '.join(missing)} {'does' if len(missing) == 1 else 'do'} not sit at table "
                f"{target.number}: its hands can move only to a table of the same players "
                "(re-seat one of them first)."]})
        last = target.hands.order_by("-number").values_list("number", flat=True).first() or 0
        moved = [{"id": h.pk, "number": h.number, "to": last + i}
                 for i, h in enumerate(hands, 1)]
        _move(hands, target, seat_map, {m["id"]: m["to"] for m in moved})
        # The moved hands keep the seating they were played with: where the target's rotation
        # would seat them otherwise, the table played on as recorded (play.KEPT), so the night
        # shows no sequence its rotation forbids.
        kept = mark_kept(target, last)
        recompute_table(target)
        recompute_table(source)
        return AuditEntry.objects.create(
            club_id=source.session.club_id, user=user, action=AuditAction.UPDATE,
            object_type="table", object_id=str(source.pk),
            before={"move_hands": {"to_table": target.pk, "seats": {str(k): v for k, v in
                                                                   seat_map.items()},
                                   "hands": moved, "kept": kept}},
            after={"table": target.pk},
            note=f"The {len(hands)} hand{'s' if len(hands) != 1 else ''} of table "
                 f"{source.number} moved to table {target.number} (hands {last + 1} to "
                 f"{last + len(hands)}).")


def _move(hands: list[Hand], target: Table, seat_map: dict[int, int],
          numbers: dict[int, int]) -> None:
    from clubs.models import HandEntry

    ids = [h.pk for h in hands]
    HandResult.objects.filter(hand_id__in=ids).delete()  # rebuilt by the recompute
    for hand in hands:
        Hand.objects.filter(pk=hand.pk).update(
            table=target, number=numbers[hand.pk], dealer_id=seat_map[hand.dealer_id],
            winner_id=seat_map.get(hand.winner_id), discarder_id=seat_map.get(hand.discarder_id))
    for entry in HandEntry.objects.filter(hand_id__in=ids):
        HandEntry.objects.filter(pk=entry.pk).update(seat_id=seat_map[entry.seat_id])


def _restore_moved_hands(entry: AuditEntry) -> str:
    from clubs.recording.recompute import recompute_table

    move = entry.before["move_hands"]
    source = Table.objects.select_for_update().filter(pk=entry.object_id).first()
    target = Table.objects.select_for_update().filter(pk=move["to_table"]).first()
    if source is None or target is None:
        raise Refused({"entry": ["One of those tables no longer exists."]})
    ids = [m["id"] for m in move["hands"]]
    now = dict(Hand.objects.filter(pk__in=ids, table=target).values_list("pk", "number"))
    highest = max(m["to"] for m in move["hands"])
    if any(now.get(m["id"]) != m["to"] for m in move["hands"]) or target.hands.filter(
            number__gt=highest).exists() or source.hands.exists():
        raise Refused({"entry": [
            f"Table {target.number} has changed since the hands were moved (more hands, or "
            "these moved on): they cannot be put back as they were."]})
    back = {v: int(k) for k, v in move["seats"].items()}
    hands = list(Hand.objects.filter(pk__in=ids).order_by("number"))
    # The marks the move made go back with it (moved back, the hands follow on as before).
    kept = set(move.get("kept", ()))
    unmarked = [h for h in hands if h.number in kept and KEPT in (h.facts or {})]
    for hand in unmarked:
        hand.facts = {k: v for k, v in hand.facts.items() if k != KEPT}
    Hand.objects.bulk_update(unmarked, ["facts"])
    _move(hands, source, back, {m["id"]: m["number"] for m in move["hands"]})
    recompute_table(source)
    recompute_table(target)
    return f"The hands are back at table {source.number}."


# -- re-seating -----------------------------------------------------------------------------


def reseat_table(table: Table, seats: list[dict], *, user=None) -> AuditEntry | None:
    """``seats``: per position, ``member`` (a Member or id) or ``guest_name``, and optionally
    ``starting_wind``. Returns the audit entry, or None when nothing changed."""
    with transaction.atomic():
        table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
        session = table.session
        current = {s.position: s for s in table.seats.select_related("member")}
        has_hands = table.hands.exists()
        errors: dict[str, list] = {}
        wanted: dict[int, tuple[int | None, str, str]] = {}
        members = {m.pk: m for m in Member.objects.filter(
            club_id=session.club_id,
            pk__in=[_id(s.get("member")) for s in seats if _id(s.get("member"))]
            + [s.member_id for s in current.values() if s.member_id])}
        problems = []
        for i, given in enumerate(seats):
            problem: dict[str, list[str]] = {}
            position = given.get("position", i)
            seat = current.get(position)
            member_id, guest = _id(given.get("member")), " ".join(
                (given.get("guest_name") or "").split())
            if seat is not None and "member" not in given and "guest_name" not in given:
                member_id, guest = seat.member_id, seat.guest_name  # only the wind given
            wind = given.get("starting_wind", seat.starting_wind if seat else "")
            if seat is None:
                problem["position"] = [f"Table {table.number} has no seat {position}."]
            elif bool(member_id) == bool(guest):
                problem["member"] = ["Pick a member of the club, or type a guest's name."]
            elif member_id and member_id not in members:
                problem["member"] = ["Not a member of this club: seat them as a guest."]
            elif len(guest) > 80:
                problem["guest_name"] = ["A name has at most 80 characters."]
            if seat is not None and wind != seat.starting_wind and has_hands:
                problem["starting_wind"] = [
                    "Hands were played from these winds: swap what was entered for two players "
                    "instead (\"Swap seats\"), or void the hands first."]
            elif wind and wind not in Wind.values:
                problem["starting_wind"] = ["A wind is E, S, W or N."]
            problems.append(problem)
            if seat is not None:
                wanted[position] = (member_id, "" if member_id else guest, wind)
        if any(problems):
            errors["seats"] = problems
            raise Refused(errors)
        after = {p: wanted.get(p, (s.member_id, s.guest_name, s.starting_wind))
                 for p, s in current.items()}
        _check_one_seat_each(table, session, after, members)
        changed = [p for p, s in current.items()
                   if after[p] != (s.member_id, s.guest_name, s.starting_wind)]
        if not changed:
            return None
        before_json = _seats_json(table)
        # Two seats may trade players: clear the winds first (unique per table), then write.
        Seat.objects.filter(pk__in=[current[p].pk for p in changed]).update(starting_wind="")
        for p in changed:
            member_id, guest, wind = after[p]
            Seat.objects.filter(pk=current[p].pk).update(member_id=member_id, guest_name=guest,
                                                          starting_wind=wind)
            HandResult.objects.filter(seat_id=current[p].pk).update(member_id=member_id)
        if any(after[p][2] != current[p].starting_wind for p in changed):
            from clubs.recording.recompute import recompute_table

            recompute_table(table)  # no hand yet: the next hand's winds start from the seats
        else:
            refresh_seat_names([table.pk])
            table_recomputed.send(sender=Table, table=table, from_number=1, appended=None)
        table_reseated.send(sender=Table, table=table,
                            before=[(current[p].member_id, current[p].guest_name)
                                    for p in sorted(current)],
                            after=[after[p][:2] for p in sorted(current)])
        names = [f"{_name(current[p])} → {_name_of(after[p], members)}" for p in changed]
        return AuditEntry.objects.create(
            club_id=session.club_id, user=user, action=AuditAction.UPDATE,
            object_type="table", object_id=str(table.pk), before={"seats": before_json},
            after={"seats": _seats_json(table)},
            note=f"Table {table.number} re-seated: " + "; ".join(names) + ".")


def _id(value) -> int | None:
    if isinstance(value, Member):
        return value.pk
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _name(seat: Seat) -> str:
    return seat.member.display_name if seat.member_id else seat.guest_name


def _name_of(who: tuple, members: dict) -> str:
    return members[who[0]].display_name if who[0] else who[1]


def _check_one_seat_each(table, session, after: dict, members: dict) -> None:
    seen_members: dict[int, int] = {}
    seen_guests: dict[str, int] = {}
    winds: dict[str, int] = {}
    problems: list[dict[str, list[str]]] = [{} for _ in sorted(after)]
    for i, p in enumerate(sorted(after)):
        member_id, guest, wind = after[p]
        if member_id and member_id in seen_members:
            problems[i]["member"] = [f"{members[member_id].display_name} already sits at this "
                                     "table: everyone has one seat."]
        if guest and guest.casefold() in seen_guests:
            problems[i]["guest_name"] = [f"A guest called {guest!r} already sits at this "
                                         "table; add an initial."]
        if wind and wind in winds:
            problems[i]["starting_wind"] = ["Two players cannot start with one wind."]
        seen_members.setdefault(member_id, p) if member_id else None
        seen_guests.setdefault(guest.casefold(), p) if guest else None
        winds.setdefault(wind, p) if wind else None
    elsewhere = seated_elsewhere(session, [a[0] for a in after.values()], exclude_table=table)
    for i, p in enumerate(sorted(after)):
        member_id = after[p][0]
        if member_id in elsewhere and "member" not in problems[i]:
            problems[i]["member"] = [f"{members[member_id].display_name} already sits at table "
                                     f"{elsewhere[member_id]} tonight: a member has one seat a "
                                     "night."]
    if any(problems):
        raise Refused({"seats": problems})


# -- undoing --------------------------------------------------------------------------------


def undoable(entry: AuditEntry) -> bool:
    if entry.object_type == "clubsession":
        return entry.action == AuditAction.DELETE
    if entry.object_type != "table" or not isinstance(entry.before, dict):
        return False
    if entry.action == AuditAction.DELETE:
        return not entry.before.get("hands")  # voided hands' entries are not kept whole
    return entry.action == AuditAction.VOID or (
        entry.action == AuditAction.UPDATE
        and ("seats" in entry.before or "move_hands" in entry.before))


def undone(entry: AuditEntry) -> bool:
    return AuditEntry.objects.filter(club_id=entry.club_id, object_type=entry.object_type,
                                     object_id=entry.object_id, after__undoes=entry.pk).exists()


def undo(entry: AuditEntry, *, user=None) -> AuditEntry:
    if not undoable(entry):
        raise Refused({"entry": ["This change cannot be put back here."]})
    with transaction.atomic():
        entry = AuditEntry.objects.select_for_update().get(pk=entry.pk)
        if undone(entry):
            raise Refused({"entry": ["This was undone already."]})
        if entry.object_type == "clubsession":
            note = _restore_session(entry.before)
        elif entry.action == AuditAction.DELETE:
            note = _restore_table(entry.before)
        elif entry.action == AuditAction.VOID:
            note = _restore_hands(entry)
        elif "move_hands" in entry.before:
            note = _restore_moved_hands(entry)
        else:
            note = _restore_seats(entry, user)
        return AuditEntry.objects.create(
            club_id=entry.club_id, user=user, action=AuditAction.RESTORE,
            object_type=entry.object_type, object_id=entry.object_id,
            after={"undoes": entry.pk}, note=note)


def _restore_session(kept: dict) -> str:
    if ClubSession.objects.filter(pk=kept["id"]).exists():
        raise Refused({"entry": ["That night exists already."]})
    club_id = AuditEntry.objects.filter(object_type="clubsession", object_id=str(kept["id"])
                                        ).values_list("club_id", flat=True).first()
    session = ClubSession(
        pk=kept["id"], club_id=club_id, date=kept["date"], season_id=kept["season"],
        house_rule_version_id=kept["house_rule_version"],
        goulash_rule_version_id=kept["goulash_rule_version"], notes=kept["notes"],
        status=kept["status"])
    session.save(force_insert=True)
    for table in kept["tables"]:
        _restore_table(table)
    return f"The night of {session.date} is back, with {len(kept['tables'])} empty table(s)."


def _restore_table(kept: dict) -> str:
    if Table.objects.filter(pk=kept["id"]).exists():
        raise Refused({"entry": ["That table exists already."]})
    if Table.objects.filter(session_id=kept["session"], number=kept["number"]).exists():
        raise Refused({"entry": [f"Table {kept['number']} of that night was started again "
                                 "since: delete it first to put this one back."]})
    members = [s["member"] for s in kept["seats"] if s["member"]]
    session = ClubSession.objects.filter(pk=kept["session"]).first()
    if session is None:
        raise Refused({"entry": ["That night no longer exists."]})
    if elsewhere := seated_elsewhere(session, members):
        names = dict(Member.objects.filter(pk__in=elsewhere).values_list("pk", "display_name"))
        raise Refused({"entry": [f"{names[m]} sits at table {n} that night now: a member has "
                                 "one seat a night." for m, n in elsewhere.items()]})
    table = Table(pk=kept["id"], session_id=kept["session"], number=kept["number"],
                  house_rule_version_id=kept["house_rule_version"])
    table.save(force_insert=True)
    Seat.objects.bulk_create(Seat(pk=s["id"], table=table, position=s["position"],
                                  member_id=s["member"], guest_name=s["guest_name"],
                                  starting_wind=s["starting_wind"]) for s in kept["seats"])
    return f"Table {table.number} is back, with its seats."


def _restore_hands(entry: AuditEntry) -> str:
    from clubs.recording.recompute import recompute_table

    table = Table.objects.select_for_update().filter(pk=entry.object_id).first()
    if table is None:
        raise Refused({"entry": ["That table no longer exists."]})
    count = Hand.objects.filter(pk__in=entry.before["hands"], table=table,
                                voided=True).update(voided=False)
    recompute_table(table)
    return f"Table {table.number}: {count} hand{'s' if count != 1 else ''} restored."


def _restore_seats(entry: AuditEntry, user) -> str:
    table = Table.objects.filter(pk=entry.object_id).first()
    if table is None:
        raise Refused({"entry": ["That table no longer exists."]})
    back = reseat_table(table, [{"position": s["position"], "member": s["member"],
                                 "guest_name": s["guest_name"],
                                 "starting_wind": s["starting_wind"]}
                                for s in entry.before["seats"]], user=user)
    return (back.note.replace("re-seated", "seated as before") if back else
            f"Table {table.number} was seated so already.")
