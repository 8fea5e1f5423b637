"""Corrections: changing what was entered for a recorded hand, voiding or restoring one, and
swapping two players recorded the wrong way round. Each keeps an audit entry and recomputes the
table from the changed hand on, in one transaction."""

from __future__ import annotations

import logging

from django.db import transaction

from clubs.models import AuditAction, AuditEntry, EntryKind, Hand, HandEntry, Seat, Table
from clubs.recording.idempotency import change_made_with
from clubs.recording.preview import entry_of
from clubs.recording.recompute import recompute_table
from play import HandInputError, Seating, check_entry, is_quick

# What an operator asked about a hand changed after the night reads here (the audit trail in the
# database says the same, with the values before and after).
log = logging.getLogger(__name__)

# -- corrections ----------------------------------------------------------------------------


def _audit(club_id, user, action, obj, before, after, note="", client_id=None) -> AuditEntry:
    who = user.pk if user is not None and user.is_authenticated else None
    # Said once the change is committed: a correction the engines refuse is rolled back whole.
    transaction.on_commit(lambda: log.info(
        "club %s: %s %s %s by user %s%s", club_id, action, obj._meta.model_name, obj.pk, who,
        f" ({note[:80]!r})" if note else ""))
    return AuditEntry.objects.create(
        client_id=client_id,
        club_id=club_id,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        object_type=obj._meta.model_name,
        object_id=str(obj.pk),
        before=before,
        after=after,
        note=note,
    )


def _lock(hand: Hand) -> tuple[Table, Hand]:
    table = Table.objects.select_for_update().select_related("session").get(pk=hand.table_id)
    return table, Hand.objects.prefetch_related("entries").get(pk=hand.pk)


def correct_hand(hand: Hand, changes: dict, user, note: str = "", with_state: bool = False,
                 client_id=None):
    """Change what was entered for a recorded hand, keeping its number and its seating.

    ``changes`` is part of the entry shape: top-level fields replace the stored ones, and
    ``seats`` replaces only the winds it names. The table is recomputed from it and an audit
    entry keeps who changed what, from what to what. Returns the hand (with ``with_state``: the
    hand and the table's recomputed ``TableState``, which an answer can show without replaying
    the night once more).
    """
    if not isinstance(changes, dict):
        raise HandInputError({"non_field_errors": ["Send the changes as a JSON object."]})
    with transaction.atomic():
        table, hand = _lock(hand)
        if change_made_with(hand, client_id, "correct"):
            return (hand, None) if with_state else hand
        before = entry_of(hand)
        after = {**before, **{k: v for k, v in changes.items() if k != "seats"}}
        after["number"] = hand.number
        seats_change = changes.get("seats", {})
        if not isinstance(seats_change, dict):
            raise HandInputError({"seats": ["Give the seats to change by wind."]})
        after["seats"] = {**before["seats"], **seats_change}
        # Seat swaps recorded on this hand stay, whatever facts the correction gives.
        if "swap_seats" in before["facts"]:
            after["facts"] = {**after["facts"], "swap_seats": before["facts"]["swap_seats"]}
        seating = _stored_seating(hand)
        outcome = check_entry(after, seating)
        seat_ids = {w: s for s, w in seating.winds.items()}
        hand.winner_id = seat_ids[outcome.winner] if outcome.winner else None
        hand.discarder_id = seat_ids[outcome.discarder] if outcome.discarder else None
        hand.draw = outcome.draw
        hand.goulash = outcome.goulash
        hand.win_source = outcome.win_from or ""
        hand.facts = outcome.facts
        hand.save(update_fields=["winner", "discarder", "draw", "goulash", "win_source", "facts",
                                 "updated"])
        for entry in hand.entries.all():
            data = outcome.seats[entry.seat_wind]
            if data != entry.data:
                entry.data = data
                entry.kind = EntryKind.QUICK if is_quick(data) else EntryKind.FULL
                entry.save(update_fields=["data", "kind"])
        _audit(table.session.club_id, user, AuditAction.UPDATE, hand, before, entry_of(hand), note,
               client_id)
        # One replay of the night both checks the corrected hand (its seating and the pot before
        # it come from the hands before it) and recomputes the rest; a hand the engines refuse
        # undoes the whole correction.
        state = recompute_table(table, from_number=hand.number)
        error = next(row.error for row in state.hands if row.id == hand.pk)
        if error:
            raise HandInputError(error)
    return (hand, state) if with_state else hand


def _stored_seating(hand: Hand) -> Seating:
    """The winds and goulash flag a recorded hand was played with, as stored with its entries
    (which is all that checking an entry's shape asks of a seating)."""
    return Seating({e.seat_id: e.seat_wind for e in hand.entries.all()}, hand.prevailing_wind,
                   hand.goulash, dealer=hand.dealer_id)


