"""What a club may set in its copy of a house rule, in one place: the ranges, the readings and
the words that say how to mend a value. The secretary's form (``compare.house_rule_forms``,
``house_rule_list_fields``, ``house_rule_special_hands``) refuses a field with these functions,
and every copy saved (the form's, the house-rule API's, the admin's: ``houserules.copies``)
has its overrides checked by ``override_errors``, so the API refuses what the form refuses,
in the same words, at the path of the override (``items.<code>.limit``).

Plain Python (no Django): values in, a ``Refused`` with its sentence out. Anything typed is
hostile: a text quoted back is cut short and shown as a Python literal (the page escapes it).
"""

from __future__ import annotations

import re
from dataclasses import fields
from fractions import Fraction
from typing import Any

from houserules.text_limits import DESCRIPTION_MAX, NAME_MAX, too_long
from scoring.engine import HouseRule
from scoring.engine.rules.model import (
    MINIMUM_MEASURES,
    WIND_MOVES_ON,
    PaymentParams,
    RotationParams,
    ScoringParams,
)

MAX_COUNT = 1_000_000_000  # a whole-number setting (a limit, a payment, a number of hands)
ITEM_POINTS_MAX = 10_000
ITEM_DOUBLES_MAX = 20
MAX_ROWS = 40  # rows of points to payment
MAX_PENALTY_PART = 10  # the false Mah Jong penalty, in limits
NAMED_PARTS = {"half": Fraction(1, 2), "quarter": Fraction(1, 4), "a quarter": Fraction(1, 4),
               "the limit": Fraction(1), "limit": Fraction(1), "three quarters": Fraction(3, 4)}
PART_TEXT = re.compile(r"[+-]?(?:\d{1,9}(?:\.\d{1,9})?|\.\d{1,9}|\d{1,9}/\d{1,9})")
# The ranges the checks below hold an override to, in one sentence for the help text of an
# overrides field (the admin's form, the house-rule API): made from the same constants, so what
# the help says and what is refused cannot drift apart.
RANGES_HELP = (
    f"Ranges checked: a whole-number setting (a limit, a payment, a number of hands) from 0 to "
    f"{MAX_COUNT:,}; an item's points from 0 to {ITEM_POINTS_MAX:,} and its doubles from 0 to "
    f"{ITEM_DOUBLES_MAX}; points to payment at most {MAX_ROWS} rows; the false Mah Jong penalty "
    f"at most {MAX_PENALTY_PART} times the limit; a special hand's worth more than 0 and at most "
    "1 (the limit), in parts up to thousandths.")
SPECIAL_WORTH_NEEDED = ("A special hand is worth a part of the limit, more than 0 and at most 1 "
                        "(the limit): give one, e.g. \"1/2\".")


class Refused(ValueError):
    """A value refused; ``message`` says how to mend it."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _quoted(value: Any) -> str:
    text = value if isinstance(value, str) else str(value)
    return repr(text if len(text) <= 40 else text[:40] + "...")


# -- parts of the limit ------------------------------------------------------------------------

def part_words(value: Fraction) -> str:
    named = {Fraction(1): "the limit", Fraction(1, 2): "half the limit",
             Fraction(1, 4): "a quarter of the limit",
             Fraction(3, 4): "three quarters of the limit"}
    return named.get(value, f"{value.numerator}/{value.denominator} of the limit")


def read_part(value: Any) -> Fraction:
    """The part of the limit ``value`` says: text as a club types it ("1/2", "0.5", "half") or a
    JSON number; 0 or more, up to thousandths."""
    if isinstance(value, Fraction):
        number = value
    else:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise Refused(f"Cannot read {_quoted(value)} as a part of the limit: write it as "
                          "\"1/2\" or \"0.5\".")
        text = (value if isinstance(value, str) else repr(value)).strip().casefold()
        if text in NAMED_PARTS:
            return NAMED_PARTS[text]
        try:
            # Read only as "n", "n.n" or "n/n" (up to 9 digits each): Fraction alone also takes
            # "1e-99999999", which takes minutes to work out.
            if not PART_TEXT.fullmatch(text.replace(" ", "")):
                raise ValueError
            number = Fraction(text.replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            raise Refused(f"Cannot read {_quoted(text)} as a part of the limit: write it as "
                          "\"1/2\" or \"0.5\".") from None
    if number < 0:
        raise Refused("A part of the limit cannot be negative.")
    if number.denominator > 1000:
        raise Refused("Use a simpler fraction (up to thousandths).")
    return number


def check_penalty_part(number: Fraction) -> Fraction:
    if number > MAX_PENALTY_PART:
        raise Refused(f"At most {MAX_PENALTY_PART} times the limit.")
    return number


def check_special_part(number: Fraction | None, *, required: bool) -> Fraction | None:
    """A special hand's worth (``required``) or what fishing for it scores (None: nothing)."""
    if number is None:
        if required:
            raise Refused(SPECIAL_WORTH_NEEDED)
        return None
    if number <= 0:
        raise Refused("A part of the limit is more than 0"
                      + ("." if required else ": leave it empty for nothing."))
    if number > 1:
        raise Refused(f"At most the limit itself (1); {number} is more than the limit.")
    return number


