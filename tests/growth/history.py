"""A club's history built fast: one night recorded through ``clubs.recording`` as a scorer
records it, then copied with ``bulk_create`` into as many earlier nights as a test asks for
(sessions, tables, seats, hands, entries and the derived rows the pages read: hand results and
the league's night results). The copies are what the pages see of a long history; the real
night is the one the tests open."""

from __future__ import annotations

import datetime as dt

from clubs.models import (
    ClubSession,
    Hand,
    HandEntry,
    HandResult,
    Season,
    Seat,
    Table,
)
from clubs.recording import record_hand
from league import standings_store
from league.models import NightResult

NIGHTS_PER_SEASON = 50  # a club meeting weekly: one season a year


def record_night(session: ClubSession, members, user, hands: int = 4) -> None:
    """Two tables of four, ``hands`` hands each, entered as quick scores with the winner's
    tiles on every other hand."""
    from clubs.demo import contract_hand, load_examples

    examples = load_examples()
    for number, people in ((1, members[:4]), (2, members[4:8])):
        table = Table.objects.create(session=session, number=number)
        for position, (member, wind) in enumerate(zip(people, "ESWN", strict=True)):
            Seat.objects.create(table=table, member=member, position=position,
                                starting_wind=wind)
        for i in range(hands):
            winner = "ESWN"[i % 4]
            seats = {w: {"score": 4 * (j + 1)} for j, w in enumerate("ESWN")}
            if i % 2:
                full = contract_hand(examples[i % len(examples)])
                seats[winner] = {k: v for k, v in full.items()
                                 if k not in ("seat_wind", "prevailing_wind", "mahjong")}
            else:
                seats[winner] = {"score": 100 + 10 * i}
            record_hand(table, {"winner": winner, "win_from": "wall", "seats": seats}, user)


def _copy(obj, **changes):
    copy = type(obj)(**{f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
                        if not f.primary_key})
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def copy_nights(template: ClubSession, count: int, club=None,
                members: dict[int, int] | None = None) -> None:
    """``count`` copies of the night ``template`` before it, a week apart, in seasons of
    ``NIGHTS_PER_SEASON`` nights (one a year, made as needed). Into ``club`` when given
    (another club's history: ``members`` maps the template's member ids to that club's)."""
    club = club or template.club
    mapped = members or {}

    def member(old_id):
        return mapped.get(old_id, old_id) if old_id else None

    seasons: dict[int, Season] = {}
    dates = [template.date - dt.timedelta(weeks=k + 1) for k in range(count)]
    for year in sorted({d.year for d in dates}):
        found = Season.objects.filter(club=club, start__year=year).first()
        seasons[year] = found or Season.objects.create(
            club=club, name=f"{year}", start=dt.date(year, 1, 1), end=dt.date(year, 12, 31))
    sessions = ClubSession.objects.bulk_create(
        [_copy(template, club_id=club.pk, date=d, season_id=seasons[d.year].pk, status="closed")
         for d in dates])

    old_tables = list(Table.objects.filter(session=template).order_by("number"))
    tables = Table.objects.bulk_create(
        [_copy(t, session_id=s.pk) for s in sessions for t in old_tables])
    table_of = {(t.session_id, t.number): t for t in tables}

    old_seats = list(Seat.objects.filter(table__session=template).select_related("table"))
    new_seats = Seat.objects.bulk_create(
        [_copy(seat, table_id=table_of[(s.pk, seat.table.number)].pk,
               member_id=member(seat.member_id))
         for s in sessions for seat in old_seats])
    seat_map = {}  # (session id, old seat id) -> new seat id
    for i, seat in enumerate(new_seats):
        seat_map[(sessions[i // len(old_seats)].pk, old_seats[i % len(old_seats)].pk)] = seat.pk

    old_hands = list(Hand.objects.filter(table__session=template).select_related("table"))

    def seat(s, old_id):
        return seat_map[(s.pk, old_id)] if old_id else None

    def payments(s, computed):
        # The copy's payments between its own seats (who paid whom reads them by seat).
        if not computed:
            return computed
        return {**computed, "payments": [
            {**p, **{k: seat(s, p[k]) for k in ("payer", "payee") if p[k] != "pot"}}
            for p in computed.get("payments", ())]}

    new_hands = Hand.objects.bulk_create(
        [_copy(h, table_id=table_of[(s.pk, h.table.number)].pk, client_id=None,
               dealer_id=seat(s, h.dealer_id), winner_id=seat(s, h.winner_id),
               discarder_id=seat(s, h.discarder_id), computed=payments(s, h.computed))
         for s in sessions for h in old_hands])
    hand_map = {}
    for i, hand in enumerate(new_hands):
        hand_map[(sessions[i // len(old_hands)].pk, old_hands[i % len(old_hands)].pk)] = hand.pk

    entries = list(HandEntry.objects.filter(hand__table__session=template))
    HandEntry.objects.bulk_create(
        [_copy(e, hand_id=hand_map[(s.pk, e.hand_id)], seat_id=seat(s, e.seat_id))
         for s in sessions for e in entries], batch_size=2000)
    results = list(HandResult.objects.filter(session=template))
    HandResult.objects.bulk_create(
        [_copy(r, hand_id=hand_map[(s.pk, r.hand_id)], seat_id=seat(s, r.seat_id),
               session_id=s.pk, season_id=s.season_id, club_id=club.pk,
               member_id=member(r.member_id))
         for s in sessions for r in results], batch_size=2000)
    nights = list(NightResult.objects.filter(session=template))
    NightResult.objects.bulk_create(
        [_copy(n, seat_id=seat(s, n.seat_id), session_id=s.pk, season_id=s.season_id,
               date=s.date, table_id=table_of[(s.pk, n.table_number)].pk, club_id=club.pk,
               member_id=member(n.member_id),
               paid={str(seat(s, int(k))): v for k, v in n.paid.items()})
         for s in sessions for n in nights], batch_size=2000)
    # A bulk load bypasses the writes that keep the stored standings: rebuilt, as
    # ``manage.py refresh_league`` does after one.
    standings_store.rebuild([club.pk])


def copy_club(template: ClubSession, club, nights: int) -> None:
    """Another club's history of ``nights`` nights: the template night's members made again in
    ``club`` (same names), and the night copied into it as ``copy_nights`` does."""
    from clubs.models import Member

    people = list(Member.objects.filter(seats__table__session=template).distinct())
    made = Member.objects.bulk_create([Member(club=club, display_name=m.display_name)
                                       for m in people])
    copy_nights(template, nights, club=club,
                members={old.pk: new.pk for old, new in zip(people, made, strict=True)})
