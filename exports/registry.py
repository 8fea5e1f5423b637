"""The registry of export formats, by name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass
class Sheet:
    """One table of rows: one worksheet of a workbook, one block of a CSV file, one list in a JSON
    document. ``rows`` may be a generator; an exporter reads it once, in order.

    ``date_columns``: the names of the columns holding dates (``datetime.date`` or ISO text
    such as "2026-11-26", as the database hands them over); a workbook writes them as dates,
    CSV and JSON as ISO text."""

    title: str
    columns: list[str]
    rows: Iterable[list[Any]]
    date_columns: frozenset[str] = frozenset()


class Exporter(Protocol):
    content_type: str
    extension: str

    def render(self, sheets: list[Sheet]) -> Iterator[bytes]: ...


EXPORTERS: dict[str, Exporter] = {}


class UnknownFormat(ValueError):
    def __init__(self, fmt: str):
        self.format = fmt
        super().__init__(
            f"{fmt!r} is not a download format; use one of {', '.join(sorted(EXPORTERS))}."
        )


def register(name: str) -> Callable[[type], type]:
    """Class decorator: ``@register("csv")`` makes an instance of the class the ``csv`` format."""

    def add(cls: type) -> type:
        EXPORTERS[name] = cls()
        return cls

    return add


def get_exporter(fmt: str) -> Exporter:
    try:
        return EXPORTERS[fmt]
    except KeyError:
        raise UnknownFormat(fmt) from None
