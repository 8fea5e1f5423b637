"""Two or more house rules side by side: every parameter and item, in words a club reads, and
which of them differ. Plain Python (no Django): house rules in, rows out.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any

from houserules.override_rules import part_words
from scoring.engine import HouseRule
from scoring.engine.rules.registry import REGISTRY

# What each parameter means, as a club would say it. A parameter missing here is still shown
# (under its own name), so a new parameter is never silently left out of a comparison.
LABELS: dict[str, str] = {
    "scoring.limit": "Limit (most a hand can score)",
    "scoring.cap_ordinary_hands": "Ordinary hands are capped at the limit",
    "scoring.only_winner_scores": "Only the player who goes Mah Jong scores",
    "scoring.use_doubles": "Doubles are counted",
    "scoring.max_chows": "Chows allowed in one hand",
    "scoring.goulash_max_chows": "Chows allowed in a goulash hand",
    "scoring.go_out_minimum": "Minimum to go Mah Jong",
    "scoring.goulash_go_out_minimum": "Minimum to go Mah Jong in a goulash",
    "scoring.limit_hand_adds_bonus_tiles": "Flowers and seasons add to a limit hand",
    "scoring.special_or_ordinary_if_greater": "A special hand scores its ordinary value if greater",
    "scoring.fishing_part_scores": "A hand fishing for a special hand scores part of the limit",
    "scoring.wild_tiles": "Wild tiles in a goulash",
    "scoring.wild_max_in_pair": "Wild tiles allowed in a pair",
    "scoring.wild_max_in_pung": "Wild tiles allowed in a pung",
    "scoring.wild_max_in_kong": "Wild tiles allowed in a kong",
    "scoring.wild_max_in_special": "Wild tiles allowed in a special hand",
    "scoring.wild_extra_on_wild_win": "A wild winning tile may add one more wild tile",
    "scoring.players": "Players at a table",
    "scoring.count_short_losing_hands": "A losing hand with too few tiles still scores what it holds",
    "payment.scheme": "How a Mah Jong is paid",
    "payment.east_multiplier": "East pays and receives (times)",
    "payment.losers_settle_differences": "The losers settle their differences",
    "payment.discarder_multiplier": "The discarder pays (times the score)",
    "payment.points_to_payment": "Points turned into chips",
    "payment.kong_chips_concealed": "Chips for a concealed kong",
    "payment.kong_chips_claimed": "Chips for a claimed kong",
    "payment.kong_chips_added": "Chips for an added kong",
    "payment.goulash_pot_per_player": "Goulash pot (each player puts in)",
    "payment.kitty_per_player": "Kitty after a wall game (each player puts in)",
    "payment.kitty_after_another_draw": "Added to the kitty after another wall game",
    "payment.bouquet_payment": "Bouquet payment",
    "payment.double_bouquet_payment": "Double bouquet payment",
    "payment.clean_hand_count": "Paid for a clean hand",
    "payment.starting_tally": "Tally each player starts with",
    "payment.false_mahjong_penalty_limit_fraction": "False Mah Jong penalty (of the limit, to each)",
    "payment.false_naming_penalty": "False naming penalty",
    "payment.goulash_pays_pot_only": "A goulash winner takes the pot only",
    "payment.winner_pays_difference_if_lower": "A winner with the lower score pays the difference (two players)",
    "payment.clean_hand_pays_score": "A clean hand is paid its own score",
    "rotation.scheme": "Who deals next",
    "rotation.dealer_repeats_on_win": "East deals again after winning",
    "rotation.dealer_repeats_on_draw": "East deals again after a wall game",
    "rotation.max_consecutive_dealer": "Most hands in a row as East",
    "rotation.goulash_passes_dealer": "The deal passes after a goulash",
    "rotation.goulash_after_draw": "A wall game is followed by a goulash",
    "rotation.games_per_wind": "Hands per wind of the round (at least)",
    "rotation.wind_moves_on": "The wind of the round moves on when the dealer loses",
    "rotation.goulash_winds": "Winds of the round played as goulash",
    "goulash_rule": "House rule for goulash hands",
}

SECTIONS = (("scoring", "Scoring"), ("payment", "Payments"), ("rotation", "Dealing and rounds"))
ITEM_FIELDS = (
    ("points", "points"), ("doubles", "doubles"), ("limit", "special hand worth"),
    ("who", "who scores it"), ("fishing_limit", "fishing for it scores"),
    ("fishing_doubles", "fishing doubles"), ("capped_at_limit", "capped at the limit"),
)
ABSENT = "not in this rule"
SCHEMES = {
    "payment.scheme": {"bmja": "all pay the winner, East double; losers settle differences",
                       "winner_table": "only the winner is paid, from a payment table",
                       "discarder_pays": "self-drawn: all pay; on a discard only the discarder",
                       "goulash_kitty": "as bmja, with a goulash kitty"},
    "rotation.scheme": {"bmja": "East passes unless East wins", "dealer_repeats":
                        "the dealer deals again after a win or wall game",
                        "winner_deals": "the winner deals"},
    "rotation.wind_moves_on": {"after_games_per_wind": "a game after those hands",
                               "at_games_per_wind": "the last of those hands or later"},
}
WHO = {"all": "every hand", "mahjong": "Mah Jong hand only", "losers": "losing hands only"}
# The yes/no details of a special hand (its rule function's options, ``special_hands.py``): the
# question a club answers, and what each answer reads as beside the hand's worth.
DETAILS: dict[str, tuple[str, str, str]] = {
    "concealed": ("All concealed (no exposed sets)", "all concealed", "exposed sets allowed"),
    "kongs": ("Kongs allowed among its pungs", "kongs allowed", "no kongs"),
    "dragon_pung_required": ("A pung of green dragons is required",
                             "a pung of green dragons required",
                             "no pung of green dragons needed"),
    "rest_one_suit": ("The other pung and the pair are of one suit", "the rest of one suit",
                      "the rest of any suits"),
}


def detail_options(item) -> list[tuple[str, bool, bool]]:
    """(name, default, value) of each yes/no option of a special hand's rule function, as the
    item has it (its ``args``, else the function's default)."""
    fn = REGISTRY.get(item.rule)
    if fn is None:
        return []
    args = dict(item.args)
    return [(name, p.default, bool(args.get(name, p.default)))
            for name, p in inspect.signature(fn.match).parameters.items()
            if isinstance(p.default, bool) and isinstance(args.get(name, p.default), bool)]


def detail_label(name: str) -> str:
    return DETAILS[name][0] if name in DETAILS else name.replace("_", " ").capitalize()


def detail_words(name: str, value: bool) -> str:
    if name in DETAILS:
        return DETAILS[name][1 if value else 2]
    return f"{name.replace('_', ' ')}: {'yes' if value else 'no'}"


@dataclass(frozen=True)
class Row:
    """One line of the side-by-side table: ``values`` in the order the rules were given."""

    section: str
    key: str
    label: str
    values: tuple[str, ...]
    differs: bool

    def to_json(self) -> dict:
        return {"section": self.section, "key": self.key, "label": self.label,
                "values": list(self.values), "differs": self.differs}


def words(value: Any, key: str = "") -> str:
    """A parameter's value as a club reads it."""
    if value is None:
        if key.endswith("limit") and key.startswith("scoring"):
            return "no limit"
        if "chows" in key:
            return "any number"
        if key.endswith("go_out_minimum"):
            return "as for other hands"
        if key.endswith("max_consecutive_dealer"):
            return "no maximum"
        return "none"
    if key in SCHEMES and value in SCHEMES[key]:
        return f"{SCHEMES[key][value]} ({value})"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return fraction_words(value)
    if isinstance(value, tuple):
        if not value:
            return "none"
        if key.endswith("go_out_minimum"):
            return " or ".join(f"{n} {measure}" for measure, n in value)
        if key.endswith("points_to_payment"):
            return ", ".join(f"{points} points: {pay}" for points, pay in value)
        return ", ".join(words(v) for v in value)
    return str(value)


def fraction_words(value: Fraction) -> str:
    return part_words(value)  # the words the form's and the API's refusals use too


def _parameter_rows(rules: list[HouseRule]) -> list[Row]:
    rows = []
    for section, title in SECTIONS:
        for f in fields(getattr(rules[0], section)):
            key = f"{section}.{f.name}"
            values = tuple(words(getattr(getattr(r, section), f.name), key) for r in rules)
            rows.append(Row(title, key, LABELS.get(key, f.name.replace("_", " ")), values,
                            len(set(values)) > 1))
    values = tuple(words(r.goulash_rule, "goulash_rule") if r.goulash_rule else "this rule"
                   for r in rules)
    rows.append(Row("Scoring", "goulash_rule", LABELS["goulash_rule"], values, len(set(values)) > 1))
    return rows


def item_words(item) -> str:
    """An item's worth in one phrase: '2 points', '1 double', 'half the limit'."""
    if item is None:
        return ABSENT
    parts = []
    if item.limit is not None:
        parts.append(fraction_words(item.limit))
    if item.points:
        parts.append(f"{item.points} point{'s' * (item.points != 1)}")
    if item.doubles:
        parts.append(f"{item.doubles} double{'s' * (item.doubles != 1)}")
    if item.who != "all":
        parts.append(WHO.get(item.who, item.who))
    if item.fishing_limit is not None:
        parts.append(f"fishing: {fraction_words(item.fishing_limit)}"
                     + (" or its own value if greater" * item.fishing_actual_if_greater))
    if item.fishing_doubles:
        parts.append(f"fishing: {item.fishing_doubles} doubles")
    if item.capped_at_limit:
        parts.append("capped at the limit")
    if item.limit is not None:
        # A special hand's details, where they are not what its rule function takes by default.
        parts += [detail_words(name, value) for name, default, value in detail_options(item)
                  if value != default]
    return ", ".join(parts) or "nothing"


def _item_rows(rules: list[HouseRule]) -> list[Row]:
    codes: list[str] = []
    names: dict[str, str] = {}
    for rule in rules:
        for item in rule.items:
            if item.code not in names:
                codes.append(item.code)
                names[item.code] = item.wording
    rows = []
    for code in codes:
        items = [rule.item(code) if rule.has_item(code) else None for rule in rules]
        values = tuple(item_words(i) for i in items)
        # Two items can read the same and still differ (a different test of the hand): compare
        # what decides the score, not only the words.
        worth = {None if i is None else (i.rule, i.args, *(getattr(i, f) for f, _ in ITEM_FIELDS),
                                         i.fishing_actual_if_greater, i.replaces)
                 for i in items}
        rows.append(Row("Items", code, names[code], values, len(worth) > 1))
    return rows


def compare_rules(rules: list[HouseRule], everything: bool = False) -> list[Row]:
    """Every parameter and item of these rules, in the given order; only the ones that differ
    unless ``everything``."""
    rows = _parameter_rows(rules) + _item_rows(rules)
    return rows if everything else [r for r in rows if r.differs]
