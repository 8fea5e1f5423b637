"""House-rule values to and from JSON: a frozen rule's fields as JSON values, and JSON checked
and converted to each field's annotated type (with the words to say what was expected)."""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from dataclasses import fields
from fractions import Fraction
from typing import Any


def to_jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value


# A fraction as text: "1/2", "-3", "0.25" (Fraction alone also reads "1e-99999999", and
# takes minutes to work it out).
FRACTION_TEXT = re.compile(r"\s*[+-]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})(?:/\d{1,30})?\s*")


def fraction(value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str | Fraction):
        raise ValueError
    if isinstance(value, str) and not FRACTION_TEXT.fullmatch(value):
        raise ValueError
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    return Fraction(value)


def tupled(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(tupled(v) for v in value)
    return value


def item_args(value: Any) -> tuple[tuple[str, Any], ...]:
    if isinstance(value, dict):
        return tuple(sorted((str(k), tupled(v)) for k, v in value.items()))
    return tuple((str(k), tupled(v)) for k, v in value)


def convert(hint: Any, value: Any) -> Any:
    """``value`` (JSON) as the annotated type ``hint``; ValueError when it does not fit."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        for option in (a for a in args if a is not type(None)):
            try:
                return convert(option, value)
            except (TypeError, ValueError):
                continue
        raise ValueError
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ValueError
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(convert(args[0], v) for v in value)
        if len(value) != len(args):
            raise ValueError
        return tuple(convert(a, v) for a, v in zip(args, value, strict=True))
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ValueError
        return value
    if hint is Fraction:
        return fraction(value)
    if hint is Any:
        return tupled(value)
    raise ValueError


def describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe(a) for a in args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {describe(args[0])}"
        return "a list [" + ", ".join(describe(a) for a in args) + "]"
    return {
        bool: "true or false",
        int: "a whole number",
        str: "text",
        Fraction: "a fraction such as \"1/2\"",
        type(None): "null",
    }.get(hint, "a value")
