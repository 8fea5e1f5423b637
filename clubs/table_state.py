"""The read model of a table: every hand with each seat's score, payments and running total, the
pot or kitty, and who plays which wind in the next hand.

It is computed by the engines from what was stored as entered (``Hand``, ``HandEntry``): each
full hand is scored by ``scoring.engine``, each hand settled by ``settlements.engine``, the
seating moved on by the settlement engine's rotation. Nothing here writes; ``clubs.recording``
saves what this computes (``HandResult`` rows and ``Table.state``).

Players are identified by their seat's id (``Seat.pk``); winds are what each seat played in
that hand, as the table was told when it was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from django.db.models.signals import post_delete, post_save

from clubs.models import ClubSession, Hand, HouseRuleVersion, Seat, Table
from scoring.engine import HandError, HouseRule, ScoreResult, parse_hand, score_hand
from settlements.engine import (
    ROTATIONS,
    HandAtTable,
    Penalty,
    Settlement,
    SettlementInputError,
    settle_hand,
    start_seating,
)
from settlements.engine import Seating as Rotation

WIND_ORDER = ("E", "S", "W", "N")
POT = "pot"
STATE_VERSION = 3


class HandInputError(ValueError):
    """What was entered cannot be recorded; ``errors`` is DRF's error shape (field paths)."""

    def __init__(self, errors: dict[str, Any]):
        self.errors = errors
        super().__init__(str(errors))


class SeatingError(HandInputError):
    """The table's seats cannot start a game under its house rule (a table seated or changed
    in the admin): nothing can be shown or recorded there until they are mended."""


# -- house rules ------------------------------------------------------------------------------


def rule_of(version_id: int) -> HouseRule:
    """The frozen house rule of a version. Versions are never edited, so parsing each once per
    process is a pure function's cache (ARCHITECTURE: no other state lives in memory)."""
    rule = _rule_cache.get(version_id)
    if rule is None:
        data = HouseRuleVersion.objects.values_list("data", flat=True).get(pk=version_id)
        rule = _rule_cache[version_id] = HouseRule.from_dict(data)
    return rule


_rule_cache: dict[int, HouseRule] = {}


def _forget_version(sender, instance, **kwargs) -> None:
    # A version written under an id already cached (SQLite reuses the ids of rolled-back rows)
    # must not be answered with the old rule.
    _rule_cache.pop(instance.pk, None)


post_save.connect(_forget_version, sender=HouseRuleVersion, dispatch_uid="table_state_rules")
post_delete.connect(_forget_version, sender=HouseRuleVersion, dispatch_uid="table_state_rules_d")


@dataclass(frozen=True)
class SessionRules:
    rule: HouseRule
    goulash_rule: HouseRule | None

    def for_hand(self, goulash: bool) -> HouseRule:
        return self.goulash_rule if goulash and self.goulash_rule is not None else self.rule


def rules_of(session: ClubSession) -> SessionRules:
    goulash = session.goulash_rule_version_id
    return SessionRules(
        rule_of(session.house_rule_version_id), rule_of(goulash) if goulash else None
    )


