"""A house rule as data: values, tables and switches, plus items that name rule functions.

A club picks a house rule, copies it with overrides and adjusts it; a session freezes the exact
version it was played under (``to_dict``/``from_dict`` round-trip it as JSON). Nothing here
knows how a hand is scored or paid: the scoring engine interprets ``scoring`` and ``items``,
the settlement engine interprets ``payment`` and ``rotation``. Every object is frozen, so a
house rule can never be changed while a hand is being scored.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from scoring.engine.rules.json_values import convert, describe, item_args, to_jsonable

WHO = ("all", "mahjong", "losers")
MINIMUM_MEASURES = ("points", "doubles", "score")


# 002 ("winner_deals"): which dealer loss moves the wind of the round on (RotationParams.
# wind_moves_on): a loss after the first ``games_per_wind`` games are over (002's words), or a
# loss in game ``games_per_wind`` already.
WIND_MOVES_ON = ("after_games_per_wind", "at_games_per_wind")

# The paper score sheets a house rule may name as its default (see HouseRule.score_sheet).
SCORE_SHEETS = ("per_player", "tally")


class HouseRuleError(ValueError):
    """A house rule that cannot be used; ``errors`` maps field paths to messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{path}: {' '.join(msgs)}" for path, msgs in errors.items()))


@dataclass(frozen=True)
class Item:
    """One scoring rule: when ``rule`` (a named rule function) matches, what it is worth.

    ``rule`` returns how many times it matches (a pung of dragons can match twice); each match
    gives ``points`` and ``doubles``. A special hand instead sets ``limit``: its value as a
    fraction of the house rule's limit (1 = limit, 1/2 = half limit), replacing the points.
    """

    code: str
    wording: str
    rule: str
    args: tuple[tuple[str, Any], ...] = ()
    points: int = 0
    doubles: int = 0
    limit: Fraction | None = None
    who: str = "all"
    # A losing hand one tile short of this special hand ("fishing") scores a part of the limit,
    # or extra doubles, or the greater of that part and its actual value.
    fishing_limit: Fraction | None = None
    fishing_doubles: int = 0
    fishing_actual_if_greater: bool = False
    # A special hand scored by doubles rather than a part of the limit (004 Sheet 23's Purity:
    # "work out your point score in the normal way and then double it three times"): True
    # caps it at the house rule's limit as the other special hands are ("We use 1000 in
    # special hands", Sheet 31 item 11), flowers and seasons on top as for a limit hand (Sheet
    # 21 item 6), and fishing for it likewise; False lets it pass the limit as an ordinary
    # hand may. Versions frozen before this field existed read False, as they were scored.
    capped_at_limit: bool = False
    # Items this one supersedes when it applies (purity replaces the clean-hand double).
    replaces: tuple[str, ...] = ()
    # Where the rule document says so, e.g. "004 Sheet 17".
    source: str = ""

    @classmethod
    def with_args(cls, code: str, wording: str, rule: str, args: dict[str, Any],
                  **fields: Any) -> Item:
        """An item whose rule function's arguments are given as keywords, kept sorted by name
        so that two items asking the same thing compare (and share a cached test) alike."""
        return cls(code=code, wording=wording, rule=rule, args=tuple(sorted(args.items())),
                   **fields)

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.args)


