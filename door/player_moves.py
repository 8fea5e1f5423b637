"""Check-ins follow the seats when a club gives a player's nights to another player (a guest
made a member, two members merged, either undone: ``clubs.signals.players_moved``), so the
night's takings and the season's draw history name the same person as the score sheets."""

from __future__ import annotations

from django.db.models.functions import Lower
from django.dispatch import receiver

from clubs.members.merge import MoveRefused
from clubs.signals import players_moved
from door.models import CheckIn


def _of(session_ids, member, guest: str):
    rows = CheckIn.objects.filter(session_id__in=list(session_ids))
    if member is not None:
        return rows.filter(member=member)
    return rows.filter(member__isnull=True).annotate(folded=Lower("guest_name")).filter(
        folded=guest.strip().lower())


@receiver(players_moved, dispatch_uid="door-players-moved")
def move_check_ins(sender, session_ids, from_member=None, from_guest="", to_member=None,
                   to_guest="", everything=False, **kwargs):
    if everything and from_member is not None:
        moving = CheckIn.objects.filter(member=from_member)
    else:
        moving = _of(session_ids, from_member, from_guest)
    nights = set(moving.values_list("session_id", flat=True))
    if not nights:
        return
    there = _of(nights, to_member, to_guest).select_related("session").first()
    if there is not None:
        who = to_member.display_name if to_member is not None else to_guest
        raise MoveRefused({"member": [
            f"{who} is already checked in on {there.session.date.day} {there.session.date:%B %Y}: check one of them "
            "out at the door first."]})
    CheckIn.objects.filter(pk__in=list(moving.values_list("pk", flat=True))).update(
        member=to_member, guest_name="" if to_member is not None else to_guest)
