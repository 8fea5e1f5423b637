"""A table's night: the recorded hands replayed in order, each scored, settled and moved on to
the next hand's seating, with the running totals and the pot or kitty carried along.

``replay`` is what every derived figure comes from: the clubs app stores its rows after each
write (``Hand.computed``, ``HandResult``, ``Table.state``) so pages read them instead of
replaying, and a rule comparison replays the same recorded hands under another house rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from play.entry import Outcome, discarder_unknown
from play.errors import HandInputError
from play.hand import ComputedHand, SessionRules, compute_hand
from play.seating import (
    Seating,
    apply_swaps,
    rotation_advance,
    rotation_json,
    rotation_start,
    seating_of,
)
from play.sequence import KEPT, SeatingOf, align, kept, reseated
from scoring.engine import ScoreLine

POT = "pot"
STATE_VERSION = 3


@dataclass(frozen=True)
class SeatInfo:
    id: int
    name: str
    position: int
    starting_wind: str
    member_id: int | None


@dataclass(frozen=True)
class RecordedHand:
    """A hand as it was recorded: who sat where (each entry's wind), how it ended, and what
    was entered for each seat. Seat ids for dealer, winner and discarder."""

    id: int
    number: int
    voided: bool
    prevailing_wind: str
    dealer: int | None
    winner: int | None
    discarder: int | None
    draw: bool
    goulash: bool
    win_source: str
    facts: dict
    entries: dict[int, dict]  # seat id -> {"kind": "full"|"quick", "data": ..., "wind": ...}

    def outcome(self, seating: Seating) -> Outcome:
        """The hand back in the entry shape, keyed by the winds of that hand."""
        wind = seating.winds
        return Outcome(
            winner=wind.get(self.winner) if self.winner else None,
            discarder=wind.get(self.discarder) if self.discarder else None,
            draw=self.draw,
            win_from=self.win_source or None,
            # Won on another's tile with no discarder stored: the discarder was unknown.
            discarder_unknown=discarder_unknown(self.winner, self.discarder, self.win_source),
            goulash=self.goulash,
            seats={wind[s]: e["data"] for s, e in self.entries.items() if s in wind},
            facts=self.facts or {},
        )


class TablePayment(NamedTuple):
    """One payment of a hand between two seats (or a seat and the pot). A plain record: a
    replay makes one for every payment of every hand under every rule compared."""

    payer: int | str  # a seat id, or "pot"
    payee: int | str
    amount: int
    why: str


@dataclass(frozen=True)
class StoredResult:
    """What a page shows of a seat's ``ScoreResult``: the figures and the explanation."""

    points: int
    doubles: int
    score: int
    limit: str | None
    special: str | None
    fishing_for: str | None
    lines: tuple[ScoreLine, ...]

    @classmethod
    def of(cls, result) -> StoredResult:
        return cls(result.points, result.doubles, result.score, result.limit, result.special,
                   result.fishing_for,
                   tuple(result.lines))

    def to_json(self) -> dict:
        return {
            "points": self.points, "doubles": self.doubles, "score": self.score,
            "limit": self.limit, "special": self.special, "fishing_for": self.fishing_for,
            "lines": [{"code": x.code, "name": x.name, "points": x.points,
                       "doubles": x.doubles, "count": x.count} for x in self.lines],
        }

    @classmethod
    def from_json(cls, data: dict) -> StoredResult:
        return cls(data["points"], data["doubles"], data["score"], data.get("limit"),
                   data.get("special"), data.get("fishing_for"),
                   tuple(ScoreLine(**x) for x in data.get("lines", ())))


@dataclass(frozen=True)
class HandRow:
    """One recorded hand as the table sees it, by seat id."""

    id: int
    number: int
    voided: bool
    seating: Seating
    winner: int | None
    discarder: int | None
    draw: bool
    goulash: bool
    win_source: str
    entries: dict[int, dict]  # seat id -> {"kind", "data", "wind"}
    scores: dict[int, int] = field(default_factory=dict)
    results: dict[int, Any] = field(default_factory=dict)  # ScoreResult/StoredResult or None
    payments: tuple[TablePayment, ...] = ()
    net: dict[int, int] = field(default_factory=dict)
    totals: dict[int, int] = field(default_factory=dict)
    pot_before: int = 0
    pot_after: int = 0
    error: dict | None = None  # the engines refuse the hand under this rule (and why)
    facts: dict = field(default_factory=dict)  # as recorded (``RecordedHand.facts``)

    @property
    def kept(self) -> bool:
        """Seated as the table played it, after an earlier hand was corrected or voided
        (``play.KEPT``)."""
        return bool(self.facts.get(KEPT))

    @property
    def counted(self) -> bool:
        """The hand moved the totals: neither voided nor refused by the engines."""
        return not self.voided and self.error is None

    def to_json(self) -> dict:
        """The derived part of the row (what ``Hand.computed`` stores); what was entered is
        stored apart, as entered."""

        def party(who):
            return who if who == POT else int(who)

        return {
            "seating": self.seating.to_json(),
            "scores": {str(k): v for k, v in self.scores.items()},
            "results": {
                str(k): None if r is None else (r if isinstance(r, StoredResult)
                                                else StoredResult.of(r)).to_json()
                for k, r in self.results.items()
            },
            "payments": [{"payer": party(p.payer), "payee": party(p.payee),
                          "amount": p.amount, "why": p.why} for p in self.payments],
            "net": {str(k): v for k, v in self.net.items()},
            "totals": {str(k): v for k, v in self.totals.items()},
            "pot_before": self.pot_before,
            "pot_after": self.pot_after,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: dict, recorded: RecordedHand) -> HandRow:
        def ids(d: dict) -> dict[int, Any]:
            return {int(k): v for k, v in d.items()}

        return cls(
            id=recorded.id, number=recorded.number, voided=recorded.voided,
            seating=Seating.from_json(data["seating"]), winner=recorded.winner,
            discarder=recorded.discarder, draw=recorded.draw, goulash=recorded.goulash,
            win_source=recorded.win_source, entries=recorded.entries,
            scores=ids(data["scores"]),
            results={int(k): None if r is None else StoredResult.from_json(r)
                     for k, r in data["results"].items()},
            payments=tuple(TablePayment(p["payer"], p["payee"], p["amount"], p["why"])
                           for p in data["payments"]),
            net=ids(data["net"]), totals=ids(data["totals"]),
            pot_before=data["pot_before"], pot_after=data["pot_after"], error=data["error"],
            facts=recorded.facts,
        )


@dataclass(frozen=True)
class NextHand:
    number: int
    seating: Seating

    @property
    def dealer(self) -> int:
        return self.seating.dealer_seat


@dataclass(frozen=True)
class TableState:
    table_id: int | None
    seats: tuple[SeatInfo, ...]
    hands: tuple[HandRow, ...]
    totals: dict[int, int]
    pot: int
    next: NextHand
    rotation: dict
    # Hands a re-seating left as played: their entries are by other players than the rotation
    # now seats (``replay(..., reseat_after=)``); the caller marks them ``play.KEPT``.
    unseated: tuple[int, ...] = ()

    def seat(self, seat_id: int) -> SeatInfo:
        return next(s for s in self.seats if s.id == seat_id)

    def snapshot(self, rev: int = 0) -> dict:
        """What ``Table.state`` keeps so the next hand is recorded without a replay."""
        last = max((h.number for h in self.hands), default=0)
        return snapshot_json(last, self.totals, self.pot, self.next.seating, self.rotation,
                             self.seats, rev)


def snapshot_json(last_number: int, totals: dict[int, int], pot: int, seating: Seating,
                  rotation_state: dict, seats: tuple[SeatInfo, ...], rev: int) -> dict:
    """``rev`` counts the writes of the state: a writer that read revision n may only write
    n + 1 (clubs.recording's one-statement append on PostgreSQL relies on it)."""
    return {
        "v": STATE_VERSION,
        "rev": rev,
        "seats": [[s.id, s.name, s.position, s.starting_wind, s.member_id] for s in seats],
        "last_number": last_number,
        "totals": {str(k): v for k, v in totals.items()},
        "pot": pot,
        "next": seating.to_json(),
        "rotation": rotation_state,
    }


def replay(seats: tuple[SeatInfo, ...], hands: Iterable[RecordedHand], rules: SessionRules,
           table_id: int | None = None, refused: str = "error",
           reseat_after: int | None = None) -> TableState:
    """Every recorded hand in order through both engines (nothing is written).

    The seating of each hand is the one it was played with (its entries' winds); the rotation
    goes on from it (``play.sequence.align``) and only says who plays which wind next. With
    ``reseat_after`` (a hand corrected or voided), every later hand not marked as played on as
    recorded is seated as the rotation now says instead (``play.sequence.reseated``: its rows
    carry the new seating, for the caller to store). A voided hand counts for nothing. A hand the engines
    refuse under these rules (a rule fixed after the night, or another club's rule) keeps its
    ``error`` and, with ``refused="error"``, counts for nothing; with ``refused="wall_game"``
    (comparing house rules) it is settled as a wall game, as the table would have had to play
    it on under that rule."""
    if refused not in ("error", "wall_game"):
        raise ValueError(f"refused={refused!r}: use 'error' or 'wall_game'.")
    rule = rules.rule
    rot = rotation_start(rule, seats)
    totals = {s.id: rule.payment.starting_tally for s in seats}
    pot = 0
    rows: list[HandRow] = []
    last = 0
    before, before_drawn = None, False  # the last counted hand's rotation, and was it drawn
    unseated: list[int] = []
    for hand in hands:
        last = hand.number
        rot = apply_swaps(rot, hand.facts)
        moved = None
        if reseat_after is not None and hand.number > reseat_after and not kept(hand):
            moved = reseated(hand, rot)
            if moved is None:  # other players than the rotation seats entered this hand
                unseated.append(hand.number)
        if moved is not None:
            hand = moved
        else:
            rot = align(rot, SeatingOf.of_hand(hand), before, before_drawn)
        seating = Seating(
            {seat_id: e["wind"] for seat_id, e in hand.entries.items()},
            hand.prevailing_wind, hand.goulash, rot.after_draw, hand.dealer,
        )
        row = play_hand(hand, seating, rules, totals, pot, refused)
        rows.append(row)
        totals, pot = row.totals, row.pot_after
        if hand.voided:
            continue  # a voided hand was never played: the deal does not move on
        # A hand settled as a wall game under these rules passes the deal as a wall game does.
        settled_as_wall = row.error is not None and refused == "wall_game"
        before, before_drawn = rot, settled_as_wall or hand.winner is None
        rot = rotation_advance(rule, rot, None if settled_as_wall else hand.winner)
    next_hand = NextHand(last + 1, seating_of(rot))
    return TableState(table_id, tuple(seats), tuple(rows), totals, pot, next_hand,
                      rotation_json(rot), tuple(unseated))


def play_hand(hand: RecordedHand, seating: Seating, rules: SessionRules, totals: dict[int, int],
              pot: int, refused: str = "error") -> HandRow:
    """One recorded hand's row, given the totals and pot before it."""
    base: dict[str, Any] = dict(
        id=hand.id, number=hand.number, voided=hand.voided, seating=seating,
        winner=hand.winner, discarder=hand.discarder, draw=hand.draw, goulash=hand.goulash,
        win_source=hand.win_source, entries=hand.entries, facts=hand.facts,
    )
    if hand.voided:
        return HandRow(**base, totals=dict(totals), pot_before=pot, pot_after=pot)
    outcome = hand.outcome(seating)
    try:
        return hand_row(base, compute_hand(rules, seating, outcome, pot), totals)
    except HandInputError as err:
        if refused != "wall_game":
            return HandRow(**base, totals=dict(totals), pot_before=pot, pot_after=pot,
                           error=err.errors)
        # The refused winner's tiles (and any seat the rule cannot read) count as nothing.
        unread = {outcome.winner, *err.errors.get("seats", {})} - {None}
        wall = replace(outcome, winner=None, discarder=None, draw=True, win_from=None,
                       discarder_unknown=False,
                       seats={w: {"score": 0} if w in unread else data
                              for w, data in outcome.seats.items()})
        try:
            row = hand_row(base, compute_hand(rules, seating, wall, pot), totals)
        except HandInputError:
            return HandRow(**base, totals=dict(totals), pot_before=pot, pot_after=pot,
                           error=err.errors)
        return replace(row, error=err.errors)


def hand_row(base: dict, computed: ComputedHand, totals_before: dict[int, int]) -> HandRow:
    seating = computed.seating
    by_wind = seating.seat_ids
    party: dict[str, int | str] = {**by_wind, POT: POT}  # who pays or is paid: a wind's seat, or the pot
    settlement = computed.settlement
    net = {by_wind[w]: n for w, n in settlement.net.items()}
    totals = {seat_id: t + net.get(seat_id, 0) for seat_id, t in totals_before.items()}
    return HandRow(
        **base,
        scores={by_wind[w]: s.score for w, s in computed.seats.items()},
        results={by_wind[w]: s.result for w, s in computed.seats.items()},
        payments=tuple(
            TablePayment(party[p.payer], party[p.payee], p.amount, p.why)
            for p in settlement.payments
        ),
        net=net,
        totals=totals,
        pot_before=settlement.pot_before,
        pot_after=settlement.pot_after,
    )