@dataclass(frozen=True)
class ScoringParams:
    """How hands are scored. Defaults are the BMJA course (004)."""

    limit: int | None = 1000
    # 004 Sheet 31 item 11: ordinary hands may exceed the limit through doubles; 002 caps all.
    cap_ordinary_hands: bool = False
    # 002: only the player who went Mah Jong scores; losers score nothing.
    only_winner_scores: bool = False
    # 003 counts points only: doubles, if any item gives them, are ignored.
    use_doubles: bool = True
    # Chows allowed in one hand (None: any number). 004: one, none in a goulash.
    max_chows: int | None = 1
    goulash_max_chows: int | None = 0
    # To go out, a hand must reach at least one of these thresholds (empty: no minimum),
    # e.g. (("points", 3),) or (("doubles", 4), ("score", 500)).
    go_out_minimum: tuple[tuple[str, int], ...] = ()
    goulash_go_out_minimum: tuple[tuple[str, int], ...] | None = None
    # 004 Sheet 21 item 6: flowers and seasons are added on top of a limit hand, their own
    # doubles applying to the flower total only.
    limit_hand_adds_bonus_tiles: bool = True
    # A special hand that is also four sets and a pair (All Winds and Dragons, Fourfold
    # Plenty...) scores the greater of its limit and its ordinary value, where ordinary hands
    # may pass the limit (004 Sheet 31 item 11). False: the special hand's value always.
    special_or_ordinary_if_greater: bool = False
    # Part-scores for losing hands that were fishing for a special hand (004 Sheets 21-29).
    fishing_part_scores: bool = True
    # 004 Sheet 30 item 1: a losing hand with too few tiles ("If another player goes Mah
    # Jong, you may count your score") is scored as it is; False: a losing hand has 13 tiles.
    # Too many tiles is always an error.
    count_short_losing_hands: bool = False
    # Wild tiles in a goulash: "b2" (the four 2 bamboo), "joker" (jokers added), or None.
    wild_tiles: str | None = "b2"
    wild_max_in_pair: int = 1
    wild_max_in_pung: int = 1
    wild_max_in_kong: int = 1
    wild_max_in_special: int = 4
    # 001: a wild tile drawn for Mah Jong may add one more wild tile to a pair or pung.
    wild_extra_on_wild_win: bool = False
    # The number of players at the table this rule is set for (2, 3, 4 or 5 with one out).
    players: int = 4


@dataclass(frozen=True)
class PaymentParams:
    """How scores become payments. Interpreted by the settlement engine."""

    # Name of a settlement function: "bmja" (all pay the winner, losers settle differences),
    # "winner_table" (002), "discarder_pays" (003), "goulash_kitty" (000).
    scheme: str = "bmja"
    # East (the dealer) pays and receives this many times.
    east_multiplier: int = 2
    # 004/001: the players other than the winner settle the differences between their scores.
    losers_settle_differences: bool = True
    # 002: what the discarder pays, as a multiple of the winning score.
    discarder_multiplier: int = 2
    # 003: points to payment (chips), as (points, payment) rows; a hand worth more points than
    # the last row pays the last row. Empty: the score is the payment.
    points_to_payment: tuple[tuple[int, int], ...] = ()
    # 003: chips paid at once by each other player for a kong, by how it was made.
    kong_chips_concealed: int = 0
    kong_chips_claimed: int = 0
    kong_chips_added: int = 0
    # 003: each player puts this into the goulash pot; the winner takes the pot only.
    goulash_pot_per_player: int = 0
    # 000: the kitty, per player, when a goulash follows a draw; and what is added after
    # another draw.
    kitty_per_player: int = 0
    kitty_after_another_draw: int = 0
    # 000: bouquet payments from every player except the one who went Mah Jong.
    bouquet_payment: int = 0
    double_bouquet_payment: int = 0
    # 000: what each other player pays for a clean hand that covers the minimum doubles.
    clean_hand_count: int = 0
    # 002: the tally each player starts a session with.
    starting_tally: int = 0
    # 004 Sheet 30.
    false_mahjong_penalty_limit_fraction: Fraction = Fraction(1, 2)
    false_naming_penalty: int = 50
    # 003: in a goulash the winner takes the pot only (no payment for the hand itself).
    goulash_pays_pot_only: bool = False
    # 001 (two players): a winner whose score is lower than the opponent's pays the
    # difference after being paid.
    winner_pays_difference_if_lower: bool = False
    # 000: a clean hand is paid its own score (its "count") rather than clean_hand_count.
    clean_hand_pays_score: bool = False