# -- one hand -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """Who plays which wind in one hand: ``winds`` maps seat id to wind (a seat sitting out is
    absent), who deals (East, except where the winner deals and the winds stay: 002), the wind
    of the round and whether the hand is a goulash (and follows a wall game)."""

    winds: dict[int, str]
    prevailing_wind: str
    goulash: bool = False
    after_draw: bool = False
    dealer: int | None = None

    def seat_of(self, wind: str) -> int:
        for seat_id, seat_wind in self.winds.items():
            if seat_wind == wind:
                return seat_id
        raise KeyError(wind)

    @property
    def dealer_seat(self) -> int:
        return self.dealer if self.dealer is not None else self.seat_of("E")

    @property
    def dealer_wind(self) -> str:
        return self.winds[self.dealer_seat]

    @property
    def winds_in_play(self) -> tuple[str, ...]:
        return tuple(w for w in WIND_ORDER if w in self.winds.values())

    def with_goulash(self, goulash: bool) -> Seating:
        return replace(self, goulash=goulash)

    def to_json(self) -> dict:
        return {
            "winds": {str(k): v for k, v in self.winds.items()},
            "prevailing_wind": self.prevailing_wind,
            "goulash": self.goulash,
            "after_draw": self.after_draw,
            "dealer": self.dealer_seat,
        }

    @classmethod
    def from_json(cls, data: dict) -> Seating:
        return cls(
            {int(k): v for k, v in data["winds"].items()},
            data["prevailing_wind"],
            data.get("goulash", False),
            data.get("after_draw", False),
            data.get("dealer"),
        )


@dataclass(frozen=True)
class Outcome:
    """How a hand ended, by seat wind, as entered."""

    winner: str | None
    discarder: str | None
    draw: bool
    win_from: str | None
    goulash: bool
    seats: dict[str, dict]  # wind -> the contract's hand JSON, or {"score": N}
    facts: dict = field(default_factory=dict)


@dataclass(frozen=True)
class SeatScore:
    wind: str
    kind: str  # "full" or "quick"
    score: int
    result: ScoreResult | None = None


@dataclass(frozen=True)
class ComputedHand:
    seating: Seating
    outcome: Outcome
    seats: dict[str, SeatScore]
    settlement: Settlement


QUICK_KEYS = {"score", "kongs", "bonus"}
KONG_HOWS = ("concealed", "claimed", "added")
BONUS_TILES = ("f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4")


def is_quick(data: dict) -> bool:
    """Quick entry: the agreed score, with the kongs and flowers where the house rule pays
    for them (as in the settle API's quick entries)."""
    return isinstance(data, dict) and "score" in data and set(data) <= QUICK_KEYS


def full_hand_json(data: dict, wind: str, seating: Seating, outcome: Outcome) -> dict:
    """The stored hand with the facts the table already knows filled in: its seat wind and the
    wind of the round for this hand, Mah Jong or not, goulash, and how the winner won."""
    hand = {k: v for k, v in data.items() if k != "rules"}
    hand["seat_wind"] = wind
    hand["prevailing_wind"] = seating.prevailing_wind
    hand["mahjong"] = outcome.winner == wind
    hand["goulash"] = outcome.goulash
    if hand["mahjong"]:
        win = hand.get("win") or {}
        if isinstance(win, dict):  # anything else is left for parse_hand to name
            win = dict(win)
            if outcome.win_from and not win.get("from"):
                win["from"] = outcome.win_from
        hand["win"] = win
    else:
        hand.pop("win", None)
    return hand


def score_seat(rule: HouseRule, data: dict, wind: str, seating: Seating, outcome: Outcome):
    if is_quick(data):
        return SeatScore(wind, "quick", data["score"]), None
    hand = parse_hand(full_hand_json(data, wind, seating, outcome))
    result = score_hand(hand, rule)
    return SeatScore(wind, "full", result.score, result), hand


def compute_hand(rules: SessionRules, seating: Seating, outcome: Outcome, pot: int) -> ComputedHand:
    """Score every seat and settle the hand; ``HandInputError`` with every problem found."""
    rule = rules.for_hand(outcome.goulash)
    errors: dict[str, Any] = {}
    scores: dict[str, SeatScore] = {}
    kongs: dict[str, tuple[str, ...]] = {}
    bonus: dict[str, tuple[str, ...]] = {}
    kong_replacement_win = outcome.win_from == "kong_box"
    for wind in seating.winds_in_play:
        data = outcome.seats[wind]
        try:
            scored, hand = score_seat(rule, data, wind, seating, outcome)
        except HandError as err:
            errors.setdefault("seats", {})[wind] = err.as_drf()
            continue
        if hand is None:
            kongs[wind] = tuple(data.get("kongs", ()))
            bonus[wind] = tuple(data.get("bonus", ()))
        else:
            kongs[wind] = tuple(m.how for m in hand.melds if m.kind == "kong")
            bonus[wind] = tuple(hand.bonus)
            if wind == outcome.winner:
                kong_replacement_win |= bool(hand.win and hand.win.kong_replacement)
                if not scored.result.meets_minimum:
                    errors.setdefault("seats", {})[wind] = {
                        "non_field_errors": [
                            f"{scored.result.minimum_reason} Check the tiles, or record the "
                            "hand as the table agreed it with a quick score."
                        ]
                    }
        scores[wind] = scored
    if errors:
        raise HandInputError(errors)
    winner_result = scores[outcome.winner].result if outcome.winner else None
    table = HandAtTable(
        seats=seating.winds_in_play,
        scores={wind: s.score for wind, s in scores.items()},
        winner=outcome.winner,
        discarder=outcome.discarder,
        draw=outcome.draw,
        goulash=outcome.goulash,
        pot=pot,
        kongs=kongs,
        bonus=bonus,
        win_source=outcome.win_from if outcome.winner else None,
        kong_replacement_win=kong_replacement_win,
        penalties=tuple(Penalty(**p) for p in outcome.facts.get("penalties", ())),
        winner_items=winner_result.item_codes if winner_result else frozenset(),
        clean_hands=frozenset(outcome.facts.get("clean_hands", ())),
        dealer=seating.dealer_wind,
        prevailing_wind=seating.prevailing_wind,
        after_draw=seating.after_draw if outcome.goulash else None,
    )
    try:
        settlement = settle_hand(table, rule)
    except SettlementInputError as err:
        raise HandInputError(_nest_settlement_errors(err.errors)) from err
    return ComputedHand(seating, outcome, scores, settlement)


def _nest_settlement_errors(errors: dict[str, list[str]]) -> dict[str, Any]:
    # The engine names its own fields (hands.E, scores.E); ours are seats.E, and the extra
    # facts of a hand (penalties, clean hands) live under facts.
    nested: dict[str, Any] = {}
    for path, messages in errors.items():
        head, _, rest = path.partition(".")
        if head in ("hands", "scores") and rest:
            nested.setdefault("seats", {}).setdefault(rest.split(".")[0], []).extend(messages)
        elif head in ("penalties", "clean_hands"):
            nested.setdefault("facts", {}).setdefault(head, []).extend(messages)
        else:
            nested.setdefault(head or "non_field_errors", []).extend(messages)
    return nested


# -- the whole table ------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    id: int
    name: str
    position: int
    starting_wind: str
    member_id: int | None


@dataclass(frozen=True)
class TablePayment:
    payer: int | str  # a seat id, or "pot"
    payee: int | str
    amount: int
    why: str


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
    entries: dict[int, dict]  # seat id -> {"kind", "data"}
    scores: dict[int, int] = field(default_factory=dict)
    results: dict[int, ScoreResult | None] = field(default_factory=dict)
    payments: tuple[TablePayment, ...] = ()
    net: dict[int, int] = field(default_factory=dict)
    totals: dict[int, int] = field(default_factory=dict)
    pot_before: int = 0
    pot_after: int = 0
    error: dict | None = None  # a stored hand the engines now refuse (e.g. after a rule fix)


@dataclass(frozen=True)
class NextHand:
    number: int
    seating: Seating

    @property
    def dealer(self) -> int:
        return self.seating.dealer_seat


@dataclass(frozen=True)
class TableState:
    table_id: int
    seats: tuple[SeatInfo, ...]
    hands: tuple[HandRow, ...]
    totals: dict[int, int]
    pot: int
    next: NextHand
    rotation: dict

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
    n + 1 (recording.py's one-statement append on PostgreSQL relies on it)."""
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


def seats_of(table: Table) -> tuple[SeatInfo, ...]:
    return tuple(
        SeatInfo(s.pk, s.name, s.position, s.starting_wind, s.member_id)
        for s in Seat.objects.filter(table=table).select_related("member").order_by("position")
    )


def outcome_of(hand: Hand, seating: Seating, entries: dict[int, dict]) -> Outcome:
    """A stored hand back in the entry shape, keyed by the winds of that hand."""
    wind = seating.winds
    return Outcome(
        winner=wind.get(hand.winner_id) if hand.winner_id else None,
        discarder=wind.get(hand.discarder_id) if hand.discarder_id else None,
        draw=hand.draw,
        win_from=hand.win_source or None,
        goulash=hand.goulash,
        seats={wind[seat_id]: e["data"] for seat_id, e in entries.items() if seat_id in wind},
        facts=hand.facts or {},
    )


def build_table_state(table: Table) -> TableState:
    """Replay every stored hand of the table through the engines (no writes)."""
    session = table.session  # loaded by most callers; one query otherwise
    rules = rules_of(session)
    seats = seats_of(table)
    hands = list(
        Hand.objects.filter(table=table).order_by("number").prefetch_related("entries")
    )
    rot = rotation_start(rules.rule, seats)
    totals = {s.id: rules.rule.payment.starting_tally for s in seats}
    pot = 0
    rows: list[HandRow] = []
    for hand in hands:
        rot = apply_swaps(rot, hand.facts)
        entries = {
            e.seat_id: {"kind": e.kind, "data": e.data, "wind": e.seat_wind}
            for e in hand.entries.all()
        }
        seating = Seating(
            {seat_id: e["wind"] for seat_id, e in entries.items()},
            hand.prevailing_wind,
            hand.goulash,
            rot.after_draw,
            hand.dealer_id,
        )
        base = dict(
            id=hand.pk, number=hand.number, voided=hand.voided, seating=seating,
            winner=hand.winner_id, discarder=hand.discarder_id, draw=hand.draw,
            goulash=hand.goulash, win_source=hand.win_source, entries=entries,
        )
        if hand.voided:
            rows.append(HandRow(**base, totals=dict(totals), pot_before=pot, pot_after=pot))
            continue
        try:
            computed = compute_hand(rules, seating, outcome_of(hand, seating, entries), pot)
        except HandInputError as err:
            rows.append(HandRow(**base, totals=dict(totals), pot_before=pot, pot_after=pot,
                                error=err.errors))
        else:
            row = hand_row(base, computed, totals)
            totals, pot = row.totals, row.pot_after
            rows.append(row)
        rot = rotation_advance(rules.rule, rot, hand.winner_id)
    next_hand = NextHand(max((h.number for h in hands), default=0) + 1, seating_of(rot))
    return TableState(table.pk, seats, tuple(rows), totals, pot, next_hand, rotation_json(rot))


# -- rotation: the settlement engine's seating, players keyed by seat id ---------------------


def rotation_start(rule: HouseRule, seats: tuple[SeatInfo, ...]) -> Rotation:
    """The first hand's seating: players in starting order (East first; a fifth player with
    no starting wind begins sitting out)."""
    order = sorted(
        seats,
        key=lambda s: (WIND_ORDER.index(s.starting_wind) if s.starting_wind else 9, s.position),
    )
    try:
        return start_seating(rule, tuple(str(s.id) for s in order))
    except SettlementInputError as err:
        raise SeatingError({"seats": [m for msgs in err.errors.values() for m in msgs]}) from err


def rotation_advance(rule: HouseRule, rot: Rotation, winner_seat_id: int | None) -> Rotation:
    return ROTATIONS[rule.rotation.scheme](
        rot, None if winner_seat_id is None else str(winner_seat_id), rule
    )


def apply_swaps(rot: Rotation, facts: dict | None) -> Rotation:
    """Two players found to have been recorded the wrong way round from this hand on
    (``facts["swap_seats"]``, written by ``recording.swap_seats``) take each other's place."""
    for a, b in (facts or {}).get("swap_seats", ()):
        a, b = str(a), str(b)
        swap = {a: b, b: a}
        rot = replace(
            rot,
            players=tuple(swap.get(p, p) for p in rot.players),
            dealer=swap.get(rot.dealer, rot.dealer),
        )
    return rot


def seating_of(rot: Rotation) -> Seating:
    return Seating(
        {int(p): w for p, w in rot.winds.items()}, rot.prevailing_wind, rot.goulash,
        rot.after_draw, int(rot.dealer),
    )


def rotation_json(rot: Rotation) -> dict:
    # Flat fields only: dataclasses.asdict's deep copy was a noticeable cost per hand.
    data = {f.name: getattr(rot, f.name) for f in fields(rot)}
    data["players"], data["seats"] = list(rot.players), list(rot.seats)
    return data


def rotation_from_json(data: dict) -> Rotation:
    return Rotation(**{**data, "players": tuple(data["players"]), "seats": tuple(data["seats"])})


def hand_row(base: dict, computed: ComputedHand, totals_before: dict[int, int]) -> HandRow:
    seating = computed.seating
    by_wind = {w: s for s, w in seating.winds.items()}

    def party(who: str) -> int | str:
        return POT if who == POT else by_wind[who]

    settlement = computed.settlement
    net = {by_wind[w]: n for w, n in settlement.net.items()}
    totals = {seat_id: t + net.get(seat_id, 0) for seat_id, t in totals_before.items()}
    return HandRow(
        **base,
        scores={by_wind[w]: s.score for w, s in computed.seats.items()},
        results={by_wind[w]: s.result for w, s in computed.seats.items()},
        payments=tuple(
            TablePayment(party(p.payer), party(p.payee), p.amount, p.why)
            for p in settlement.payments
        ),
        net=net,
        totals=totals,
        pot_before=settlement.pot_before,
        pot_after=settlement.pot_after,
    )
