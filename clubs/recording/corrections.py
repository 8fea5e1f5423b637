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
from clubs.table_state import recorded_hands, rules_of, seats_of
from play import (
    AS_RECORDED,
    KEPT,
    LATER_HANDS,
    RESEAT,
    HandInputError,
    Seating,
    check_entry,
    is_quick,
    sequence_breaks,
)

# What an operator asked about a hand changed after the night reads here (the audit trail in the
# database says the same, with the values before and after).
log = logging.getLogger(__name__)

# -- corrections ----------------------------------------------------------------------------

WRITTEN_FACTS = ("swap_seats", KEPT)


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
                 client_id=None, later_hands: str = RESEAT):
    """Change what was entered for a recorded hand, keeping its number and its seating.

    ``changes`` is part of the entry shape: top-level fields replace the stored ones, and
    ``seats`` replaces only the winds it names. The table is recomputed from it and an audit
    entry keeps who changed what, from what to what, and why (``note``). ``later_hands`` says
    what the hands after it do when the correction changes who deals (``later_hands_after``).
    Returns the hand (with ``with_state``: the hand and the table's recomputed
    ``TableState``, which an answer can show without replaying the night once more).
    """
    if not isinstance(changes, dict):
        raise HandInputError({"non_field_errors": ["Send the changes as a JSON object."]})
    _check_later_hands(later_hands)
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
        # Seat swaps and a kept seating are written by the service, never entered: those
        # recorded on this hand stay, whatever facts the correction gives.
        if isinstance(after["facts"], dict):
            after["facts"] = {k: v for k, v in after["facts"].items() if k not in WRITTEN_FACTS}
            for written in WRITTEN_FACTS:
                if written in before["facts"]:
                    after["facts"][written] = before["facts"][written]
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
        # One replay of the night both checks the corrected hand (its seating and the pot before
        # it come from the hands before it) and recomputes the rest; a hand the engines refuse
        # undoes the whole correction.
        state, later = later_hands_after(table, hand.number, later_hands)
        error = next(row.error for row in state.hands if row.id == hand.pk)
        if error:
            raise HandInputError(error)
        _audit(table.session.club_id, user, AuditAction.UPDATE, hand, before,
               {**entry_of(hand), **later}, note, client_id)
    return (hand, state) if with_state else hand


def _check_later_hands(later_hands: str) -> None:
    if later_hands not in LATER_HANDS:
        raise HandInputError({"later_hands": [
            f"{later_hands!r}: use {RESEAT!r} (later hands seated again from the corrected "
            f"result) or {AS_RECORDED!r} (the table played on as recorded)."]})


def later_hands_after(table: Table, number: int, later_hands: str):
    """Recompute the table after hand ``number`` was corrected, voided or restored, the later
    hands either re-seated from the new result (``RESEAT``: who deals, seat winds, wind of the
    round, as the house rule's rotation says; tile-entered hands scored again under their new
    winds) or kept as the table played on (``AS_RECORDED``: their stored seating stays, the
    first one the rotation would no longer give is marked ``KEPT`` and the rotation continues
    from it). Returns the state and what the audit entry adds: the choice and the seatings
    that moved, or the hands marked."""
    if later_hands == RESEAT:
        state, moved = recompute_table(table, from_number=number, reseat_after=number,
                                       with_moves=True)
        # A later hand the engines refuse under its new winds (a Heaven's Blessing no longer
        # East's) undoes the whole change: the scorer mends that hand first, or keeps the
        # seating as the table played on.
        moved_numbers = {move.hand for move in moved}
        refused = [row for row in state.hands if row.number in moved_numbers and row.error]
        if refused:
            raise HandInputError({"later_hands": [
                f"Hand {row.number} cannot be scored seated again ({_first_message(row.error)}"
                f"). Correct hand {row.number} first, or choose 'the table played on as "
                "recorded'." for row in refused]})
        return state, {"later_hands": RESEAT,
                       "seating_moved": [move.to_json() for move in moved],
                       "seating_kept": list(state.unseated)}
    marked = mark_kept(table, number)
    state = recompute_table(table, from_number=number)
    return state, {"later_hands": AS_RECORDED, "seating_kept": marked}