@dataclass(frozen=True)
class RotationParams:
    """Who deals next and when the wind of the round moves on. Interpreted by settlements."""

    # Name of a rotation function: "bmja" (004), "dealer_repeats" (003), "winner_deals" (002).
    scheme: str = "bmja"
    dealer_repeats_on_win: bool = True
    dealer_repeats_on_draw: bool = True
    # 004 Sheet 5 item 4: a player can be East for at most three hands in a row.
    max_consecutive_dealer: int | None = 3
    # 003: after a goulash the dice pass regardless of who won.
    goulash_passes_dealer: bool = False
    # 004/003: a wall game is followed by a goulash hand.
    goulash_after_draw: bool = True
    # 002 ("winner_deals"): the wind of the round lasts at least this many hands and then
    # moves on at the first hand the dealer loses.
    games_per_wind: int = 4
    # 002 ("winner_deals"), a reading clubs could dispute: which dealer loss is the first to
    # move the wind of the round on. "after_games_per_wind": the wind "stays the same until the
    # first four games are over. Then if the dealer loses 5th game or any thereafter" it
    # changes (002 "Setting up the next game"), so a loss in game games_per_wind + 1 or later.
    # "at_games_per_wind": a dealer loss in game games_per_wind already moves it.
    wind_moves_on: str = "after_games_per_wind"
    # 000: every hand played while one of these is the wind of the round is a goulash.
    goulash_winds: tuple[str, ...] = ()


