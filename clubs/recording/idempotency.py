"""The same entry sent twice is saved once (issue #24).

Every save, correction and void may carry a ``client_id`` (a UUID the phone or the API client
makes once per entry). A hand keeps its id (``Hand.client_id``), a correction or void keeps it
on its audit entry (``AuditEntry.client_id``); both are unique in the database, so two copies of
one entry racing each other cannot both be written. Sent again, the entry finds what it saved
and is answered with that; an id already used for something else is a conflict that shows both.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q

from clubs.models import AuditAction, AuditEntry, Hand
from clubs.recording.preview import HandConflict, entry_of
from play import HandInputError, Seating, check_entry

COMPARED = ("winner", "discarder", "draw", "win_from", "seats")


class EntryReused(HandConflict):
    """The client's id was already used for a different entry."""

    def __init__(self, saved: Hand, message: str, entry: dict | None = None):
        Exception.__init__(self, message)
        self.expected = self.actual = saved.number
        self.saved, self.entry = saved, entry


def hand_saved_with(table, client_id, entry: dict) -> Hand | None:
    """The hand this entry already saved (None: not saved yet). Raises ``EntryReused`` when the
    id saved another hand: at another table, or a different entry never corrected since."""
    if client_id is None:
        return None
    hand = Hand.objects.filter(client_id=client_id).first()
    if hand is None:
        return None
    if hand.table_id != table.pk:
        raise EntryReused(hand, "This entry's id (client_id) was already used for a hand at "
                                "another table: make a new id for each entry.", entry)
    if not same_entry(hand, entry) and not _corrected(hand):
        raise EntryReused(hand, f"This entry's id (client_id) was already used for hand "
                                f"{hand.number}, entered differently: make a new id for each "
                                f"entry.", entry)
    return hand


def same_entry(hand: Hand, entry: dict) -> bool:
    """Whether ``entry`` (keyed by the winds of the hand it was entered for) says what the
    stored hand says, once both are read the same way."""
    seating = Seating({e.seat_id: e.seat_wind for e in hand.entries.all()},
                      hand.prevailing_wind, hand.goulash, dealer=hand.dealer_id)
    try:
        outcome = check_entry({k: v for k, v in entry.items() if k != "number"}, seating)
    except HandInputError:
        return False
    stored = entry_of(hand)
    sent = {"winner": outcome.winner, "discarder": outcome.discarder_entered,
            "draw": outcome.draw,
            "win_from": outcome.win_from, "seats": outcome.seats}
    return all(sent[key] == stored[key] for key in COMPARED)


def _corrected(hand: Hand) -> bool:
    return AuditEntry.objects.filter(object_type="hand", object_id=str(hand.pk),
                                     action=AuditAction.UPDATE).exists()


def change_made_with(hand: Hand, client_id, kind: str) -> bool:
    """Whether this correction or void (``kind``: "correct" or "void") was already made.
    Raises ``EntryReused`` when the id was used for another hand or another kind of change."""
    if client_id is None:
        return False
    done = AuditEntry.objects.filter(client_id=client_id).first()
    if done is None:
        return False
    actions = {"correct": {AuditAction.UPDATE}, "void": {AuditAction.VOID, AuditAction.RESTORE}}
    if (done.object_type, done.object_id) != ("hand", str(hand.pk)) or (
            done.action not in actions[kind]):
        raise EntryReused(hand, "This change's id (client_id) was already used for another "
                                "change: make a new id for each change.")
    return True


def same_hand_saved(table, number, entry: dict | Callable[[Hand], dict]) -> Hand | None:
    """The hand saved under ``number`` when it says what ``entry`` says (two phones saving the
    same hand of a table with the same figures): that hand, answered as saved, not a clash to
    mend. None when no such hand is saved, it was voided, or it says something else (a clash
    the scorer settles). ``entry`` is keyed by the winds of hand ``number``, as it was typed,
    or is a function reading what was typed with that hand's seating (the record page's form,
    which names seats, not winds)."""
    if number is None:
        return None
    hand = Hand.objects.filter(table=table, number=number, voided=False).first()
    if hand is None:
        return None
    return hand if same_entry(hand, entry(hand) if callable(entry) else entry) else None


def conflicting_hand(table, number: int) -> Hand | None:
    """The saved hand a conflicting entry is shown beside."""
    return Hand.objects.filter(Q(table=table) & Q(number=number)).first()
