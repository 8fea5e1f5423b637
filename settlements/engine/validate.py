"""Refuse a hand that cannot have happened, saying which field is wrong and how to mend it.

Paths are the API's field names (``winner``, ``hands.E``, ``penalties.0.offender``) so the
API, the ``settle`` command and the session engine can all show them as they are.
"""

from __future__ import annotations

from scoring.engine.rules.model import HouseRule
from settlements.engine.penalties import (
    NEEDS_CLAIMANT,
    PAYS_FOR_ALL,
    PENALTIES,
    false_mahjong_amount,
)
from settlements.engine.schemes import SETTLEMENT_SCHEMES
from settlements.engine.table import (
    FLOWERS,
    KONG_HOWS,
    SEASONS,
    WIN_SOURCES,
    WINDS,
    HandAtTable,
    SettlementInputError,
)


def seat_counts(rule: HouseRule) -> tuple[int, ...]:
    """How many seats are filled: a five-player game has four at the table, one sitting out."""
    return (4,) if rule.scoring.players == 5 else (rule.scoring.players,)


def has_pot(rule: HouseRule) -> bool:
    p = rule.payment
    return bool(p.goulash_pot_per_player or p.kitty_per_player or p.kitty_after_another_draw)


def check_table(table: HandAtTable, rule: HouseRule) -> None:
    errors: dict[str, list[str]] = {}

    def err(path: str, message: str) -> None:
        errors.setdefault(path, []).append(message)

    seats = table.seats
    if rule.payment.scheme not in SETTLEMENT_SCHEMES:
        err("rules", f"House rule {rule.slug!r} names an unknown payment scheme "
                     f"{rule.payment.scheme!r}; use one of {', '.join(sorted(SETTLEMENT_SCHEMES))}.")
    if len(set(seats)) != len(seats) or not set(seats) <= set(WINDS):
        err("hands", "Key the hands by seat wind: E, S, W, N, each once.")
    elif "E" not in seats:
        err("hands", "East must be at the table: give a hand for E.")
    if len(seats) not in seat_counts(rule):
        want = seat_counts(rule)[0]
        mend = (f"choose a house rule for {len(seats)} players" if 2 <= len(seats) <= 4
                else "mah-jong is played by 2, 3 or 4 at the table")
        err("hands", f"House rule {rule.slug!r} is played with {want} at the table, "
                     f"but {len(seats)} hands were given; give {want}, or {mend}.")
    for seat in seats:
        score = table.scores.get(seat)
        if not isinstance(score, int) or isinstance(score, bool) or score < 0:
            err(f"hands.{seat}.score", "A score is a whole number of points, 0 or more.")

    def at_table(name: str, seat: str | None) -> bool:
        if seat is not None and seat not in seats:
            err(name, f"{seat!r} is not at the table; use one of {', '.join(seats)}.")
            return False
        return seat is not None

    has_winner = at_table("winner", table.winner)
    has_discarder = at_table("discarder", table.discarder)
    if table.draw and table.winner is not None:
        err("draw", "A wall game (draw) has no winner: set winner to null or draw to false.")
    if not table.draw and table.winner is None:
        err("winner", "Name the seat that went Mah Jong, or set draw to true for a wall game.")
    if has_discarder and table.discarder == table.winner:
        err("discarder", "The winner cannot have discarded the winning tile: name another seat.")
    if table.draw and (table.discarder is not None or table.discarder_unknown):
        err("discarder", "A wall game has no winning discard: set discarder to null.")
    if table.win_source is not None and table.win_source not in WIN_SOURCES:
        err("win_from", f"Use one of {', '.join(WIN_SOURCES)}.")
    elif has_winner:
        if table.self_drawn and has_discarder:
            err("discarder", f"The winning tile came from the {(table.source or '').replace('_', ' ')}, "
                             "so nobody discarded it: set discarder to null.")
        if not table.self_drawn and not has_discarder and not table.discarder_unknown:
            err("discarder", "The winning tile was another player's: name who gave it, or "
                             "say the discarder is unknown.")
        if table.discarder_unknown and (has_discarder or table.self_drawn):
            err("discarder", "The discarder is unknown only for a tile another player gave "
                             "(a discard or a robbed kong), and then no discarder is named.")
        if table.kong_replacement_win and table.source != "kong_box":
            err("win_from", "A win on a kong's replacement tile comes from the kong box.")
    at_table("dealer", table.dealer)
    if table.prevailing_wind not in WINDS:
        err("prevailing_wind", "Use E, S, W or N.")

    if not isinstance(table.pot, int) or table.pot < 0:
        err("pot", "The pot holds a whole number, 0 or more.")
    elif table.pot and not has_pot(rule):
        err("pot", f"House rule {rule.slug!r} has no goulash pot or kitty: leave pot at 0.")

    for seat, hows in table.kongs.items():
        if at_table(f"kongs.{seat}", seat):
            for i, how in enumerate(hows):
                if how not in KONG_HOWS:
                    err(f"kongs.{seat}.{i}", f"A kong is {', '.join(KONG_HOWS)}.")
            if len(hows) > 4:
                err(f"kongs.{seat}", "A hand holds at most four kongs.")
    for seat, tiles in table.bonus.items():
        if at_table(f"bonus.{seat}", seat):
            for i, tile in enumerate(tiles):
                if tile not in FLOWERS + SEASONS:
                    err(f"bonus.{seat}.{i}", "Bonus tiles are flowers f1-f4 and seasons s1-s4.")
            if len(set(tiles)) != len(tiles):
                err(f"bonus.{seat}", "Each flower and season exists once.")
    for seat in sorted(table.clean_hands):
        if at_table("clean_hands", seat) and seat == table.winner:
            err("clean_hands", "The Mah Jong hand is paid as the win, not as a clean-hand count.")

    for i, pen in enumerate(table.penalties):
        path = f"penalties.{i}"
        if pen.kind not in PENALTIES:
            err(f"{path}.kind", f"Use one of {', '.join(sorted(PENALTIES))}.")
            continue
        at_table(f"{path}.offender", pen.offender)
        if pen.amount is not None and (not isinstance(pen.amount, int) or pen.amount < 0):
            err(f"{path}.amount", "A penalty is a whole number, 0 or more.")
        if pen.kind in PAYS_FOR_ALL:
            if table.winner is None:
                err(f"{path}.kind", "This penalty pays the Mah Jong player: the hand needs a winner.")
            elif pen.offender == table.winner:
                err(f"{path}.offender", "The Mah Jong player cannot be the offender here.")
        if pen.kind == "false_naming_mahjong" and pen.offender != table.discarder:
            err(f"{path}.offender", "A falsely named Mah Jong discard is paid for by its discarder.")
        if pen.kind in NEEDS_CLAIMANT:
            if pen.claimant is None:
                err(f"{path}.claimant", "Name the seat that claimed the wrongly named discard.")
            elif at_table(f"{path}.claimant", pen.claimant) and pen.claimant == pen.offender:
                err(f"{path}.claimant", "The claimant and the offender must be different seats.")
        if pen.kind == "false_mahjong":
            if pen.offender == table.winner:
                err(f"{path}.offender", "The Mah Jong player's call was not false.")
            if false_mahjong_amount(rule, pen.amount) is None:
                err(f"{path}.amount", f"House rule {rule.slug!r} has no limit: give the amount.")
    if errors:
        raise SettlementInputError(errors)
