"""What the door page and the API show of a night: who is here, the host's rules, the draw
with its quality in names, the tables it made. A few queries, whatever the season's length
(the draw's quality was judged and stored when it was drawn)."""

from __future__ import annotations

from clubs.models import Member, Table, Wind
from door.draw import Draw, Quality
from door.models import CheckIn, DrawRule, TableDraw

WIND_NAMES = dict(Wind.choices)


def door_state(session) -> dict:
    rows = list(CheckIn.objects.filter(session=session).select_related("member"))
    here = [c for c in rows if c.left is None]
    ticked = {c.member_id for c in here if c.member_id}
    members = [(m, m.pk in ticked) for m in
               Member.objects.filter(club_id=session.club_id, active=True)
               .order_by("display_name")]
    by_pk = {c.pk: c for c in rows}
    draw = TableDraw.objects.filter(session=session).first()
    state = {
        "members": members,
        "here": here,
        "gone": [c for c in rows if c.left is not None],
        "guests": [c for c in here if not c.member_id],
        "rules": list(DrawRule.objects.filter(session=session)
                      .select_related("first__member", "second__member")),
        "draw": draw,
        "draw_tables": [],
        "draw_people": [],
        "quality": None,
        "stale": False,
        "played": False,
        "tables": [],
    }
    if draw is None:
        return state
    names = {key: by_pk[pk].name for key, pk in draw.players.items() if pk in by_pk}
    # Anyone the draw names without a check-in of theirs (its quality's pairs after a re-seat
    # moved one of them away): by the check-in they have now, if any.
    known = {**{c.key: c.name for c in rows}, **names}
    drawn = Draw.from_json(draw.drawn)
    for table in drawn.tables:
        state["draw_tables"].append({
            "number": table.number,
            "seats": [{"wind": WIND_NAMES.get(wind, "Out first hand"), "letter": wind,
                       "name": known.get(key, "?"), "pk": draw.players.get(key),
                       "newcomer": by_pk[draw.players[key]].newcomer
                       if draw.players.get(key) in by_pk else False}
                      for key, wind in table.seated()],
        })
    state["draw_people"] = sorted(((draw.players[k], n) for k, n in names.items()),
                                  key=lambda p: p[1].casefold())
    quality = Quality.from_json(draw.quality)
    state["quality"] = quality
    state["repeats"] = [(known.get(r.a, "?"), known.get(r.b, "?"), r.times)
                        for r in quality.repeats]
    state["stale"] = {c.pk for c in here} != set(draw.players.values())
    # The page then says how to seat a late arrival instead of offering a redraw it refuses.
    state["played"] = draw.is_accepted and draw.play_started()
    if draw.is_accepted:
        state["tables"] = list(Table.objects.filter(pk__in=draw.tables).order_by("number")
                               .prefetch_related("seats__member"))
    return state
