"""Payments made besides the Mah Jong itself, each switched on by a value of ``PaymentParams``.

Every step is a small function ``step(ledger, table, rule)``; a house rule whose params leave a
step at zero simply gets no payments from it. ``settle.py`` runs them in ``STEPS_BEFORE`` and
``STEPS_AFTER`` order around the scheme.
"""

from __future__ import annotations

from scoring.engine.rules.model import HouseRule
from settlements.engine.ledger import BOUQUET, COUNT, KONG, POT_STAKE, POT_WIN, Ledger
from settlements.engine.schemes import dealer_factor
from settlements.engine.table import FLOWERS, POT, SEASONS, HandAtTable

KONG_WORDS = {"concealed": "hidden kong", "claimed": "kong by discard", "added": "kong added to an exposed pung"}


def put_up_stakes(ledger: Ledger, table: HandAtTable, stake: int, what: str) -> None:
    for seat in table.seats:
        ledger.pay(seat, POT, stake, f"{what}: {stake} each", POT_STAKE)


def goulash_pot(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """003 p.8: a goulash after a draw starts with 5 chips each in the pot; a goulash replayed
    after another goulash without a winner adds nothing (the pot is not empty then)."""
    stake = rule.payment.goulash_pot_per_player
    if stake and table.goulash and table.follows_draw and table.pot == 0:
        put_up_stakes(ledger, table, stake, "goulash pot")


def kitty(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """000 'The Kitty': a goulash played after a draw starts with 500 each in the kitty."""
    stake = rule.payment.kitty_per_player
    if stake and table.goulash and table.follows_draw and table.pot == 0:
        put_up_stakes(ledger, table, stake, "kitty")


def kitty_after_another_draw(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """000 'The Kitty': if the goulash is another draw, a further 1000 (each) is added."""
    stake = rule.payment.kitty_after_another_draw
    if stake and table.goulash and table.winner is None:
        put_up_stakes(ledger, table, stake, "kitty after another draw")


def winner_takes_pot(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """003 p.8 'winner takes the pot'; 000 'the outright winner claims the Kitty'."""
    if table.winner is not None and ledger.pot > 0:
        ledger.pay(POT, table.winner, ledger.pot, "takes the pot", POT_WIN)


def kong_chips(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """003 p.3: chips for each kong from every other player, by how it was made (hidden 3,
    by discard 2, added 1). A kong whose replacement tile wins (listed last) earns none."""
    p = rule.payment
    chips = {"concealed": p.kong_chips_concealed, "claimed": p.kong_chips_claimed,
             "added": p.kong_chips_added}
    if not any(chips.values()):
        return
    for owner in table.seats:
        hows = list(table.kongs.get(owner, ()))
        if owner == table.winner and table.kong_replacement_win and hows:
            hows.pop()  # 003: "Kong to Mahjong" adds points instead of chips
        for how in hows:
            for payer in table.seats:
                if payer != owner:
                    ledger.pay(payer, owner, chips[how],
                               f"{KONG_WORDS[how]}: {chips[how]} from each", KONG)


def bouquet_sets(bonus: tuple[str, ...]) -> int:
    tiles = set(bonus)
    return int(tiles >= set(FLOWERS)) + int(tiles >= set(SEASONS))


def bouquets(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """000 Flowers/Seasons: a real bouquet 1000 from all, a double bouquet 5000 from all; the
    person going Mah Jong does not pay."""
    p = rule.payment
    for holder in table.seats:
        sets = bouquet_sets(table.bonus.get(holder, ()))
        if not sets:
            continue
        if sets == 2 and p.double_bouquet_payment:
            amount, words = p.double_bouquet_payment, "double bouquet"
        else:
            amount, words = p.bouquet_payment * sets, "bouquet" if sets == 1 else "two bouquets"
        for payer in table.seats:
            if payer not in (holder, table.winner):
                ledger.pay(payer, holder, amount,
                           f"{words}; the Mah Jong player does not pay", BOUQUET)


def clean_hand_counts(ledger: Ledger, table: HandAtTable, rule: HouseRule) -> None:
    """000 Clean hands: a losing clean hand covering the minimum doubles is paid (a count) by
    the other losers, East paying or receiving double."""
    p = rule.payment
    if not (p.clean_hand_pays_score or p.clean_hand_count):
        return
    for holder in table.seats:
        if holder not in table.clean_hands or holder == table.winner:
            continue
        count = table.score(holder) if p.clean_hand_pays_score else p.clean_hand_count
        for payer in table.seats:
            if payer not in (holder, table.winner):
                m, words = dealer_factor(table, rule, payer, holder)
                ledger.pay(payer, holder, count * m, f"count for a clean hand{words}", COUNT)


STEPS_BEFORE = (goulash_pot, kitty)
STEPS_AFTER = (winner_takes_pot, kong_chips, bouquets, clean_hand_counts, kitty_after_another_draw)
