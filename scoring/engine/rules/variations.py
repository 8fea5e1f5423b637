"""The variations of play (rule document ``001``) as options on any house rule.

Each option is a set of overrides applied with ``HouseRule.derive``, so a variant is new data
on top of its base, never a branch in the engines: the goulash with wild tiles, the games for
two, three and five players, and another house rule scoring the goulash hands.
"""

from __future__ import annotations

from typing import Any

from .model import HouseRule

SOURCE = "001_45f7a47e7ab6ae61.txt"
WILD_TILES = ("b2", "joker")
PLAYERS = (2, 3, 4, 5)


def wild_goulash_overrides(tiles: str = "b2") -> dict[str, Any]:
    """001 "How wild tiles can be used": in a goulash the four 2 bamboo (or added jokers) are
    wild; one in a pair or pung, at most two in a kong, three or four in a special hand (never
    a set of wild tiles only); one more in a pair or pung when a wild tile drawn gives Mah Jong;
    no chows except in a special hand (001 "Playing the game")."""
    if tiles not in WILD_TILES:
        raise ValueError(f"Wild tiles are {' or '.join(WILD_TILES)}, not {tiles!r}.")
    return {
        "scoring": {
            "wild_tiles": tiles,
            "wild_max_in_pair": 1,
            "wild_max_in_pung": 1,
            "wild_max_in_kong": 2,
            "wild_max_in_special": 4,
            "wild_extra_on_wild_win": True,
            "goulash_max_chows": 0,
        }
    }


def players_overrides(rule: HouseRule, players: int) -> dict[str, Any]:
    """001 "The game for 2/3/5 players" as overrides of ``rule``.

    Two players: no chows; at least 4 doubles or 500 points to go out (002's own list says
    "4 pairs", read as 001's 4 doubles; a points-only house rule, which has no doubles and no
    500-point hands, keeps its own minimum); East neither
    pays nor receives double; a winner whose score is lower pays the difference. Three
    players: no chows. Five players: four play and one sits out (the rotation retires an East
    who does not win); tallies are shared equally among five.
    """
    if players not in PLAYERS:
        raise ValueError(f"Mah-jong is played by {', '.join(map(str, PLAYERS))} players.")
    scoring: dict[str, Any] = {"players": players}
    payment: dict[str, Any] = {}
    if players in (2, 3):
        scoring.update(max_chows=0, goulash_max_chows=0)
    if players == 2:
        if rule.scoring.use_doubles:
            scoring["go_out_minimum"] = [["doubles", 4], ["score", 500]]
        payment.update(east_multiplier=1, winner_pays_difference_if_lower=True)
    if players == 5 and rule.payment.starting_tally:
        payment["starting_tally"] = rule.payment.starting_tally * 4 // 5
    overrides: dict[str, Any] = {"scoring": scoring}
    if payment:
        overrides["payment"] = payment
    return overrides


def with_players(rule: HouseRule, players: int, slug: str | None = None) -> HouseRule:
    """``rule`` played by ``players`` (001)."""
    if players == 4:
        return rule
    name = f"{rule.name}, {players} players"
    return rule.derive(slug or f"{rule.slug}-{players}-players",
                       {**players_overrides(rule, players), "name": name,
                        "description": f"{rule.description} Played by {players} players "
                                       f"as in {SOURCE}.{_players_reading(rule, players)}"})


def _players_reading(rule: HouseRule, players: int) -> str:
    """The reading a two-player table takes, in words for the description."""
    if players != 2 or not rule.scoring.use_doubles:
        return ""
    return (" To go out a hand needs at least 4 doubles or 500 points (scoring.go_out_minimum):"
            " 002's own list says '4 pairs or 500 points', read as 001's 4 doubles; a club that"
            " reads it otherwise changes go_out_minimum.")


def with_wild_goulash(rule: HouseRule, tiles: str = "b2", slug: str | None = None) -> HouseRule:
    """``rule`` whose goulash hands use wild tiles (001)."""
    words = "jokers" if tiles == "joker" else "the four 2 bamboo"
    return rule.derive(slug or f"{rule.slug}-wild-{tiles}",
                       {**wild_goulash_overrides(tiles),
                        "name": f"{rule.name}, goulash with {words} wild",
                        "description": f"{rule.description} In a goulash {words} are wild "
                                       f"({SOURCE})."})


def with_goulash_rule(rule: HouseRule, goulash_rule: str, slug: str | None = None) -> HouseRule:
    """``rule`` whose goulash hands are scored and paid by the house rule ``goulash_rule``
    (e.g. ``west-wind-goulash``)."""
    return rule.derive(slug or f"{rule.slug}-{goulash_rule}", {
        "goulash_rule": goulash_rule,
        "name": f"{rule.name}, goulash by {goulash_rule}",
    })


def house_rules() -> tuple[HouseRule, ...]:
    """Named built-in combinations a club is likely to pick as they are."""
    from .bmja import BMJA
    from .guide import GUIDE

    return (
        with_wild_goulash(BMJA, "joker", slug="bmja-jokers"),
        with_goulash_rule(BMJA, "west-wind-goulash", slug="bmja-west-wind"),
        with_players(BMJA, 2),
        with_players(BMJA, 3),
        with_players(BMJA, 5),
        with_players(GUIDE, 2),
        with_players(GUIDE, 3),
        with_players(GUIDE, 5),
    )