def check_fishing(limit: Fraction | None, fishing: Fraction | None) -> None:
    if limit is not None and fishing is not None and fishing > limit:
        raise Refused(f"Fishing for it cannot score more than the hand itself "
                      f"({part_words(limit)}).")


# -- whole numbers, lists, choices -------------------------------------------------------------

def check_count(value: Any, maximum: int = MAX_COUNT, *, empty: bool = False) -> int | None:
    """A whole number from 0 to ``maximum`` (None too when ``empty``)."""
    if value is None and empty:
        return None
    if type(value) is not int or not 0 <= value <= maximum:
        raise Refused(f"Give a whole number from 0 to {maximum:,}"
                      + (", or leave it empty (null) for none." if empty else "."))
    return value


def check_points_table(rows) -> tuple:
    """Points to payment: at most ``MAX_ROWS`` rows, numbers up to ``MAX_COUNT``, points
    rising, each once."""
    if len(rows) > MAX_ROWS:
        raise Refused(f"At most {MAX_ROWS} rows.")
    if any(n > MAX_COUNT for row in rows for n in row):
        raise Refused(f"Numbers up to {MAX_COUNT:,} only.")
    points = [p for p, _ in rows]
    if points != sorted(set(points)):
        raise Refused("Give the rows in rising order of points, each number of points once.")
    return tuple(rows)


def check_minimum(rows) -> tuple:
    """A minimum to go out: each of points, doubles and score at most once."""
    if len(rows) > len(MINIMUM_MEASURES):
        raise Refused("At most one minimum each of points, doubles and score.")
    if len({m for m, _ in rows}) != len(rows):
        raise Refused("Give each of points, doubles and score once.")
    if any(n > MAX_COUNT for _m, n in rows):
        raise Refused(f"Numbers up to {MAX_COUNT:,} only.")
    return tuple(rows)


WINDS = ("E", "S", "W", "N")
# Settings that may also be null (none).
NULLABLE_CHOICES = ("scoring.wild_tiles",)
CHOICE_KEYS = ("payment.scheme", "rotation.scheme", "rotation.wind_moves_on",
               "scoring.wild_tiles")


def check_winds(value: Any) -> tuple[str, ...]:
    """Winds of the round (the goulash winds): a list of E, S, W and N."""
    if not isinstance(value, list | tuple) or any(w not in WINDS for w in value):
        raise Refused("Winds of the round are E, S, W and N: give those wanted, e.g. [\"W\"], "
                      "or none ([]).")
    return tuple(value)


def choices(key: str) -> tuple[str, ...]:
    """The values a named setting takes (a payment or rotation scheme, a reading)."""
    if key == "scoring.wild_tiles":
        from scoring.engine.rules.variations import WILD_TILES
        return WILD_TILES
    if key == "payment.scheme":
        from settlements.engine import SETTLEMENT_SCHEMES
        return tuple(sorted(SETTLEMENT_SCHEMES))
    if key == "rotation.scheme":
        from settlements.engine.rotation import ROTATIONS
        return tuple(sorted(ROTATIONS))
    if key == "rotation.wind_moves_on":
        return WIND_MOVES_ON
    return ()


def check_choice(key: str, value: Any) -> str | None:
    known = choices(key)
    if value is None and key in NULLABLE_CHOICES:
        return None
    if not isinstance(value, str) or value not in known:
        raise Refused(f"Unknown choice {_quoted(value)}; use one of {', '.join(known)}"
                      + (", or null for none." if key in NULLABLE_CHOICES else "."))
    return value


# -- a copy's overrides ------------------------------------------------------------------------

_SECTIONS = {"scoring": ScoringParams, "payment": PaymentParams, "rotation": RotationParams}


