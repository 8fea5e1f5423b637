"""Nights recorded through the recording service (``clubs.recording``), so every hand's figures
are the stored ones the sheets read: quick hands won from the wall and on discards, kongs and
flowers, a penalty, wall games (and the goulash and pot or kitty that follow them under some
house rules), a corrected hand and a voided one."""

from __future__ import annotations

import datetime as dt

from clubs.models import ClubSession, Hand, Seat, Table
from clubs.recording import HandInputError, correct_hand, record_hand, void_hand
from clubs.table_state import stored_table_state
from scoring.engine import get_house_rule

NAMES = ("Alice", "Bob", "Carol", "David", "Erin")


def make_table(session: ClubSession, number: int, players: int, names=NAMES) -> Table:
    table = Table.objects.create(session=session, number=number)
    winds = "ESWN"[:min(players, 4)]
    for position in range(players):
        Seat.objects.create(table=table, guest_name=f"{names[position]} {number}",
                            position=position,
                            starting_wind=winds[position] if position < len(winds) else "")
    return table


def _winds(table: Table) -> tuple[str, ...]:
    table = Table.objects.select_related("session").get(pk=table.pk)
    return stored_table_state(table).next.seating.winds_in_play


def _entries(n: int, winds: tuple[str, ...]):
    """What the scorer might type for hand ``n``, best first (a house rule that refuses the
    first, e.g. a loser's score where only the winner scores, gets the next)."""
    if n % 7 == 4:
        yield {"draw": True, "seats": {w: {"score": 0} for w in winds}}
        return
    winner = winds[n % len(winds)]
    others = [w for w in winds if w != winner]
    discarder = others[n % len(others)] if n % 2 else None
    base = {"winner": winner, "discarder": discarder,
            "win_from": "discard" if discarder else "wall"}
    rich = {w: {"score": 8 * (i + 1) + 2 * n} for i, w in enumerate(others)}
    rich[winner] = {"score": 40 + 12 * n, "kongs": ["concealed"] if n % 3 == 0 else [],
                    "bonus": ["f1"] if n % 5 == 0 else []}
    if n % 7 == 2:
        yield {**base, "seats": rich,
               "facts": {"penalties": [{"kind": "false_naming", "offender": others[0]}]}}
    yield {**base, "seats": rich}
    yield {**base, "seats": {**{w: {"score": 0} for w in others}, winner: {"score": 40 + 12 * n}}}


def record_night(table: Table, user, hands: int = 14, corrections: bool = True) -> Table:
    for n in range(hands):
        winds = _winds(table)
        for entry in _entries(n, winds):
            try:
                record_hand(table, entry, user)
                break
            except HandInputError:
                continue
        else:
            raise AssertionError(f"no entry recorded for hand {n + 1} under {table.session}")
    if corrections and hands >= 6:
        second = Hand.objects.get(table=table, number=2)
        winner = second.computed["seating"]["winds"][str(second.winner_id)] if second.winner_id \
            else None
        if winner:
            try:
                correct_hand(second, {"seats": {winner: {"score": 500}}}, user)
            except HandInputError:
                pass
        void_hand(Hand.objects.get(table=table, number=3), user, "misdeal: 14 tiles dealt")
    return Table.objects.get(pk=table.pk)


def generated_session(club, versions, slug: str, user, tables: int = 1, hands: int = 14,
                      date=dt.date(2026, 11, 21)) -> ClubSession:
    """A night under the built-in house rule ``slug`` at ``tables`` tables."""
    session = ClubSession(club=club, date=date, house_rule_version=versions[slug])
    session.full_clean()  # freezes the goulash rule the house rule names, as every form does
    session.save()
    players = get_house_rule(slug).scoring.players
    for number in range(1, tables + 1):
        record_night(make_table(session, number, players), user, hands)
    return ClubSession.objects.select_related("club", "house_rule_version__record").get(
        pk=session.pk)
