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


def full_seat(hand: Hand, rule: HouseRule) -> SeatFacts:
    """A hand entered tile by tile, scored under the house rule (``HandError`` if it cannot
    be). Whether a winner's hand reaches the rule's minimum is the caller's to say."""
    result = score_hand(hand, rule)
    return SeatFacts(
        result.score,
        tuple(m.how for m in hand.melds if m.kind == "kong"),
        tuple(hand.bonus),
        hand.win,
        result,
    )


def table_of(seats: dict[str, SeatFacts], *, winner: str | None, discarder: str | None,
             draw: bool, goulash: bool, dealer: str, pot: int, prevailing_wind: str,
             win_from: str | None = None, kong_replacement: bool = False,
             penalties: tuple[Penalty, ...] = (), clean_hands=frozenset(),
             after_draw: bool | None = None) -> HandAtTable:
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
