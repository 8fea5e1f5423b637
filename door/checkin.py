"""Checking people in and out at the door, and the night's takings. Each write is one short
transaction; doing the same thing twice (a double tap) changes nothing the second time."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import Lower
from django.utils import timezone

from clubs.models import ClubSession, Member, SessionStatus
from door.models import CheckIn
from door.variations import settings_of


class DoorError(ValueError):
    """What the host asked cannot be done: ``errors`` by field, in DRF's shape."""

    def __init__(self, errors: dict[str, list[str]]):
        super().__init__(errors)
        self.errors = errors

    @property
    def message(self) -> str:
        return " ".join(m for msgs in self.errors.values() for m in msgs)


NAME_MAX = 80  # CheckIn.guest_name and Seat.guest_name


def clean_name(text: str) -> str:
    """A guest's name as typed, made safe to store and print: spaces collapsed, control
    characters (a NUL, a newline) refused, at most 80 characters."""
    name = " ".join(text.split())
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise DoorError({"guest_name": ["A name cannot hold control characters: type it again."]})
    if len(name) > NAME_MAX:
        raise DoorError({"guest_name": [f"A name has at most {NAME_MAX} characters (this has "
                                        f"{len(name)}): shorten it."]})
    return name


def _open(session: ClubSession) -> None:
    if not session.is_open:
        raise DoorError({"session": ["This session is closed: reopen it to check people in."]})


def present(session: ClubSession):
    """Everyone checked in and not gone home, in the order they came."""
    return (CheckIn.objects.filter(session=session, left__isnull=True)
            .select_related("member").order_by("arrived", "pk"))


def set_members(session: ClubSession, member_ids: set[int]) -> tuple[int, int]:
    """Make the members checked in tonight exactly ``member_ids`` (the door page's ticks):
    new ticks check in, cleared ticks go home. Guests are left alone. (added, removed)."""
    _open(session)
    wanted = set(Member.objects.filter(club_id=session.club_id, active=True, pk__in=member_ids)
                 .values_list("pk", flat=True))
    if len(wanted) != len(set(member_ids)):
        raise DoorError({"members": ["Tick only active members of this club."]})
    added = removed = 0
    with transaction.atomic():
        rows = {c.member_id: c for c in CheckIn.objects.select_for_update()
                .filter(session=session, member__isnull=False)}
        for member_id in wanted:
            row = rows.get(member_id)
            if row is None:
                _create(session, member_id=member_id)
                added += 1
            elif row.left is not None:
                row.left = None
                row.save(update_fields=["left"])
                added += 1
        for member_id, row in rows.items():
            if member_id not in wanted and row.left is None:
                row.left = timezone.now()
                row.save(update_fields=["left"])
                removed += 1
    return added, removed


def check_in_member(session: ClubSession, member: Member) -> CheckIn:
    _open(session)
    if member.club_id != session.club_id or not member.active:
        raise DoorError({"member": ["Not an active member of this club: add them as a guest."]})
    with transaction.atomic():
        row = CheckIn.objects.select_for_update().filter(session=session, member=member).first()
        if row is None:
            return _create(session, member_id=member.pk)
        if row.left is not None:
            row.left = None
            row.save(update_fields=["left"])
        return row


def check_in_guest(session: ClubSession, name: str, newcomer: bool = False) -> CheckIn:
    _open(session)
    name = clean_name(name or "")
    if not name:
        raise DoorError({"guest_name": ["Type the guest's name."]})
    if Member.objects.filter(club_id=session.club_id,
                             display_name__iexact=name).exists():
        raise DoorError({"guest_name": [
            f"{name} is a member's name: tick them in the members' list, or add an initial "
            "to tell the guest apart."]})
    with transaction.atomic():
        row = (CheckIn.objects.select_for_update()
               .annotate(folded=Lower("guest_name"))
               .filter(session=session, member__isnull=True, folded=name.lower()).first())
        if row is not None:
            if row.left is not None:
                row.left = None
                row.save(update_fields=["left"])
            return row
        return _create(session, guest_name=name, newcomer=newcomer)


def apply_table_money(club, amount: Decimal) -> int:
    """The club's new table money asked of everyone checked in to its open nights who has not
    paid yet (money set after the door opened applies to those already in: their Paid button);
    what someone paid stays as paid. One UPDATE, so a Paid tap meanwhile is either before it
    (kept) or after it (paid at the new amount). Returns how many it now applies to."""
    return (CheckIn.objects
            .filter(session__club=club, session__status=SessionStatus.OPEN, paid=False)
            .exclude(money_due=amount)
            .update(money_due=amount))


def _create(session: ClubSession, **fields) -> CheckIn:
    due = settings_of(session.club).table_money
    try:
        with transaction.atomic():
            return CheckIn.objects.create(session=session, money_due=due, **fields)
    except IntegrityError:
        # Someone else checked them in a moment ago: that row is the answer.
        found = CheckIn.objects.filter(session=session, **{
            k: v for k, v in fields.items() if k in ("member_id",)}).first()
        if found is None:
            raise DoorError({"guest_name": ["A guest of that name is already checked in: add "
                                            "an initial."]}) from None
        return found


def update(row: CheckIn, *, left: bool | None = None, paid: bool | None = None,
           newcomer: bool | None = None) -> CheckIn:
    _open(row.session)
    fields = []
    if left is not None and (row.left is not None) != left:
        row.left = timezone.now() if left else None
        fields.append("left")
    if paid is not None and row.paid != paid:
        row.paid = paid
        fields.append("paid")
    if newcomer is not None and row.newcomer != newcomer:
        row.newcomer = newcomer
        fields.append("newcomer")
    if fields:
        row.save(update_fields=fields)
    return row


@dataclass(frozen=True)
class Takings:
    players: int  # everyone who came tonight, gone home or not
    paid: Decimal
    owed: Decimal
    paid_count: int
    owed_count: int
    currency: str

    @property
    def any(self) -> bool:
        return bool(self.paid or self.owed)


def takings(session: ClubSession) -> Takings:
    """The night's table money: paid and still owed (one query)."""
    money = CheckIn.objects.filter(session=session).aggregate(
        players=Count("pk"),
        taken=Sum("money_due", filter=Q(paid=True)),
        owing=Sum("money_due", filter=Q(paid=False)),
        taken_from=Count("pk", filter=Q(paid=True, money_due__gt=0)),
        owed_by=Count("pk", filter=Q(paid=False, money_due__gt=0)),
    )
    return Takings(money["players"], money["taken"] or Decimal("0"),
                   money["owing"] or Decimal("0"), money["taken_from"], money["owed_by"],
                   settings_of(session.club).currency)
