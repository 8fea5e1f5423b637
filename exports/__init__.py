"""Tabular exports: a registry of formats, each in its own module, shared by every feature that
offers a download (score sheets, league standings, rule comparisons).

A feature describes what it exports as ``Sheet`` objects (a title, column names and rows, which
may be a generator); a format renders them as a stream of bytes, so a season's worth of rows
never has to sit in memory at once. Plain Python apart from ``http``, which wraps a stream in a
Django response.
"""

from exports.registry import EXPORTERS, Exporter, Sheet, UnknownFormat, get_exporter, register

# Importing the format modules registers them.
from exports import csv_format, json_format, xlsx_format  # noqa: E402,F401  isort: skip

__all__ = ["EXPORTERS", "Exporter", "Sheet", "UnknownFormat", "get_exporter", "register"]


def download(sheets, fmt, filename_stem):
    """``exports.http.download``: imported when called, so the formats stay usable without
    Django (a management command or a bench script)."""
    from exports.http import download as stream

    return stream(sheets, fmt, filename_stem)


__all__ += ["download"]