@dataclass(frozen=True)
class HouseRule:
    slug: str
    name: str
    description: str
    source: str = ""
    version: int = 1
    scoring: ScoringParams = field(default_factory=ScoringParams)
    items: tuple[Item, ...] = ()
    payment: PaymentParams = field(default_factory=PaymentParams)
    rotation: RotationParams = field(default_factory=RotationParams)
    # Slug of the house rule that scores goulash hands (None: this rule with goulash set).
    goulash_rule: str | None = None
    # The slug this rule was derived from, if any.
    based_on: str | None = None
    # The paper score sheet a session under this rule prints by default: 004's per-player
    # sheet ("per_player") or 002's running-tally sheet ("tally"). The scorer may pick either.
    score_sheet: str = "per_player"

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __hash__(self) -> int:
        # Frozen, so hashed once: hashing walks every item (some 70 us for 004's), and the
        # scoring engine's one cache of plans is keyed by the house rule (plan.plan_for).
        return self._hash

    def item(self, code: str) -> Item:
        for item in self.items:
            if item.code == code:
                return item
        raise KeyError(code)

    def has_item(self, code: str) -> bool:
        return any(item.code == code for item in self.items)

    # -- deriving a club's copy -------------------------------------------------------------

    def derive(self, slug: str, overrides: dict[str, Any] | None = None, **top: Any) -> HouseRule:
        """A new house rule: this one with ``overrides`` applied (see ``apply_overrides``)."""
        data = self.to_dict()
        data.update({"slug": slug, "based_on": self.slug, "version": 1})
        data.update(top)
        return HouseRule.from_dict(apply_overrides(data, overrides or {}))

    # -- JSON round trip --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRule:
        errors: dict[str, list[str]] = {}
        rule = _build(cls, data, "", errors)
        if errors:
            raise HouseRuleError(errors)
        rule.check()
        return rule

    def check(self, known_rule_functions: set[str] | None = None) -> None:
        """Raise HouseRuleError listing everything that makes this house rule unusable."""
        errors: dict[str, list[str]] = {}

        def err(path: str, message: str) -> None:
            errors.setdefault(path, []).append(message)

        if not self.slug or not all(c.isalnum() or c in "-_" for c in self.slug):
            err("slug", "Use letters, digits, '-' and '_' only, e.g. 'our-club-2026'.")
        s = self.scoring
        if s.limit is not None and s.limit <= 0:
            err("scoring.limit", "The limit must be a positive number of points, or null for none.")
        for name in ("max_chows", "goulash_max_chows"):
            value = getattr(s, name)
            if value is not None and not 0 <= value <= 4:
                err(f"scoring.{name}", "A hand holds 0 to 4 chows; use null for any number.")
        for name in ("go_out_minimum", "goulash_go_out_minimum"):
            for measure, threshold in getattr(s, name) or ():
                if measure not in MINIMUM_MEASURES:
                    err(f"scoring.{name}", f"Unknown measure {measure!r}: use points, doubles or score.")
                if threshold < 0:
                    err(f"scoring.{name}", "A minimum cannot be negative.")
        if s.wild_tiles not in (None, "b2", "joker"):
            err("scoring.wild_tiles", "Use 'b2' (the 2 bamboo are wild), 'joker', or null.")
        if s.players not in (2, 3, 4, 5):
            err("scoring.players", "Mah-jong is played by 2, 3, 4 or 5 (one sitting out) players.")
        for name in ("wild_max_in_pair", "wild_max_in_pung", "wild_max_in_kong", "wild_max_in_special"):
            if not 0 <= getattr(s, name) <= 4:
                err(f"scoring.{name}", "Between 0 and 4 wild tiles.")
        if self.rotation.wind_moves_on not in WIND_MOVES_ON:
            err("rotation.wind_moves_on", f"Use one of {', '.join(WIND_MOVES_ON)}.")
        if self.rotation.games_per_wind < 1:
            err("rotation.games_per_wind", "The wind of the round lasts at least one hand.")
        if self.score_sheet not in SCORE_SHEETS:
            err("score_sheet", f"Use one of {', '.join(SCORE_SHEETS)}.")
        p = self.payment
        for f in fields(p):
            value = getattr(p, f.name)
            if isinstance(value, int | Fraction) and not isinstance(value, bool) and value < 0:
                err(f"payment.{f.name}", "Payments cannot be negative.")
        if p.east_multiplier < 1:
            err("payment.east_multiplier", "East pays at least once (1 turns doubling off).")
        seen: set[str] = set()
        for i, item in enumerate(self.items):
            path = f"items[{i}]"
            if item.code in seen:
                err(f"{path}.code", f"Item code {item.code!r} appears twice; codes must be unique.")
            seen.add(item.code)
            if item.who not in WHO:
                err(f"{path}.who", f"Use one of {', '.join(WHO)}.")
            if item.limit is not None and item.limit <= 0:
                err(f"{path}.limit", "A special hand's limit fraction must be positive.")
            if item.points < 0 or item.doubles < 0:
                err(path, "Points and doubles cannot be negative.")
            if known_rule_functions is not None and item.rule not in known_rule_functions:
                err(f"{path}.rule", f"Unknown rule function {item.rule!r}.")
        for i, item in enumerate(self.items):
            for code in item.replaces:
                if code not in seen:
                    err(f"items[{i}].replaces", f"Unknown item {code!r}.")
        if errors:
            raise HouseRuleError(errors)


# -- overrides ------------------------------------------------------------------------------

