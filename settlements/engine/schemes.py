"""Settlement schemes: who pays the Mah Jong player, and how the others settle among themselves.

A house rule names its scheme in ``payment.scheme``; everything else a club may vary is a
value in ``PaymentParams`` read by the scheme or by the shared steps in ``steps.py`` (kong
chips, bouquets, clean-hand counts, pots and kitties) and ``penalties.py``.

The values each built-in house rule needs (anything not listed is the dataclass default):

``bmja`` (004; 001's notes on East)
    payment: scheme="bmja", east_multiplier=2, losers_settle_differences=True,
    false_mahjong_penalty_limit_fraction=1/2, false_naming_penalty=50 (all defaults).
    rotation: scheme="bmja", dealer_repeats_on_win=True, dealer_repeats_on_draw=True,
    max_consecutive_dealer=3, goulash_passes_dealer=False, goulash_after_draw=True (defaults).

``guide`` (002)
    payment: scheme="winner_table", east_multiplier=2, discarder_multiplier=2,
    losers_settle_differences=False, starting_tally=2000.
    rotation: scheme="winner_deals", max_consecutive_dealer=None, goulash_after_draw=False,
    games_per_wind=4, wind_moves_on="after_games_per_wind".

``balsall-common`` (003)
    payment: scheme="discarder_pays", east_multiplier=1, discarder_multiplier=1,
    losers_settle_differences=False,
    points_to_payment=((0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 24), (6, 32), (7, 48),
    (8, 64), (9, 96), (10, 128)) (003 gives none: the usual Hong Kong table, a club sets its own),
    kong_chips_concealed=3, kong_chips_claimed=2, kong_chips_added=1,
    goulash_pot_per_player=5, goulash_pays_pot_only=True.
    rotation: scheme="dealer_repeats", max_consecutive_dealer=None, goulash_passes_dealer=True,
    goulash_after_draw=True.

``west-wind-goulash`` (000)
    payment: scheme="goulash_kitty", east_multiplier=2, losers_settle_differences=False,
    kitty_per_player=500, kitty_after_another_draw=1000 (per player), bouquet_payment=1000,
    double_bouquet_payment=5000, clean_hand_pays_score=True.
    rotation: scheme="bmja" (the club's BMJA seating), goulash_winds=("W",).

``001`` variations (on top of any of the above)
    two players: scoring.players=2, payment.east_multiplier=1,
    payment.winner_pays_difference_if_lower=True.
    three players: scoring.players=3. Five players: scoring.players=5 (four seats play; the
    rotation retires an East who does not win and seats the dreamer as North).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import combinations

from scoring.engine.rules.model import HouseRule
from settlements.engine.ledger import DIFFERENCE, MAHJONG, Ledger
from settlements.engine.table import HandAtTable

Scheme = Callable[[Ledger, HandAtTable, HouseRule], None]
SETTLEMENT_SCHEMES: dict[str, Scheme] = {}


def settlement_scheme(*names: str) -> Callable[[Scheme], Scheme]:
    def register(fn: Scheme) -> Scheme:
        for name in names:
            SETTLEMENT_SCHEMES[name] = fn
        return fn

    return register


# -- East (the dealer) pays and receives more -----------------------------------------------

def dealer_name(table: HandAtTable) -> str:
    return "East" if table.dealer == "E" else f"the dealer ({table.dealer})"


def times(multiplier: int) -> str:
    return {2: "double", 3: "treble"}.get(multiplier, f"{multiplier} times")


def dealer_factor(table: HandAtTable, rule: HouseRule, payer: str, payee: str) -> tuple[int, str]:
    """How many times ``payer`` pays ``payee`` because one of them deals, and the words for it."""
    m = rule.payment.east_multiplier
    if m == 1 or table.dealer not in (payer, payee):
        return 1, ""
    verb = "pays" if payer == table.dealer else "receives"
    return m, f"; {dealer_name(table)} {verb} {times(m)}"


# -- shared pieces ---------------------------------------------------------------------------

def everyone_pays_winner(ledger: Ledger, table: HandAtTable, rule: HouseRule, value: int,
                         what: str = "Mah Jong") -> None:
    winner = table.winner
    assert winner is not None, "only a hand with a winner pays one"
    for payer in table.losers:
        m, words = dealer_factor(table, rule, payer, winner)
        ledger.pay(payer, winner, value * m, f"{what}{words}", MAHJONG)


def losers_settle_differences(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """004/001: each pair of losing players settles the difference between their scores."""
    for a, b in combinations(table.losers, 2):
        high, low = (a, b) if table.score(a) >= table.score(b) else (b, a)
        diff = table.score(high) - table.score(low)
        m, words = dealer_factor(table, rule, low, high)
        ledger.pay(low, high, diff * m,
                   f"difference {table.score(high)} - {table.score(low)}{words}", DIFFERENCE)


def lower_winner_pays_difference(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """001, two players: a winner with the lower score pays the difference after being paid."""
    winner = table.winner
    assert winner is not None, "only a hand with a winner pays one"
    for loser in table.losers:
        diff = table.score(loser) - table.score(winner)
        m, words = dealer_factor(table, rule, winner, loser)
        ledger.pay(winner, loser, diff * m,
                   f"difference {table.score(loser)} - {table.score(winner)} "
                   f"(the winner's score was lower){words}", DIFFERENCE)


def points_to_payment(points: int, rule: HouseRule) -> int:
    """003: a hand's points turned into a payment by the house rule's table.

    Rows are (points, payment); a hand pays the row at or below its points, a hand above the
    last row pays the last row, one below the first row pays the first. No table: the score
    is the payment.
    """
    rows = sorted(rule.payment.points_to_payment)
    if not rows:
        return points
    index = bisect_right([p for p, _ in rows], points) - 1
    return rows[max(index, 0)][1]


def winner_paid_by_table(ledger: Ledger, table: HandAtTable, rule: HouseRule, value: int) -> None:
    """Self-drawn: every other player pays; on a discard only the discarder pays, more.

    Discarder unknown (``HandAtTable.discarder_unknown``): nobody can be singled out, so every
    loser pays the winner the hand's value (the dealer's factor as usual), as the self-drawn
    part of the scheme and as KDE Kajongg pays every hand whoever discarded. This is the
    reading that keeps a Kajongg game's totals its own balances; no extra for the discarder
    is charged to anyone."""
    if table.self_drawn:
        everyone_pays_winner(ledger, table, rule, value)
        return
    if table.discarder is None and table.discarder_unknown:
        everyone_pays_winner(ledger, table, rule, value,
                             "Mah Jong on a discard, the discarder unknown: everyone pays")
        return
    winner, discarder = table.winner, table.discarder
    assert winner is not None and discarder is not None, "a discard won: validate.py holds it"
    m, words = dealer_factor(table, rule, discarder, winner)
    d = rule.payment.discarder_multiplier
    extra = f"; the discarder pays {times(d)}" if d > 1 else ""
    ledger.pay(discarder, winner, value * d * m,
               f"Mah Jong on {discarder}'s discard{extra}{words}", MAHJONG)


# -- the schemes -----------------------------------------------------------------------------

@settlement_scheme("bmja", "goulash_kitty")
def all_pay_the_winner(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """004 (and 000's goulash round): everyone pays the winner's score, East double; the
    others settle their differences where the house rule says so. A wall game pays nothing.
    000's kitty, bouquets and clean-hand counts are shared steps switched on by its params."""
    if table.winner is None:
        return
    everyone_pays_winner(ledger, table, rule, table.score(table.winner))
    if rule.payment.winner_pays_difference_if_lower:
        lower_winner_pays_difference(ledger, table, rule)
    if rule.payment.losers_settle_differences:
        losers_settle_differences(ledger, table, rule)


@settlement_scheme("winner_table")
def winner_table(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """002 'Paying out points/tallies': only the winner is paid, by how the hand ended."""
    if table.winner is None:
        return
    winner_paid_by_table(ledger, table, rule, table.score(table.winner))


@settlement_scheme("discarder_pays")
def discarder_pays(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """003: self-drawn, everyone pays; on a discard only the discarder pays; points become a
    payment by the house rule's points-to-payment table."""
    if table.winner is None:
        return
    winner_paid_by_table(ledger, table, rule, points_to_payment(table.score(table.winner), rule))