def void_hand(hand: Hand, user, reason: str = "", voided: bool = True, with_state: bool = False,
              client_id=None):
    """Void a hand (it stays listed, counts for nothing) or, with ``voided=False``, restore it.
    Returns the hand (with ``with_state``: the hand and the table's ``TableState`` when it was
    recomputed, None when the hand already stood as asked)."""
    state = None
    with transaction.atomic():
        table, hand = _lock(hand)
        if change_made_with(hand, client_id, "void"):
            return (hand, None) if with_state else hand
        if hand.voided != voided:
            before = {"voided": hand.voided}
            hand.voided = voided
            hand.save(update_fields=["voided", "updated"])
            action = AuditAction.VOID if voided else AuditAction.RESTORE
            _audit(table.session.club_id, user, action, hand, before, {"voided": voided}, reason,
                   client_id)
            state = recompute_table(table, from_number=hand.number)
    return (hand, state) if with_state else hand


def swap_seats(table: Table, seat_a: Seat, seat_b: Seat, from_hand_number: int, user,
               reason: str = "") -> int:
    """The two players were recorded the wrong way round from hand ``from_hand_number`` on:
    exchange everything entered for them (hands, winner, discarder, dealer) in those hands,
    each keeping the wind that seat played. Returns how many hands changed."""
    if seat_a.table_id != table.pk or seat_b.table_id != table.pk:
        raise HandInputError({"seats": ["Both seats must be at this table."]})
    if seat_a.pk == seat_b.pk:
        raise HandInputError({"seat_b": ["Pick two different seats."]})
    a, b = seat_a.pk, seat_b.pk

    def swapped(seat_id):
        return {a: b, b: a}.get(seat_id, seat_id)

    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        hands = list(
            Hand.objects.filter(table=table, number__gte=from_hand_number)
            .order_by("number").prefetch_related("entries")
        )
        if not hands:
            raise HandInputError(
                {"from_hand": [f"There is no hand {from_hand_number} or later at this table."]}
            )
        before = {h.number: entry_seats(h) for h in hands}
        entries = [e for h in hands for e in h.entries.all() if e.seat_id in (a, b)]
        by_hand: dict[int, list[HandEntry]] = {}
        for e in entries:
            by_hand.setdefault(e.hand_id, []).append(e)
        for h in hands:
            pair = by_hand.get(h.pk, [])
            if len(pair) == 2:
                _exchange(*pair)
            elif len(pair) == 1:  # the other player sat out this hand (five players)
                pair[0].seat_id = swapped(pair[0].seat_id)
                pair[0].save(update_fields=["seat"])
            h.dealer_id = swapped(h.dealer_id)
            h.winner_id = swapped(h.winner_id)
            h.discarder_id = swapped(h.discarder_id)
        # The rotation takes the swap from the first of these hands on (table_state.apply_swaps).
        first = hands[0]
        first.facts = {**(first.facts or {})}
        first.facts["swap_seats"] = [*first.facts.get("swap_seats", []), [a, b]]
        Hand.objects.bulk_update(hands, ["dealer", "winner", "discarder", "facts"])
        after = _entry_seats_now(hands)
        _audit(
            table.session.club_id, user, AuditAction.UPDATE, table,
            {"swap": [a, b], "from_hand": from_hand_number, "hands": before},
            {"swap": [a, b], "from_hand": from_hand_number, "hands": after},
            reason,
        )
        recompute_table(table, from_number=from_hand_number)
    return len(hands)


def _exchange(first: HandEntry, second: HandEntry) -> None:
    """Swap what two seats entered in one hand. A wind is unique per hand and PostgreSQL checks
    that row by row, so one row steps aside first."""
    wind_a, wind_b = first.seat_wind, second.seat_wind
    first.data, second.data = second.data, first.data
    first.kind, second.kind = second.kind, first.kind
    HandEntry.objects.filter(pk=first.pk).update(seat_wind="")
    HandEntry.objects.filter(pk=second.pk).update(seat_wind=wind_a, data=second.data,
                                                  kind=second.kind)
    HandEntry.objects.filter(pk=first.pk).update(seat_wind=wind_b, data=first.data,
                                                 kind=first.kind)


def entry_seats(hand: Hand) -> dict:
    """Which seat played each wind in a hand, from its prefetched entries."""
    return {e.seat_wind: e.seat_id for e in hand.entries.all()}


def _entry_seats_now(hands: list[Hand]) -> dict[int, dict]:
    """``entry_seats`` of each hand as the database holds it now, in one query."""
    numbers = {h.pk: h.number for h in hands}
    seats: dict[int, dict] = {h.number: {} for h in hands}
    rows = HandEntry.objects.filter(hand_id__in=numbers).order_by("hand", "seat__position")
    for hand_id, wind, seat_id in rows.values_list("hand_id", "seat_wind", "seat_id"):
        seats[numbers[hand_id]][wind] = seat_id
    return seats

