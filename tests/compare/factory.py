"""Recorded club nights made in bulk from the demo table's twelve hands (tiles and agreed
scores, wall games, goulash hands), for the background tests and bench/bench_compare.py.
Rows are inserted as entered; nothing is scored here (a comparison replays what was entered)."""

from __future__ import annotations

import datetime as dt

from clubs.models import ClubSession, Hand, HandEntry, Member, Season, Seat, Table


def make_nights(club, nights: int, tables: int, hands: int, void_every: int = 40,
                season_name: str = "Generated season") -> Season:
    """A season of ``nights`` x ``tables`` x ``hands`` under the demo night's rules; members
    move between tables from night to night; every ``void_every``-th hand is voided."""
    demo_session = ClubSession.objects.filter(club=club).order_by("pk").first()
    demo_table = Table.objects.filter(session=demo_session).first()
    template = list(Hand.objects.filter(table=demo_table).order_by("number"))
    entries = {}
    for e in HandEntry.objects.filter(hand__table=demo_table).select_related("seat"):
        entries.setdefault(e.hand_id, []).append(e)
    position = {s.pk: s.position for s in Seat.objects.filter(table=demo_table)}
    members = list(Member.objects.filter(club=club).order_by("pk"))
    season = Season.objects.create(club=club, name=season_name, start=dt.date(2030, 1, 1))
    count = 0
    for night in range(nights):
        session = ClubSession.objects.create(
            club=club, season=season, date=dt.date(2030, 1, 1) + dt.timedelta(days=night),
            house_rule_version=demo_session.house_rule_version,
            goulash_rule_version=demo_session.goulash_rule_version)
        for t in range(tables):
            table = Table.objects.create(session=session, number=t + 1)
            seats = Seat.objects.bulk_create(
                Seat(table=table, position=p, starting_wind="ESWN"[p],
                     member=members[(night + t * 4 + p) % len(members)]) for p in range(4))
            by_position = {s.position: s for s in seats}

            def seat_of(old_id, by_position=by_position):
                return by_position[position[old_id]] if old_id else None

            made = Hand.objects.bulk_create(
                Hand(table=table, number=n + 1, prevailing_wind=h.prevailing_wind,
                     dealer=seat_of(h.dealer_id), winner=seat_of(h.winner_id),
                     discarder=seat_of(h.discarder_id), draw=h.draw, goulash=h.goulash,
                     win_source=h.win_source, facts=h.facts,
                     voided=void_every > 0 and (count + n + 1) % void_every == 0)
                for n, h in ((n, template[n % len(template)]) for n in range(hands)))
            HandEntry.objects.bulk_create(
                HandEntry(hand=new, seat=seat_of(e.seat_id), seat_wind=e.seat_wind,
                          kind=e.kind, data=e.data)
                for n, new in enumerate(made) for e in entries[template[n % len(template)].pk])
            count += hands
    return season
