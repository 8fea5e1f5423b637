"""A hand at a club's table (a recorded one, or the one being recorded) under several house
rules: each seat's score and explanation, the payments and nets, or why the rule refuses it."""

from __future__ import annotations

from dataclasses import dataclass

from clubs.models import Hand
from clubs.table_state import recorded_hands, seats_of
from clubs.views.table_view import score_lines
from compare.replay_compare import reason
from compare.runs import frozen_rules, session_rules
from play import HandInputError, Outcome, Seating, SessionRules, compute_hand
from scoring.engine import HouseRule

WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


@dataclass(frozen=True)
class RuleAnswer:
    slug: str
    name: str
    error: str | None
    seats: list[dict]  # name, wind, score, limit, lines, net
    payments: list[dict]


def under_rules(seating: Seating, outcome: Outcome, pot: int, names: dict[int, str],
                rules: list[HouseRule]) -> list[RuleAnswer]:
    """The hand under each rule (with the rule that scores its goulash hands)."""
    answers = []
    for rule, rules_for in zip(rules, session_rules(frozen_rules(rules)), strict=True):
        answers.append(_answer(rule, rules_for, seating, outcome, pot, names))
    return answers


def _answer(rule, rules_for: SessionRules, seating, outcome, pot, names) -> RuleAnswer:
    try:
        computed = compute_hand(rules_for, seating, outcome, pot)
    except HandInputError as error:
        return RuleAnswer(rule.slug, rule.name, reason(error.errors), [], [])
    by_wind = seating.seat_ids
    seats = []
    for wind, scored in computed.seats.items():
        seats.append({
            "name": names.get(by_wind[wind], wind), "wind": WIND_NAMES[wind],
            "score": scored.score, "quick": scored.kind == "quick",
            "limit": getattr(scored.result, "limit", None),
            "lines": score_lines(scored.result),
            "net": computed.settlement.net.get(wind, 0),
        })

    def who(party: str) -> str:
        return "the pot" if party == "pot" else names.get(by_wind[party], party)

    payments = [{"payer": who(p.payer), "payee": who(p.payee), "amount": p.amount, "why": p.why}
                for p in computed.settlement.payments]
    return RuleAnswer(rule.slug, rule.name, None, seats, payments)


def recorded_hand_under_rules(hand: Hand, rules: list[HouseRule]) -> list[RuleAnswer]:
    """A recorded hand with the seating it was played with and the pot it started with."""
    table = hand.table
    recorded = next(h for h in recorded_hands([table.pk])[table.pk] if h.id == hand.pk)
    stored = (hand.computed or {}).get("seating")
    seating = Seating.from_json(stored) if stored else Seating(
        {s: e["wind"] for s, e in recorded.entries.items()}, recorded.prevailing_wind,
        recorded.goulash, False, recorded.dealer)
    names = {s.id: s.name for s in seats_of(table)}
    pot = (hand.computed or {}).get("pot_before", 0)
    return under_rules(seating, recorded.outcome(seating), pot, names, rules)
