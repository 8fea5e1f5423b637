"""Adding a member and changing one (name, role, active), audited and undoable: the one path
the members page and the API take, so both refuse the same things in the same words.

A member who has played is never deleted: setting them inactive keeps every hand, night and
standing (and their name on the score sheets); they leave the lists a scorer picks from.
"""

from __future__ import annotations

from django.db import transaction

from clubs.members.merge import MoveRefused
from clubs.models import AuditAction, AuditEntry, Club, Member, MemberRole

OBJECT_TYPE = "member"
FIELDS = ("display_name", "role", "active")
NAME_MAX = Member._meta.get_field("display_name").max_length


def plain_name(name: str, missing: str = "Type the member's name.") -> str:
    """A person's name tidied as every name is (spaces collapsed, no control characters, at
    most ``NAME_MAX`` characters), or ``MoveRefused`` on ``display_name`` saying what to type;
    whether a club already has it is ``clean_name``'s question."""
    name = " ".join((name or "").split())
    if not name:
        raise MoveRefused({"display_name": [missing]})
    if len(name) > NAME_MAX:
        raise MoveRefused({"display_name": [
            f"A name has at most {NAME_MAX} characters (this has {len(name)})."]})
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name):
        raise MoveRefused({"display_name": ["A name cannot hold control characters."]})
    return name


def clean_name(club: Club, name: str, member: Member | None = None) -> str:
    """The name as stored, or ``MoveRefused`` on ``display_name`` saying what to type."""
    name = plain_name(name)
    taken = Member.objects.filter(club=club, display_name__iexact=name)
    if member is not None:
        taken = taken.exclude(pk=member.pk)
    if taken.exists():
        raise MoveRefused({"display_name": [
            f"{club.name} already has a member called {taken.first().display_name!r}: add an "
            "initial to tell them apart, or merge them if they are one person."]})
    return name


def _fields(member: Member) -> dict:
    return {"display_name": member.display_name, "role": member.role, "active": member.active}


def add_member(club: Club, name: str, role: str = MemberRole.MEMBER, *, user=None) -> Member:
    name = clean_name(club, name)
    if role not in MemberRole.values:
        raise MoveRefused({"role": [f"A role is one of {', '.join(MemberRole.values)}."]})
    with transaction.atomic():
        member = Member.objects.create(club=club, display_name=name, role=role)
        AuditEntry.objects.create(club=club, user=user, action=AuditAction.CREATE,
                                  object_type=OBJECT_TYPE, object_id=str(member.pk),
                                  after=_fields(member), note=f"{name} added as {role}.")
    return member


def would_leave_no_admin(member: Member, role: str, active: bool) -> bool:
    if member.role != MemberRole.ADMIN or not member.active or not member.user_id:
        return False
    if role == MemberRole.ADMIN and active:
        return False
    return not Member.objects.filter(club_id=member.club_id, role=MemberRole.ADMIN, active=True,
                                     user__isnull=False).exclude(pk=member.pk).exists()


def change_member(member: Member, *, user=None, note: str = "", **changes) -> AuditEntry | None:
    """Rename, change the role of, deactivate or reactivate a member. Refused (``MoveRefused``)
    when the name is taken or the club would be left without an active admin who can log in.
    Returns the audit entry, or None when nothing changed."""
    unknown = set(changes) - set(FIELDS)
    if unknown:
        raise ValueError(f"Not a member field to change: {sorted(unknown)}")
    with transaction.atomic():
        member = Member.objects.select_for_update().get(pk=member.pk)
        before = _fields(member)
        if "display_name" in changes:
            changes["display_name"] = clean_name(member.club, changes["display_name"], member)
        if "role" in changes and changes["role"] not in MemberRole.values:
            raise MoveRefused({"role": [f"A role is one of {', '.join(MemberRole.values)}."]})
        after = {**before, **changes}
        if after == before:
            return None
        if would_leave_no_admin(member, after["role"], after["active"]):
            raise MoveRefused({"role" if after["role"] != MemberRole.ADMIN else "active": [
                f"{member.display_name} is the club's only admin who can log in: make "
                "another member admin first, so someone can still run the club."]})
        for name, value in changes.items():
            setattr(member, name, value)
        member.save(update_fields=list(changes))
        # A rename is this one row: pages read names at the time they show them
        # (clubs.table_state.named_now), so no night's stored state is written again.
        return AuditEntry.objects.create(
            club_id=member.club_id, user=user, action=AuditAction.UPDATE,
            object_type=OBJECT_TYPE, object_id=str(member.pk),
            before={k: before[k] for k in changes}, after={k: after[k] for k in changes},
            note=note or describe(before, after))


def describe(before: dict, after: dict) -> str:
    said = []
    if before.get("display_name") != after.get("display_name"):
        said.append(f"{before['display_name']} renamed {after['display_name']}")
    name = after.get("display_name") or before.get("display_name")
    if before.get("role") != after.get("role"):
        said.append(f"{name} is now {MemberRole(after['role']).label.lower()}")
    if before.get("active") != after.get("active"):
        said.append(f"{name} " + ("is active again" if after["active"] else
                                  "set inactive (their hands and nights are kept)"))
    return "; ".join(said) + "."


def change_undoable(entry: AuditEntry) -> bool:
    return (entry.object_type == OBJECT_TYPE and entry.action == AuditAction.UPDATE
            and isinstance(entry.before, dict) and "move" not in entry.before
            and bool(set(entry.before) & set(FIELDS)))


def undo_change(entry: AuditEntry, *, user=None) -> AuditEntry | None:
    """Put a member's name, role and active back as they were before ``entry``."""
    if not change_undoable(entry):
        raise MoveRefused({"entry": ["Only a change of a member's name, role or active can be "
                                     "put back here."]})
    member = Member.objects.filter(pk=entry.object_id, club_id=entry.club_id).first()
    if member is None:
        raise MoveRefused({"entry": ["That member is no longer in the club (merged into "
                                     "another): undo the merge first."]})
    back = {k: v for k, v in entry.before.items() if k in FIELDS}
    return change_member(member, user=user, note="Undone: " + describe(
        {**_fields(member)}, {**_fields(member), **back}).rstrip("."), **back)
