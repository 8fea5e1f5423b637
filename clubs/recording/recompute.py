"""Rebuilding a table's derived results from what was entered."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from clubs.models import Hand, HandEntry, HandResult, Table
from clubs.signals import table_recomputed
from clubs.table_state import recorded_hands, rules_of, seats_of
from play import HandRow, RecordedHand, TableState, replay
from play.sequence import KEPT, facts_rewound

# -- recomputing ----------------------------------------------------------------------------


def recompute_table(table: Table, from_number: int | None = None,
                    reseat_after: int | None = None, with_moves: bool = False):
    """Rebuild the table's derived results from what was entered: ``Table.state``, each
    hand's ``Hand.computed`` and the ``HandResult`` rows, then tell the feature apps
    (``clubs.signals.table_recomputed``), all in one transaction.

    The whole night is replayed (each hand's seating and pot come from the hands before it).
    Given ``from_number`` (a correction of that hand), only hands from there on whose figures
    moved are written; without it every hand's results are written again. Idempotent. Hands the engines now refuse (a house rule fixed after the night) keep no
    results and carry their ``error``.

    With ``reseat_after`` (a hand whose correction or void may change who deals), the later
    hands are seated again as the house rule's rotation now says (``play.replay``), unless
    marked as played on as recorded, and their stored seating is rewritten: each entry's wind,
    the hand's wind of the round and dealer, and the winds its facts name; a hand entered by
    other players than the rotation now seats is marked ``KEPT`` (``state.unseated``). Returns
    the state and, with ``with_moves``, the seatings that moved (``SeatingMove``s)."""
    with transaction.atomic():
        old = Table.objects.select_for_update().values_list("state", flat=True).get(pk=table.pk)
        rev = (old or {}).get("rev", 0) + 1
        session = table.session
        hands = recorded_hands([table.pk])[table.pk]
        state = replay(seats_of(table), hands, rules_of(session, table), table_id=table.pk,
                       reseat_after=reseat_after)
        moved = _store_seatings(hands, state) if reseat_after is not None else []
        members = {s.id: s.member_id for s in state.seats}
        if from_number is None:
            changed = list(state.hands)
        else:
            stored = dict(Hand.objects.filter(table=table, number__gte=from_number)
                          .values_list("id", "computed"))
            changed = [row for row in state.hands
                       if row.number >= from_number and stored.get(row.id) != row.to_json()]
        Hand.objects.bulk_update(
            [Hand(pk=row.id, computed=row.to_json()) for row in changed], ["computed"],
            batch_size=200)
        HandResult.objects.filter(hand_id__in=[row.id for row in changed]).delete()
        HandResult.objects.bulk_create([
            HandResult(hand_id=row.id, club_id=session.club_id, season_id=session.season_id,
                       session_id=session.pk, **fields)
            for row in changed if row.counted
            for fields in _row_result_fields(row, members)
        ])
        Table.objects.filter(pk=table.pk).update(state=state.snapshot(rev))
        table.state = state.snapshot(rev)
        table_recomputed.send(sender=Table, table=table, from_number=from_number or 1,
                              appended=None)
    return (state, moved) if with_moves else state


def _store_seatings(hands: list[RecordedHand], state: TableState) -> list[SeatingMove]:
    """Write the seatings a re-seating replay moved: each hand's wind of the round, dealer and
    facts in one statement, the entries' winds in two (a wind is unique within a hand and
    PostgreSQL checks that row by row, so the entries that move step aside first)."""
    rows = {row.id: row for row in state.hands}
    names = {s.id: s.name for s in state.seats}
    moves, changed_hands, entry_winds = [], [], {}
    for hand in hands:
        if hand.number in state.unseated:
            changed_hands.append(Hand(pk=hand.id, prevailing_wind=hand.prevailing_wind,
                                      dealer_id=hand.dealer, facts={**hand.facts, KEPT: True}))
            continue
        new = rows[hand.id].seating
        winds = {s: e["wind"] for s, e in hand.entries.items()}
        dealer = hand.dealer if hand.dealer is not None else next(
            (s for s, w in winds.items() if w == "E"), None)
        if winds == new.winds and hand.prevailing_wind == new.prevailing_wind \
                and dealer == new.dealer_seat:
            continue
        moves.append(SeatingMove.of(hand.number, names, winds, hand.prevailing_wind, dealer,
                                    new))
        changed_hands.append(Hand(pk=hand.id, prevailing_wind=new.prevailing_wind,
                                  dealer_id=new.dealer_seat,
                                  facts=facts_rewound(hand.facts, {
                                      winds[s]: new.winds[s] for s in winds})))
        for seat_id, wind in new.winds.items():
            if winds.get(seat_id) != wind:
                entry_winds[(hand.id, seat_id)] = wind
    if not changed_hands:
        return []
    Hand.objects.bulk_update(changed_hands, ["prevailing_wind", "dealer", "facts"],
                             batch_size=200)
    entries = [e for e in HandEntry.objects.filter(hand_id__in=[h.pk for h in changed_hands])
               .only("id", "hand_id", "seat_id") if (e.hand_id, e.seat_id) in entry_winds]
    for i, entry in enumerate(entries):
        entry.seat_wind = str(i % 10)  # a placeholder no other entry of the hand holds
    HandEntry.objects.bulk_update(entries, ["seat_wind"], batch_size=200)
    for entry in entries:
        entry.seat_wind = entry_winds[(entry.hand_id, entry.seat_id)]
    HandEntry.objects.bulk_update(entries, ["seat_wind"], batch_size=200)
    return moves


@dataclass(frozen=True)
class SeatingMove:
    """One later hand re-seated: who dealt, the wind of the round and each player's seat wind
    that moved, before and after (what the audit entry keeps)."""

    hand: int
    dealer: tuple[str, str]  # the players' names
    prevailing_wind: tuple[str, str]
    winds: tuple[tuple[int, str, str, str], ...]  # (seat id, name, before, after)

    @classmethod
    def of(cls, number, names, winds, prevailing, dealer, new) -> SeatingMove:
        return cls(
            number,
            (names.get(dealer, ""), names.get(new.dealer_seat, "")),
            (prevailing, new.prevailing_wind),
            tuple((s, names.get(s, ""), winds[s], new.winds[s]) for s in new.winds
                  if winds.get(s) != new.winds[s]),
        )

    def to_json(self) -> dict:
        return {
            "hand": self.hand,
            "dealer": {"from": self.dealer[0], "to": self.dealer[1]},
            "prevailing_wind": {"from": self.prevailing_wind[0], "to": self.prevailing_wind[1]},
            "winds": [{"seat": seat, "player": name, "from": before, "to": after}
                      for seat, name, before, after in self.winds],
        }


def _row_result_fields(row: HandRow, members: dict) -> list[dict]:
    """``_result_fields`` of a replayed row."""
    winds = row.seating.winds
    return [
        {
            "seat_id": seat_id,
            "member_id": members.get(seat_id),
            "seat_wind": winds[seat_id],
            "score": score,
            "net": row.net.get(seat_id, 0),
            "running_total": row.totals[seat_id],
            "won": seat_id == row.winner,
            "gave": seat_id == row.discarder,
            "limit": (getattr(row.results.get(seat_id), "limit", None) or "")[:60],
        }
        for seat_id, score in row.scores.items()
    ]