def _setting(key: str, kind: str, value: Any) -> Any:
    """``value`` of setting ``key`` (annotated ``kind``) as the form would take it; Refused
    when the form would refuse it. Values the form cannot hold (text for a number, a list
    that is not one) are left to the house rule's own check."""
    if key in CHOICE_KEYS:
        return check_choice(key, value)
    if key == "rotation.goulash_winds":
        check_winds(value)
        return value
    if kind in ("int", "int | None"):
        if isinstance(value, bool) or not isinstance(value, int | None):
            return value
        return check_count(value, empty=kind == "int | None")
    if kind == "Fraction":
        return str(check_penalty_part(read_part(value)))
    if key.endswith("go_out_minimum") and _rows(value, str):
        check_minimum(value)
    elif kind.startswith("tuple[tuple[int, int]") and _rows(value, int):
        check_points_table(value)
    return value


def _rows(value: Any, first: type) -> bool:
    """A list of [first, whole number] pairs (another shape: the house rule's check names it)."""
    return isinstance(value, list | tuple) and all(
        isinstance(row, list | tuple) and len(row) == 2 and type(row[0]) is first
        and type(row[1]) is int for row in value)


def override_errors(overrides: Any, parent: HouseRule) -> tuple[dict[str, list[str]], Any]:
    """Everything in ``overrides`` (of a copy of ``parent``) the form would refuse, at the
    override's path, and the overrides with each part of the limit written as the form
    writes it ("half" and 0.5 as "1/2"). Anything of another shape is left as it is for the
    house rule's own check, which names it. An item's value refused here is left out of the
    overrides returned (that check would name it again, at another path, ``items[36]``, or in
    other words); a whole number refused is kept, for that check's own words beside ours
    ("Payments cannot be negative.")."""
    errors: dict[str, list[str]] = {}
    if not isinstance(overrides, dict):
        return errors, overrides
    out = dict(overrides)

    def refuse(path: str, refusal: Refused) -> None:
        errors.setdefault(path, []).append(refusal.message)

    for section, params in _SECTIONS.items():
        given = overrides.get(section)
        if not isinstance(given, dict):
            continue
        kinds = {f.name: str(f.type) for f in fields(params)}
        cleaned = dict(given)
        for name, value in given.items():
            if name not in kinds:
                continue
            try:
                cleaned[name] = _setting(f"{section}.{name}", kinds[name], value)
            except Refused as refusal:
                refuse(f"{section}.{name}", refusal)
                if not kinds[name].startswith("int"):
                    del cleaned[name]  # said here; a number is left for the rule's own words
        out[section] = cleaned
    for name, maximum in (("name", NAME_MAX), ("description", DESCRIPTION_MAX)):
        text = overrides.get(name)
        if isinstance(text, str) and len(text) > maximum:
            refuse(name, Refused(too_long(maximum)))
            del out[name]
    items = overrides.get("items")
    if isinstance(items, dict):
        out["items"] = {code: _item(code, change, parent, refuse)
                        for code, change in items.items()}
    return errors, out


def _item(code: str, change: Any, parent: HouseRule, refuse) -> Any:
    if not isinstance(change, dict) or not isinstance(code, str) or not parent.has_item(code):
        return change  # dropped (None), or refused by apply_overrides
    was = parent.item(code)
    cleaned = dict(change)
    where = f"items.{code}"
    # A special hand, or an item made one (a worth given where it had none).
    special = was.limit is not None or change.get("limit") is not None
    for name, maximum in (("points", ITEM_POINTS_MAX), ("doubles", ITEM_DOUBLES_MAX)):
        if name in change and not special and type(change[name]) is int:
            try:
                check_count(change[name], maximum)
            except Refused as refusal:
                refuse(f"{where}.{name}", refusal)
                del cleaned[name]
    parts: dict[str, Fraction | None] = {"limit": was.limit, "fishing_limit": was.fishing_limit}
    read_ok = True
    for name in parts:
        if name not in change or not special:
            continue
        try:
            value = None if change[name] is None else read_part(change[name])
            parts[name] = check_special_part(value, required=name == "limit")
            cleaned[name] = None if value is None else str(value)
        except Refused as refusal:
            refuse(f"{where}.{name}", refusal)
            cleaned.pop(name, None)
            read_ok = False
    if special and read_ok and ("limit" in change or "fishing_limit" in change):
        try:
            check_fishing(parts["limit"], parts["fishing_limit"])
        except Refused as refusal:
            refuse(f"{where}.fishing_limit", refusal)
    return cleaned


__all__ = ["ITEM_DOUBLES_MAX", "ITEM_POINTS_MAX", "MAX_COUNT", "MAX_PENALTY_PART", "MAX_ROWS",
           "NAMED_PARTS", "RANGES_HELP", "Refused", "WINDS", "check_choice", "check_count",
           "check_fishing", "check_minimum", "check_penalty_part", "check_points_table", "check_special_part",
           "check_winds", "choices", "override_errors", "part_words", "read_part"]
