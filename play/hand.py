"""One hand at the table: every seat scored by the scoring engine, then the hand settled by the
settlement engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from play.entry import Outcome, full_hand_json, is_quick
from play.errors import HandInputError
from play.seat import SeatFacts, full_seat, quick_facts, quick_minimum_problem, table_of
from play.seating import Seating
from scoring.engine import HandError, HouseRule, ScoreResult, parse_hand
from settlements.engine import Penalty, Settlement, SettlementInputError, settle_hand


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


def score_seat(rule: HouseRule, data: dict, wind: str, seating: Seating,
               outcome: Outcome) -> SeatFacts:
    """A seat's facts from what was entered for it, which ``check_entry`` has checked (when it
    was recorded, for a replay). Raises ``HandError`` for tiles the rule cannot score."""
    if is_quick(data):
        return quick_facts(data)
    return full_seat(parse_hand(full_hand_json(data, wind, seating, outcome)), rule)


def compute_hand(rules: SessionRules, seating: Seating, outcome: Outcome, pot: int) -> ComputedHand:
    """Score every seat and settle the hand; ``HandInputError`` with every problem found."""
    rule = rules.for_hand(outcome.goulash)
    errors: dict[str, Any] = {}
    seats: dict[str, SeatFacts] = {}
    for wind in seating.winds_in_play:
        try:
            seats[wind] = facts = score_seat(rule, outcome.seats[wind], wind, seating, outcome)
        except HandError as err:
            errors.setdefault("seats", {})[wind] = err.as_drf()
            continue
        except HandInputError as err:
            errors.setdefault("seats", {})[wind] = err.errors
            continue
        if wind != outcome.winner:
            continue
        if facts.result and not facts.result.meets_minimum:
            errors.setdefault("seats", {})[wind] = {"non_field_errors": [
                f"{facts.result.minimum_reason} Check the tiles, or record the hand as the "
                "table agreed it with a quick score."
            ]}
        elif facts.result is None and (
                problem := quick_minimum_problem(rule, facts.score, outcome.goulash)):
            errors.setdefault("seats", {})[wind] = {"score": [problem]}
    if errors:
        raise HandInputError(errors)
    table = table_of(
        seats,
        winner=outcome.winner,
        discarder=outcome.discarder,
        discarder_unknown=outcome.discarder_unknown,
        draw=outcome.draw,
        goulash=outcome.goulash,
        dealer=seating.dealer_wind,
        pot=pot,
        prevailing_wind=seating.prevailing_wind,
        win_from=outcome.win_from,
        kong_replacement=outcome.win_from == "kong_box",
        penalties=tuple(Penalty(**p) for p in outcome.facts.get("penalties", ())),
        clean_hands=outcome.facts.get("clean_hands", ()),
        after_draw=seating.after_draw if outcome.goulash else None,
    )
    try:
        settlement = settle_hand(table, rule)
    except SettlementInputError as err:
        raise HandInputError(_nest_settlement_errors(err.errors)) from err
    scores = {
        wind: SeatScore(wind, "full" if s.result else "quick", s.score, s.result)
        for wind, s in seats.items()
    }
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
