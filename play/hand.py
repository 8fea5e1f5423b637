"""One hand at the table: every seat scored by the scoring engine, then the hand settled by the
settlement engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from play.entry import Outcome, full_hand_json, is_quick
from play.errors import HandInputError
from play.seating import Seating
from scoring.engine import HandError, HouseRule, ScoreResult, parse_hand, score_hand
from settlements.engine import (
    HandAtTable,
    Penalty,
    Settlement,
    SettlementInputError,
    settle_hand,
)


@dataclass(frozen=True)
class SessionRules:
    """The house rule a night is played under, and the one that scores its goulash hands when
    that is another (``HouseRule.goulash_rule``)."""

    rule: HouseRule
    goulash_rule: HouseRule | None = None

    def for_hand(self, goulash: bool) -> HouseRule:
        return self.goulash_rule if goulash and self.goulash_rule is not None else self.rule


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


def score_seat(rule: HouseRule, data: dict, wind: str, seating: Seating, outcome: Outcome):
    """A seat's score, and the parsed hand when the tiles were entered (None for a quick
    entry). Raises ``HandError``."""
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
