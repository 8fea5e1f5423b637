"""Check-ins follow a re-seat (``clubs.signals.table_reseated``): when a table's seats are
corrected (a wrong member picked, a guest typed for a member, and the undo of either), the
door's check-in of the player who no longer sits there becomes the check-in of the player who
does, so the night's takings, who is here and the season's draw history agree with the score
sheets.

Only players who left the table and players who came to it count: a swap of seats between two
players at the table moves no check-in. A player who left is paired, in seat order, with a
player who came and has no check-in of their own that night (the door checked in the wrong
person for that seat: what they paid goes with it). A newcomer already checked in keeps their
own, and the other check-in stays (someone came who did not play); a night the door was not
used for has no check-ins, and nothing happens.

An accepted draw follows too (``_follow_in_the_draw``): the drawn table the re-seat changed
names whoever sits there now, in wind order, each under their own check-in, so the door page
and the API show the tables as they are (moving a player between tables takes a re-seat of
each), and its quality ("How well it mixes") is judged again from that seating. It is written
in the re-seat's transaction, the draw's row locked. A draw proposed since
(a redraw or a swap not yet accepted) is left alone: accepting it seats the tables anew.
"""

from __future__ import annotations

from django.db.models.functions import Lower
from django.dispatch import receiver

from clubs.models import Table
from clubs.signals import table_reseated
from door.draw.model import WINDS
from door.drawing import judged_again
from door.models import CheckIn, TableDraw, player_key

_WIND_ORDER = {wind: i for i, wind in enumerate(WINDS)}  # "" (out the first hand) last


def _key(member_id: int | None, guest: str) -> tuple:
    return (member_id, "") if member_id else (None, guest.strip().casefold())


def _check_in(session_id: int, key: tuple) -> CheckIn | None:
    rows = CheckIn.objects.filter(session_id=session_id)
    if key[0]:
        return rows.filter(member_id=key[0]).first()
    return rows.filter(member__isnull=True).annotate(folded=Lower("guest_name")).filter(
        folded=key[1]).first()


@receiver(table_reseated, sender=Table, dispatch_uid="door-table-reseated")
def follow_reseat(sender, table, before, after, **kwargs):
    if not CheckIn.objects.filter(session_id=table.session_id).exists():
        return  # the door was not used that night
    _follow_with_check_ins(table, before, after)
    _follow_in_the_draw(table)


def _follow_with_check_ins(table, before, after) -> None:
    was = [_key(*who) for who in before]
    now = [_key(*who) for who in after]
    names = {_key(*who): who[1] for who in after}
    left = [k for k in was if k not in now]
    came = [k for k in now if k not in was]
    leaving = [c for c in (_check_in(table.session_id, k) for k in left) if c is not None]
    arriving = [k for k in came if _check_in(table.session_id, k) is None]
    for check_in, key in zip(leaving, arriving, strict=False):
        check_in.member_id = key[0]
        check_in.guest_name = "" if key[0] else " ".join(names[key].split())
        check_in.save(update_fields=["member", "guest_name"])


def _follow_in_the_draw(table) -> None:
    """The accepted draw's table ``table`` seats whoever sits there now (after the check-ins
    followed), every drawn player is named under their own check-in, and the quality is that
    of the seating now."""
    draw = TableDraw.objects.select_for_update().filter(session_id=table.session_id).first()
    if draw is None or not draw.is_accepted or table.pk not in draw.tables:
        return
    seats = sorted(table.seats.values_list("starting_wind", "position", "member_id",
                                           "guest_name"),
                   key=lambda s: (_WIND_ORDER.get(s[0], len(_WIND_ORDER)), s[1]))
    tables = [list(seats_of) for seats_of in draw.drawn["tables"]]
    tables[draw.tables.index(table.pk)] = [player_key(m, g) for _w, _p, m, g in seats]
    rows = {c.key: c.pk for c in CheckIn.objects.filter(session_id=table.session_id)}
    draw.drawn = {**draw.drawn, "tables": tables}
    draw.players = {key: rows[key] for seats_of in tables for key in seats_of if key in rows}
    draw.quality = judged_again(table.session, draw)
    draw.save(update_fields=["drawn", "players", "quality", "updated"])
