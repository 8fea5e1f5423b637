"""Check-ins follow the seats when a club gives a player's nights to another player (a guest
made a member, two members merged, either undone: ``clubs.signals.players_moved``), so the
night's takings and the season's draw history name the same person as the score sheets.

The draws follow too (``_follow_in_draws``), in the move's transaction: a draw that named the
player by their old key (``g:<guest>`` or ``m<duplicate>``) on a night the move gave away names
them by the new one, in its tables, its players and its quality's pairs, so a swap, a re-seat
and the door page read it as the check-ins say. A draw of a night still open that names either
player is judged again (``door.drawing.judged_again``): the season it was judged on has changed
(the member's nights, as guest or as the duplicate, are one player's now). A closed night's
figures stay as the host was shown them, with the keys renamed.
"""

from __future__ import annotations

import operator
from functools import reduce

from django.db.models import Q
from django.db.models.functions import Lower
from django.dispatch import receiver

from clubs.members.merge import MoveRefused
from clubs.models import ClubSession, SessionStatus
from clubs.signals import players_moved
from door.drawing import judged_again
from door.models import CheckIn, TableDraw, player_key


def _of(session_ids, member, guest: str):
    rows = CheckIn.objects.filter(session_id__in=list(session_ids))
    if member is not None:
        return rows.filter(member=member)
    return rows.filter(member__isnull=True).annotate(folded=Lower("guest_name")).filter(
        folded=guest.strip().lower())


@receiver(players_moved, dispatch_uid="door-players-moved")
def move_check_ins(sender, session_ids, club=None, from_member=None, from_guest="",
                   to_member=None, to_guest="", everything=False, **kwargs):
    if everything and from_member is not None:
        moving = CheckIn.objects.filter(member=from_member)
    else:
        moving = _of(session_ids, from_member, from_guest)
    moving = list(moving)
    nights = {c.session_id for c in moving}
    if nights:
        there = _of(nights, to_member, to_guest).select_related("session").first()
        if there is not None:
            who = to_member.display_name if to_member is not None else to_guest
            raise MoveRefused({"member": [
                f"{who} is already checked in on {there.session.date.day} {there.session.date:%B %Y}: check one of them "
                "out at the door first."]})
        CheckIn.objects.filter(pk__in=[c.pk for c in moving]).update(
            member=to_member, guest_name="" if to_member is not None else to_guest)
    old = {player_key(getattr(from_member, "pk", None), from_guest)} | {c.key for c in moving}
    new = player_key(getattr(to_member, "pk", None), to_guest)
    club_id = club.pk if club is not None else None
    _follow_in_draws(club_id, set(session_ids) | nights, old - {new}, new,
                     everything=everything and from_member is not None)


def _renamed(draw: TableDraw, old: set[str], new: str) -> bool:
    """Rename the keys ``old`` to ``new`` in the draw (its tables, players and quality's
    pairs); whether it named any."""
    tables = draw.drawn.get("tables", [])
    repeats = (draw.quality or {}).get("repeats", [])
    named = ({key for seats in tables for key in seats} | set(draw.players)
             | {key for r in repeats for key in r[:2]})
    if not old & named:
        return False
    draw.drawn = {**draw.drawn, "tables": [[new if k in old else k for k in seats]
                                            for seats in tables]}
    players = {}
    for key, pk in draw.players.items():
        players.setdefault(new if key in old else key, pk)
    draw.players = players
    pairs = [sorted((new if a in old else a, new if b in old else b)) + [times]
             for a, b, times in repeats]
    draw.quality = {**draw.quality, "repeats": sorted(pairs, key=lambda r: (-r[2], r[0], r[1]))}
    return True


def _follow_in_draws(club_id, nights: set[int], old: set[str], new: str, *,
                     everything: bool) -> None:
    """The draws of ``nights`` (with ``everything``, any of the club's naming the player) name
    ``new`` for ``old``; the club's open nights' draws naming either are judged again."""
    if not old:
        return
    which = Q(session_id__in=nights)
    if club_id is not None:
        which |= Q(session__club_id=club_id, session__status=SessionStatus.OPEN)
        if everything:  # the duplicate's draws on nights their check-in was gone from
            which |= Q(session__club_id=club_id) & reduce(
                operator.or_, (Q(players__has_key=key) for key in sorted(old)))
    # The draws' rows only (a join locks nothing else), in one order (two moves at once).
    draws = list(TableDraw.objects.select_for_update(of=("self",)).filter(which)
                 .order_by("pk"))
    sessions = ClubSession.objects.in_bulk([d.session_id for d in draws])
    for draw in draws:
        renamed = (draw.session_id in nights or everything) and _renamed(draw, old, new)
        session = sessions[draw.session_id]
        drawn = {key for seats in draw.drawn.get("tables", []) for key in seats}
        again = session.status == SessionStatus.OPEN and bool((old | {new}) & drawn)
        if again:
            draw.quality = judged_again(session, draw)
        if renamed or again:
            draw.save(update_fields=["drawn", "players", "quality", "updated"])
