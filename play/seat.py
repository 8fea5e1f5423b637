"""What settlement needs of one seat at a finished hand, from what was entered for it: a full
hand scored by the scoring engine, or a quick entry (the score the table agreed, with the kongs
and flowers where the house rule pays for them). Both the club tables (``play.hand``) and the
public settle calculator (``settlements.serializers``) build a hand at the table from these."""

from __future__ import annotations

from dataclasses import dataclass

from play.entry import quick_problems
from play.errors import HandInputError
from scoring.engine import Hand, HouseRule, ScoreResult, Win, score_hand
from settlements.engine import HandAtTable, Penalty


@dataclass(frozen=True)
class SeatFacts:
    score: int
    kongs: tuple[str, ...] = ()
    bonus: tuple[str, ...] = ()
    win: Win | None = None
    result: ScoreResult | None = None  # None for a quick entry

    @property
    def items(self) -> frozenset[str]:
        return self.result.item_codes if self.result else frozenset()


def quick_seat(data: dict) -> SeatFacts:
    """A quick entry; ``HandInputError`` (field paths within the seat) when it is not one."""
    if problems := quick_problems(data):
        raise HandInputError(problems)
    return quick_facts(data)


def quick_facts(data: dict) -> SeatFacts:
    """A quick entry already checked at the door (``play.check_entry`` when it was entered)."""
    return SeatFacts(data["score"], tuple(data.get("kongs", ())), tuple(data.get("bonus", ())))


# A minimum's measure in words (as the scoring engine words a hand's own minimum).
_MEASURE_WORDS = {"points": "points", "doubles": "doubles", "score": "points in all"}


def quick_minimum_problem(rule: HouseRule, score: int, goulash: bool) -> str | None:
    """Why a winner's agreed score cannot be a Mah Jong under ``rule``'s minimum to go out
    (``scoring.go_out_minimum``, or ``goulash_go_out_minimum`` in a goulash), as the scoring
    engine holds a hand entered as tiles; None when it may be.

    A typed score is the hand's points doubled (and capped), so it is never below its points:
    a score under a minimum of points or of points in all cannot reach it. A typed score says
    nothing of doubles, so a minimum of doubles is met unless the rule has no doubles at all
    (one alternative met is enough, as for tiles: "4 doubles or 500 points")."""
    params = rule.scoring
    in_goulash = goulash and params.goulash_go_out_minimum is not None
    thresholds = params.goulash_go_out_minimum if in_goulash else params.go_out_minimum
    if not thresholds:
        return None

    def may_reach(measure: str, threshold: int) -> bool:
        if measure == "doubles":
            return params.use_doubles or threshold <= 0
        return score >= threshold

    if any(may_reach(measure, threshold) for measure, threshold in thresholds):
        return None
    needs = " or ".join(f"{threshold} {_MEASURE_WORDS[measure]}"
                        for measure, threshold in thresholds)
    where = " in a goulash" if in_goulash else ""
    return (f"Not a valid Mah Jong under this house rule: it needs at least {needs}{where}, "
            f"and the agreed score is {score}. Check the score the table agreed; a hand that "
            "did not reach the minimum could not go out, so record what the table played on "
            "to (or a wall game).")


def full_seat(hand: Hand, rule: HouseRule) -> SeatFacts:
    """A hand entered tile by tile, scored under the house rule (``HandError`` if it cannot
    be). Whether a winner's hand reaches the rule's minimum is the caller's to say."""
    result = score_hand(hand, rule)
    return SeatFacts(
        result.score,
        tuple(m.how or "claimed" for m in hand.melds if m.kind == "kong"),
        tuple(hand.bonus),
        hand.win,
        result,
    )


def table_of(seats: dict[str, SeatFacts], *, winner: str | None, discarder: str | None,
             draw: bool, goulash: bool, dealer: str, pot: int, prevailing_wind: str,
             win_from: str | None = None, kong_replacement: bool = False,
             penalties: tuple[Penalty, ...] = (), clean_hands=frozenset(),
             after_draw: bool | None = None, discarder_unknown: bool = False) -> HandAtTable:
    """The finished hand as the settlement engine takes it. How the winner won defaults to
    their hand's own ``win.from``; a win with a kong's replacement tile is either said
    (``kong_replacement``) or read off the winner's hand."""
    won = seats.get(winner) if winner else None
    win = won.win if won else None
    if win_from is None and win is not None:
        win_from = win.source
    return HandAtTable(
        seats=tuple(w for w in ("E", "S", "W", "N") if w in seats),
        scores={wind: s.score for wind, s in seats.items()},
        winner=winner,
        discarder=discarder,
        discarder_unknown=discarder_unknown,
        draw=draw,
        goulash=goulash,
        dealer=dealer,
        pot=pot,
        kongs={wind: s.kongs for wind, s in seats.items() if s.kongs},
        bonus={wind: s.bonus for wind, s in seats.items() if s.bonus},
        win_source=win_from if winner else None,
        kong_replacement_win=kong_replacement or bool(win and win.kong_replacement),
        penalties=penalties,
        winner_items=won.items if won else frozenset(),
        prevailing_wind=prevailing_wind,
        clean_hands=frozenset(clean_hands),
        after_draw=after_draw,
    )
