"""What the calculator commands (``score``, ``settle``) share: reading one JSON object from a
file or standard input, and failing on bad input with a sentence per problem and exit code 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

BAD_INPUT = 2  # the exit code for input that cannot be scored or settled


def input_error(*sentences: str) -> CommandError:
    return CommandError("\n".join(sentences), returncode=BAD_INPUT)


def read_json(name: str, wanted: str, rules: str | None = None) -> Any:
    """The JSON in file ``name`` (``-``: standard input), its ``rules`` replaced by the
    command's ``--rules`` if given; ``wanted`` says what the input should be ("one hand"),
    for the message when it is not JSON."""
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text()
    except OSError as error:
        raise input_error(f"Cannot read {name}: {error.strerror}. Give a JSON file or '-' for "
                          "standard input.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise input_error(f"The input is not valid JSON ({error.msg} at line {error.lineno}, "
                          f"column {error.colno}); give {wanted} as a JSON object.") from None
    return {**data, "rules": rules} if rules and isinstance(data, dict) else data


def sentences(detail: Any, path: str = "") -> list[str]:
    """DRF's nested error body as one "path: message" sentence per message."""
    if isinstance(detail, dict):
        return [s for key, value in detail.items()
                for s in sentences(value, f"{path}.{key}" if path else str(key))]
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return [f"{path or 'input'}: {item}" for item in detail]
        return [s for i, item in enumerate(detail) for s in sentences(item, f"{path}.{i}")]
    return [f"{path or 'input'}: {detail}"]
