"""The clubs app's side of playing a table: the stored hands and seats as ``play``'s plain
objects, and the table's state read back from what recording stored.

``play.replay`` computes every derived figure from what was entered; ``clubs.recording`` stores
its rows after each write (``Hand.computed``, ``HandResult`` rows, ``Table.state``).
``stored_table_state`` reads them back without calling an engine, which is what every page and
API answer shows; ``build_table_state`` replays the table (recording and corrections only).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from django.db.models import QuerySet
from django.db.models.functions import Coalesce

from clubs.models import ClubSession, Hand, HandEntry, Seat, Table
from houserules.resolve import rule_of
from play import (
    STATE_VERSION,
    HandInputError,
    HandRow,
    NextHand,
    RecordedHand,
    SeatInfo,
    Seating,
    SeatingError,
    SessionRules,
    TableState,
    replay,
)

__all__ = [
    "HandInputError", "SeatingError", "build_table_state", "lock_table", "named_now",
    "recorded_hands", "rule_of", "rules_of", "seats_of", "stored_table_state", "with_names",
]


# -- house rules ------------------------------------------------------------------------------


def rules_of(session: ClubSession, table: Table | None = None) -> SessionRules:
    """The rules a table plays under: its own version (a table of 3 or 5 on a night of fours)
    or the session's; the goulash rule is always the session's."""
    # houserules.resolve.rule_of is the project's one cache of parsed versions.
    goulash = session.goulash_rule_version_id
    own = table.house_rule_version_id if table is not None else None
    return SessionRules(
        rule_of(own or session.house_rule_version_id), rule_of(goulash) if goulash else None
    )


# -- stored rows as play's objects ------------------------------------------------------------


def seats_of(table: Table) -> tuple[SeatInfo, ...]:
    return tuple(
        SeatInfo(s.pk, s.name, s.position, s.starting_wind, s.member_id)
        for s in Seat.objects.filter(table=table).select_related("member").order_by("position")
    )


HAND_FIELDS = ("id", "table_id", "number", "voided", "prevailing_wind", "dealer_id", "winner_id",
               "discarder_id", "draw", "goulash", "win_source", "facts", "computed")


def recorded_hands(table_ids, with_computed: bool = False, numbers: tuple[int, int] | None = None):
    """Every hand of these tables as ``play.RecordedHand``, in order, in two queries (hands,
    then entries): {table id: [RecordedHand]}. With ``with_computed``, pairs of the hand and its
    stored ``Hand.computed``; with ``numbers`` (first, last), only the hands numbered so."""
    table_ids = list(table_ids)
    fields = HAND_FIELDS if with_computed else HAND_FIELDS[:-1]
    hands = Hand.objects.filter(table_id__in=table_ids)
    if numbers is not None:
        hands = hands.filter(number__gte=numbers[0], number__lte=numbers[1])
    rows = list(hands.order_by("table_id", "number").values_list(*fields))
    entries: dict[int, dict[int, dict]] = {}
    # In seat order round the table, as the hand's own entries are listed everywhere else.
    entry_rows = (HandEntry.objects.filter(hand__in=[row[0] for row in rows])
                  .order_by("hand_id", "seat__position")
                  .values_list("hand_id", "seat_id", "seat_wind", "kind", "data"))
    for hand_id, seat_id, wind, kind, data in entry_rows:
        entries.setdefault(hand_id, {})[seat_id] = {"kind": kind, "data": data, "wind": wind}
    by_table: dict[int, list] = {t: [] for t in table_ids}
    for row in rows:
        (pk, table_id, number, voided, prevailing, dealer, winner, discarder, draw, goulash,
         win_source, facts) = row[:12]
        hand = RecordedHand(pk, number, voided, prevailing, dealer, winner, discarder, draw,
                            goulash, win_source, facts or {}, entries.get(pk, {}))
        by_table[table_id].append((hand, row[12]) if with_computed else hand)
    return by_table


def build_table_state(table: Table) -> TableState:
    """Replay every stored hand of the table through the engines (no writes)."""
    session = table.session  # loaded by most callers; one query otherwise
    hands = recorded_hands([table.pk])[table.pk]
    return replay(seats_of(table), hands, rules_of(session, table), table_id=table.pk)


def named_now(table_id: int, seats: tuple[SeatInfo, ...]) -> tuple[SeatInfo, ...]:
    """The seats with their players' names as they are now (one query, whatever the number
    of hands). ``Table.state`` keeps seat ids and members; the names it holds are only as they
    were when it was written, so a member's rename is one row (``Member.display_name``) and
    every page, answer and sheet of every night, old ones too, shows the current name."""
    names = dict(Seat.objects.filter(table_id=table_id).order_by().values_list(
        "pk", Coalesce("member__display_name", "guest_name")))
    return with_names(seats, names)


def with_names(seats: tuple[SeatInfo, ...], names: dict[int, str]) -> tuple[SeatInfo, ...]:
    """The seats with the names given (seat id -> name as it is now)."""
    return tuple(replace(s, name=names[s.id]) if names.get(s.id, s.name) != s.name else s
                 for s in seats)


@cache
def _locked() -> QuerySet:
    """``lock_table``'s query with its columns and joins resolved once, each hand filtering a
    copy (resolving them took a third of the statement's CPU on every hand recorded, issue
    #27). Made on first use: this module is imported while the models are still loading."""
    return (Table.objects.select_for_update(of=("self",)).order_by()
            .values_list("state", "seats__pk",
                         Coalesce("seats__member__display_name", "seats__guest_name")))


def lock_table(table_id: int) -> tuple[dict | None, dict[int, str]]:
    """Lock the table's row until the transaction ends (``select_for_update``; SQLite's
    IMMEDIATE transaction already holds the write lock) and read its stored state and its
    seats' names as they are now: one query (a row a seat), where the names took one more.
    Raises ``Table.DoesNotExist``."""
    rows = list(_locked().filter(pk=table_id))
    if not rows:
        raise Table.DoesNotExist(f"No table {table_id}.")
    return rows[0][0], {seat: name for _, seat, name in rows if seat is not None}


def stored_table_state(table: Table, last: int | None = None, before: int | None = None,
                       only: int | None = None) -> TableState:
    """The table as recording last stored it: ``Table.state`` for the seats, totals, pot and
    next hand, and each hand's ``Hand.computed`` row. No engine is called.

    ``hands`` holds every hand, or a page of them: the ``last`` hands (before hand ``before``,
    if given), or hand ``only``. A table whose stored figures are missing or from an older
    release is replayed instead (nothing is written here; the next write stores them)."""
    state = table.state
    if not (state and state.get("v") == STATE_VERSION):
        return _page_of(build_table_state(table), last, before, only)
    end = state["last_number"] if before is None else min(before - 1, state["last_number"])
    if only is not None:
        numbers = (only, only)
    elif last is not None:
        numbers = (max(1, end - last + 1), end)
    else:
        numbers = (1, end)
    pairs = recorded_hands([table.pk], with_computed=True, numbers=numbers)[table.pk]
    if any(c is None for _, c in pairs):
        return _page_of(build_table_state(table), last, before, only)
    seats = named_now(table.pk, tuple(SeatInfo(*seat) for seat in state["seats"]))
    rows = tuple(HandRow.from_json(computed, hand) for hand, computed in pairs)
    totals = {int(k): v for k, v in state["totals"].items()}
    next_hand = NextHand(state["last_number"] + 1, Seating.from_json(state["next"]))
    return TableState(table.pk, seats, rows, totals, state["pot"], next_hand, state["rotation"])


def _page_of(state: TableState, last: int | None, before: int | None, only: int | None):
    hands = state.hands
    if only is not None:
        hands = tuple(h for h in hands if h.number == only)
    else:
        if before is not None:
            hands = tuple(h for h in hands if h.number < before)
        if last is not None:
            hands = hands[-last:]
    return replace(state, hands=hands)
