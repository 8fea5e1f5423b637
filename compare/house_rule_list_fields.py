"""Form fields for a house rule's list-valued and fractional settings, typed on a phone as a
club says them: a minimum to go out ("3 points", "4 doubles or 500 score"), a table of points to
chips ("0: 1, 1: 2, 2: 4"), a part of the limit ("1/2"), the winds played as goulash (ticks).
Each field cleans to the value the house rule holds (tuples, a Fraction) and says what to type
when it cannot read the text; ``house_rule_forms._field_for`` picks them."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from django import forms

from houserules.override_rules import (
    NAMED_PARTS,
    Refused,
    check_minimum,
    check_penalty_part,
    check_points_table,
    check_winds,
    read_part,
)
from scoring.engine.rules.model import MINIMUM_MEASURES

SEPARATORS = re.compile(r"\s*(?:,|;|\n|\bor\b)\s*", re.IGNORECASE)
NO_MINIMUM = ("none", "no minimum", "nothing")
WINDS = [("E", "East"), ("S", "South"), ("W", "West"), ("N", "North")]


def shared(check, *args, **kwargs):
    """``check`` (one of ``houserules.override_rules``: what the house-rule API refuses too)
    run on a field's value, its refusal a note on the field."""
    try:
        return check(*args, **kwargs)
    except Refused as refusal:
        raise forms.ValidationError(refusal.message) from None


def _parts(text: str) -> list[str]:
    return [p for p in SEPARATORS.split(text.strip()) if p]


def minimum_text(value) -> str:
    if value is None:
        return ""
    if not value:
        return "none"
    return " or ".join(f"{n} {measure}" for measure, n in value)


class MinimumField(forms.CharField):
    """A minimum to go out: one or more "N points|doubles|score", any one of which will do.
    ``optional``: empty means "as for other hands" (None), and "none" means no minimum."""

    def __init__(self, *, optional: bool = False, **kwargs):
        self.optional = optional
        kwargs.setdefault("help_text", (
            "For example \"3 points\", or \"4 doubles or 500 score\" (any one will do). "
            + ("Empty: as for other hands; \"none\": no minimum." if optional
               else "Empty or \"none\": no minimum.")))
        super().__init__(required=False, max_length=400, **kwargs)

    def prepare_value(self, value):
        return minimum_text(value) if isinstance(value, tuple) or value is None else value

    def clean(self, value):
        text = super().clean(value).strip()
        if not text:
            return None if self.optional else ()
        if text.casefold() in NO_MINIMUM:
            return ()
        rows, bad = [], []
        for part in _parts(text):
            match = re.fullmatch(r"(\d{1,10})\s*([a-z]+)|([a-z]+)\s*(\d{1,10})", part.casefold())
            if not match:
                bad.append(part)
                continue
            number, measure = (match[1], match[2]) if match[1] else (match[4], match[3])
            measure = {"point": "points", "double": "doubles", "scores": "score"}.get(
                measure, measure)
            if measure not in MINIMUM_MEASURES:
                bad.append(part)
                continue
            rows.append((measure, int(number)))
        if bad:
            raise forms.ValidationError(
                f"Cannot read {bad[0]!r}: write a number and points, doubles or score, "
                "e.g. \"3 points\" or \"4 doubles or 500 score\".")
        return shared(check_minimum, rows)


def table_text(value) -> str:
    return ", ".join(f"{points}: {pay}" for points, pay in value or ())


class PointsTableField(forms.CharField):
    """Points to payment: rows of "points: payment", points rising."""

    widget = forms.Textarea(attrs={"rows": 3})

    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", (
            "Rows of \"points: payment\", for example \"0: 1, 1: 2, 2: 4, 3: 8\"; a hand worth "
            "more points than the last row pays the last row. Empty: the score is the payment."))
        super().__init__(required=False, max_length=2000, **kwargs)

    def prepare_value(self, value):
        return table_text(value) if isinstance(value, tuple) else value

    def clean(self, value):
        text = super().clean(value).strip()
        if not text:
            return ()
        rows = []
        for part in _parts(text):
            match = re.fullmatch(r"(\d{1,10})\s*(?::|=|->|→)\s*(\d{1,10})", part)
            if not match:
                raise forms.ValidationError(
                    f"Cannot read {part!r}: write each row as points, a colon and the payment, "
                    "e.g. \"3: 8\".")
            rows.append((int(match[1]), int(match[2])))
        return shared(check_points_table, rows)


class LimitFractionField(forms.CharField):
    """A part of the limit: "1/2", "3/4", "0.5" or "half"."""

    NAMED = NAMED_PARTS

    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", "A part of the limit, e.g. \"1/2\" or \"3/4\".")
        super().__init__(max_length=40, **kwargs)

    def prepare_value(self, value):
        return str(value) if isinstance(value, Fraction) else value

    def clean(self, value):
        return shared(check_penalty_part, self.read(super().clean(value)))

    def read(self, text: str) -> Fraction:
        """The part of the limit ``text`` says (0 or more, up to thousandths)."""
        return shared(read_part, text)


class WindsField(forms.MultipleChoiceField):
    """Winds of the round, as ticks; cleaned to a tuple in the order of play."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        super().__init__(choices=WINDS, required=False, **kwargs)

    def validate(self, value):
        shared(check_winds, value)  # the API's words for a wind it does not know
        super().validate(value)

    def clean(self, value):
        chosen = set(super().clean(value))
        return tuple(w for w, _ in WINDS if w in chosen)


def field_for_list(key: str, kind: str, value: Any, label: str) -> forms.Field | None:
    """The field for a list-valued or fractional setting, or None for another kind."""
    if key.endswith("go_out_minimum"):
        return MinimumField(label=label, initial=value, optional="None" in kind)
    if kind.startswith("tuple[tuple[int, int]"):
        return PointsTableField(label=label, initial=value)
    if kind == "Fraction":
        return LimitFractionField(label=label, initial=value)
    if kind == "tuple[str, ...]" and key.endswith("winds"):
        return WindsField(label=label, initial=list(value))
    return None
