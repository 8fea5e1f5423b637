"""What a scorer enters for one hand, checked once for every way in (the record and correct
pages, the club API, corrections, the public settle API).

The entry shape, keyed by the seat winds of the hand being recorded::

    {"winner": "S" | None, "discarder": "W" | "unknown" | None, "draw": False,
     "win_from": "wall" | "discard" | "kong_box" | "robbed_kong" | None,
     "goulash": None (as the seating says) | bool, "number": None | expected hand number,
     "seats": {"E": {<contract hand JSON>} | {"score": N}, ...},
     "facts": {"penalties": [...], "clean_hands": [...]}}

``"discarder": "unknown"`` (``UNKNOWN``): the hand was won with another player's tile (a
discard, or a robbed kong) but nobody knows whose: a table that does not remember, or an
import from KDE Kajongg, which stores no discarder. It is stored as a win on a discard with no
discarder, and settled as ``settlements.engine`` documents for ``discarder_unknown``: nobody is
charged as the discarder, every loser pays the winner (under BMJA exactly what a named
discarder gives; where the discarder pays more, every loser pays as on a self-drawn hand, as
Kajongg pays).

A seat is a full hand (the contract's hand JSON, scored by the scoring engine) or a quick entry:
the score the table agreed, with the kongs and flowers where the house rule pays for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from play.errors import HandInputError
from play.seating import Seating
from settlements.engine import PENALTIES

WIN_SOURCES = ("wall", "discard", "kong_box", "robbed_kong")
GIVEN = ("discard", "robbed_kong")  # won with another player's tile: there is a discarder
UNKNOWN = "unknown"  # the discarder of a hand won on another's tile, when nobody knows who
ENTRY_KEYS = {"winner", "discarder", "draw", "win_from", "goulash", "number", "seats", "facts"}
QUICK_KEYS = {"score", "kongs", "bonus"}
KONG_HOWS = ("concealed", "claimed", "added")
BONUS_TILES = ("f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4")
# No hand is worth more: a typed score beyond it is a slip of the finger, not a limit hand.
MAX_SCORE = 10_000_000
FACTS = {"penalties", "clean_hands"}
PENALTY_KEYS = {"kind", "offender", "claimant", "amount"}
MAX_PENALTIES = 8  # more than any hand has seen; each is a payment line per player


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
    # Won on another's tile, whose nobody knows (``discarder`` is then None).
    discarder_unknown: bool = False

    @property
    def discarder_entered(self) -> str | None:
        """The discarder as the entry gives it: a wind, ``"unknown"`` or None."""
        return UNKNOWN if self.discarder_unknown else self.discarder


def discarder_unknown(winner, discarder, win_source: str | None) -> bool:
    """Whether a stored hand's discarder was unknown: won on another player's tile (a
    discard or a robbed kong) with no discarder stored."""
    return bool(winner) and not discarder and (win_source or "") in GIVEN


def is_quick(data: Any) -> bool:
    """Quick entry: the agreed score, with the kongs and flowers where the house rule pays
    for them (as in the settle API's quick entries)."""
    return isinstance(data, dict) and "score" in data and set(data) <= QUICK_KEYS


def entry_kind(data: Any) -> str:
    """What a seat's entry is, as stored with it and shown in every answer: "quick" or
    "full"."""
    return "quick" if is_quick(data) else "full"


def quick_problems(data: dict) -> dict[str, list[str]]:
    """What is wrong with a quick entry, by field (empty when nothing is)."""
    problems: dict[str, list[str]] = {}
    for key in sorted(set(data) - QUICK_KEYS):
        problems[key] = [
            'A quick entry is {"score": N}, with "kongs" and "bonus" where the house rule pays '
            "for them; give the full hand for anything else."
        ]
    score = data.get("score")
    if not isinstance(score, int) or isinstance(score, bool) or not 0 <= score <= MAX_SCORE:
        problems["score"] = [f"A whole number of points, from 0 to {MAX_SCORE:,}."]
    kongs, bonus = data.get("kongs", []), data.get("bonus", [])
    if not isinstance(kongs, list) or len(kongs) > 4 or any(k not in KONG_HOWS for k in kongs):
        problems["kongs"] = [f"A list of at most 4 kongs, each one of {', '.join(KONG_HOWS)}."]
    if (not isinstance(bonus, list) or any(t not in BONUS_TILES for t in bonus)
            or len(set(bonus)) != len(bonus)):
        problems["bonus"] = ["A list of flowers and seasons, f1-f4 and s1-s4, each once."]
    return problems


def fact_problems(facts: dict, winds: tuple[str, ...]) -> dict[str, list[str]]:
    """Extra facts settlement needs: ``penalties`` (004 Sheet 30, 000's dead hand) and
    ``clean_hands`` (000's count), by the winds of the hand."""
    problems: dict[str, list[str]] = {}
    # Written by corrections, never entered: seat swaps, a seating kept as the table played.
    for key in facts.keys() - FACTS - {"swap_seats", "seating_as_recorded"}:
        problems[key] = [f"Unknown fact; use {', '.join(sorted(FACTS))}."]
    clean = facts.get("clean_hands", [])
    if (not isinstance(clean, list) or any(w not in winds for w in clean)
            or len(clean) != len(set(clean))):
        problems["clean_hands"] = [f"A list of winds at the table, each once: {'/'.join(winds)}."]
    penalties = facts.get("penalties", [])
    if isinstance(penalties, list) and len(penalties) > MAX_PENALTIES:
        # Each one is settled and stored: 10,000 of them made one hand 30,006 payment lines.
        problems["penalties"] = [f"At most {MAX_PENALTIES} penalties in one hand; record the "
                                 "others against the next hand."]
    elif not isinstance(penalties, list) or not all(
        isinstance(p, dict) and set(p) <= PENALTY_KEYS
        and isinstance(p.get("kind"), str) and p["kind"] in PENALTIES
        and p.get("offender") in winds and p.get("claimant") in (None, *winds)
        and (p.get("amount") is None or (isinstance(p["amount"], int)
                                         and not isinstance(p["amount"], bool)
                                         and 0 <= p["amount"] <= MAX_SCORE))
        for p in penalties
    ):
        problems["penalties"] = [
            f"A list of {{kind, offender, claimant, amount}}: kind one of "
            f"{', '.join(sorted(PENALTIES))}; offender and claimant winds at the table."
        ]
    return problems


def check_entry(entry: Any, seating: Seating) -> Outcome:
    """Check the entry's shape against the seating of the hand; every problem at once
    (``HandInputError`` with field paths)."""
    if not isinstance(entry, dict):
        raise HandInputError({"non_field_errors": ["Send the hand as a JSON object."]})
    errors: dict[str, Any] = {}

    def err(path: str, message: str) -> None:
        errors.setdefault(path, []).append(message)

    for key in entry.keys() - ENTRY_KEYS:
        err(key, f"Unknown field; use {', '.join(sorted(ENTRY_KEYS))}.")
    winds = seating.winds_in_play
    names = "/".join(winds)
    winner, discarder = entry.get("winner"), entry.get("discarder")
    draw = entry.get("draw", False)
    win_from = entry.get("win_from")
    goulash = entry.get("goulash")
    if not isinstance(draw, bool):
        err("draw", "Use true for a wall game (no one went Mah Jong), else false.")
        draw = False
    if goulash is not None and not isinstance(goulash, bool):
        err("goulash", "Use true or false, or leave it out to follow the seating.")
        goulash = None
    unknown = discarder == UNKNOWN
    if unknown:
        discarder = None
    for name, value in (("winner", winner), ("discarder", discarder)):
        if value is not None and value not in winds:
            err(name, f"{value!r} is not a wind at this table in this hand; use {names}"
                f"{', ' + repr(UNKNOWN) if name == 'discarder' else ''} or null.")
    if win_from is not None and win_from not in WIN_SOURCES:
        err("win_from", f"{win_from!r} is not a way to win; use {', '.join(WIN_SOURCES)}.")
    if draw and (winner or discarder or unknown):
        err("draw", "A wall game has no winner and no discarder: leave them null, or set "
            "draw to false.")
    if not draw and not winner and "winner" not in errors:
        err("winner", f"Say who went Mah Jong ({names}), or set draw to true for a wall game.")
    if winner and discarder and winner == discarder:
        err("discarder", "The winner cannot have discarded their own winning tile.")
    if winner and "win_from" not in errors:
        win_from = win_from or ("discard" if discarder or unknown else "wall")
        if win_from in GIVEN and not discarder and not unknown:
            err("discarder", f"Won by {win_from.replace('_', ' ')}: say who gave the tile, "
                f"or {UNKNOWN!r} when nobody knows.")
        if win_from not in GIVEN and (discarder or unknown):
            err("discarder", f"A tile from the {'wall' if win_from == 'wall' else 'kong box'} "
                "has no discarder: leave it null, or say the hand was won on a discard.")
    elif not winner:
        win_from = None
        unknown = False
    seats = entry.get("seats")
    if not isinstance(seats, dict):
        err("seats", f"Give each seat's hand by wind: {{{', '.join(repr(w) + ': ...' for w in winds)}}}.")
        seats = {}
    elif seat_errors := _seat_problems(seats, winds):
        errors["seats"] = seat_errors
    facts = entry.get("facts") or {}
    if not isinstance(facts, dict):
        err("facts", "Give an object, or leave it out.")
        facts = {}
    elif problems := fact_problems(facts, winds):
        errors["facts"] = problems
    if errors:
        raise HandInputError(errors)
    return Outcome(
        winner=winner,
        discarder=discarder,
        draw=draw,
        win_from=win_from,
        goulash=seating.goulash if goulash is None else goulash,
        seats={w: seats[w] for w in winds},
        facts=facts,
        discarder_unknown=unknown and win_from in GIVEN,
    )


def _seat_problems(seats: dict, winds: tuple[str, ...]) -> dict[str, Any]:
    names = "/".join(winds)
    problems: dict[str, Any] = {}
    for wind in winds:
        if wind not in seats:
            problems[wind] = [
                'Give this seat\'s hand (the tiles) or the agreed score as {"score": N}.'
            ]
    for wind, data in seats.items():
        if wind not in winds:
            problems[wind] = [f"No one plays {wind!r} in this hand; the winds are {names}."]
        elif not isinstance(data, dict):
            problems[wind] = ['Give a hand object, or {"score": N}.']
        elif "score" in data and (quick := quick_problems(data)):
            problems[wind] = quick
    return problems


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