def _first_message(errors) -> str:
    """The first message of a DRF-shaped error, with its field path."""
    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, f"{path}.{key}" if path else str(key))
        elif isinstance(node, list | tuple):
            for value in node:
                yield from walk(value, path)
        else:
            yield f"{path}: {node}" if path else str(node)
    return next(walk(errors, ""), "refused").rstrip(".")


def mark_kept(table: Table, number: int) -> list[int]:
    """Mark the hands after hand ``number`` whose stored seating the rotation would not give
    (hand ``number`` changed, or hands moved in after it): the table played them as recorded.
    Returns their numbers."""
    hands = recorded_hands([table.pk])[table.pk]
    breaks = sequence_breaks(seats_of(table), hands, rules_of(table.session, table).rule)
    numbers = [b.number for b in breaks if b.number > number]
    if numbers:
        marked = list(Hand.objects.filter(table=table, number__in=numbers))
        for h in marked:
            h.facts = {**(h.facts or {}), KEPT: True}
        Hand.objects.bulk_update(marked, ["facts"])
    return numbers


def _stored_seating(hand: Hand) -> Seating:
    """The winds and goulash flag a recorded hand was played with, as stored with its entries
    (which is all that checking an entry's shape asks of a seating)."""
    return Seating({e.seat_id: e.seat_wind for e in hand.entries.all()}, hand.prevailing_wind,
                   hand.goulash, dealer=hand.dealer_id)


def void_hand(hand: Hand, user, reason: str = "", voided: bool = True, with_state: bool = False,
              client_id=None, later_hands: str = RESEAT):
    """Void a hand (it stays listed, counts for nothing, and the deal does not move on for it)
    or, with ``voided=False``, restore it; ``later_hands`` as for ``correct_hand``.
    Returns the hand (with ``with_state``: the hand and the table's ``TableState`` when it was
    recomputed, None when the hand already stood as asked)."""
    _check_later_hands(later_hands)
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
            state, later = later_hands_after(table, hand.number, later_hands)
            _audit(table.session.club_id, user, action, hand, before,
                   {"voided": voided, **later}, reason, client_id)
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
        # A swap already recorded on a later hand was of the players as they sat before this
        # one: it now names them as they sit after it, or the rotation would apply the two
        # swaps in the other order (they differ when they share a player).
        for later in hands[1:]:
            if (later.facts or {}).get("swap_seats"):
                later.facts = {**later.facts, "swap_seats": [
                    [swapped(x), swapped(y)] for x, y in later.facts["swap_seats"]]}
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



def later_hands_text(after: dict | None) -> list[str]:
    """What a correction or void did to the later hands, a sentence a hand, from its audit
    entry's ``after`` (``later_hands_after``)."""
    after = after if isinstance(after, dict) else {}
    lines = []
    for move in after.get("seating_moved") or []:
        parts = []
        dealer, wind = move.get("dealer") or {}, move.get("prevailing_wind") or {}
        if dealer.get("from") != dealer.get("to"):
            parts.append(f"{dealer.get('to')} deals (was {dealer.get('from')})")
        if wind.get("from") != wind.get("to"):
            parts.append(f"round of the {wind.get('to')} wind (was {wind.get('from')})")
        winds = ", ".join(f"{w.get('player')} {w.get('to')} (was {w.get('from')})"
                          for w in move.get("winds") or [])
        if winds:
            parts.append(winds)
        lines.append(f"Hand {move.get('hand')} seated again: " + "; ".join(parts) + ".")
    for number in after.get("seating_kept") or []:
        lines.append(f"Hand {number} kept as the table played it; the deal goes on from it.")
    return lines