def apply_overrides(data: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Apply a club's overrides to a house rule's dict form.

    ``overrides`` may hold top-level values (name, description, goulash_rule), sections
    (``{"scoring": {"limit": 2000}}``, likewise payment and rotation), ``items`` mapping an
    item code to the fields it changes or to null to drop the item, and ``add_items``, a list
    of whole items. Unknown keys, sections, fields and item codes are errors, not ignored.
    """
    errors: dict[str, list[str]] = {}
    data = {**data}
    sections = {"scoring": ScoringParams, "payment": PaymentParams, "rotation": RotationParams}
    top_level = {"name", "description", "source", "goulash_rule", "version", "score_sheet"}
    for key, value in overrides.items():
        if key in sections:
            if not isinstance(value, dict):
                errors.setdefault(key, []).append("Give an object of field: value.")
                continue
            known = {f.name for f in fields(sections[key])}
            section = {**data[key]}
            for name, new in value.items():
                if name not in known:
                    errors.setdefault(f"{key}.{name}", []).append(
                        f"Unknown field; {key} has: {', '.join(sorted(known))}."
                    )
                section[name] = new
            data[key] = section
        elif key == "items":
            if not isinstance(value, dict):
                errors.setdefault("items", []).append("Give an object of item code: changes.")
                continue
            items: list[dict[str, Any]] = [dict(item) for item in data["items"]]
            codes = [item["code"] for item in items]
            dropped: set[int] = set()
            item_fields = {f.name for f in fields(Item)}
            for code, change in value.items():
                if code not in codes:
                    errors.setdefault(f"items.{code}", []).append(
                        "No such item in this house rule; use add_items to add one."
                    )
                    continue
                index = codes.index(code)
                if change is None:
                    dropped.add(index)
                    continue
                if not isinstance(change, dict):
                    errors.setdefault(f"items.{code}", []).append("Give an object of field: value, or null.")
                    continue
                for name in change:
                    if name not in item_fields or name == "code":
                        errors.setdefault(f"items.{code}.{name}", []).append("Unknown or fixed item field.")
                items[index] = {**items[index], **change}
            data["items"] = [item for i, item in enumerate(items) if i not in dropped]
        elif key == "add_items":
            if not isinstance(value, list):
                errors.setdefault("add_items", []).append("Give a list of items.")
                continue
            data["items"] = [*data["items"], *value]
        elif key in top_level:
            data[key] = value
        else:
            errors.setdefault(key, []).append(
                "Unknown override; use name, description, goulash_rule, score_sheet, scoring, payment, "
                "rotation, items or add_items."
            )
    if errors:
        raise HouseRuleError(errors)
    return data


# -- (de)serialisation helpers --------------------------------------------------------------

def _build(cls: type, data: Any, path: str, errors: dict[str, list[str]]) -> Any:
    if not isinstance(data, dict):
        errors.setdefault(path.rstrip(".") or "(root)", []).append("Expected an object.")
        return None
    known = {f.name for f in fields(cls)}
    for name in data:
        if name not in known:
            errors.setdefault(f"{path}{name}", []).append("Unknown field.")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for name in known:
        if name not in data:
            continue
        where = f"{path}{name}"
        if cls is HouseRule and name in _NESTED:
            kwargs[name] = _build(_NESTED[name], data[name], f"{where}.", errors)
        elif cls is HouseRule and name == "items":
            value = data[name]
            if not isinstance(value, list | tuple):
                errors.setdefault(where, []).append("Give a list of items.")
                continue
            kwargs[name] = tuple(
                _build(Item, v, f"{where}[{i}].", errors) for i, v in enumerate(value)
            )
        elif cls is Item and name == "args":
            try:
                kwargs[name] = item_args(data[name])
            except (TypeError, ValueError):
                errors.setdefault(where, []).append("Give an object of argument: value.")
        else:
            try:
                kwargs[name] = convert(hints[name], data[name])
            except (TypeError, ValueError, ZeroDivisionError):
                errors.setdefault(where, []).append(
                    f"{data[name]!r} is not a valid value here: expected {describe(hints[name])}."
                )
    if any(v is None for k, v in kwargs.items() if k in _NESTED or k == "items") or errors:
        return None
    try:
        return cls(**kwargs)
    except TypeError as exc:
        errors.setdefault(path.rstrip(".") or "(root)", []).append(str(exc))
        return None


_NESTED = {"scoring": ScoringParams, "payment": PaymentParams, "rotation": RotationParams}


__all__ = [
    "HouseRule",
    "HouseRuleError",
    "Item",
    "PaymentParams",
    "RotationParams",
    "ScoringParams",
    "apply_overrides",
    "replace",
]
