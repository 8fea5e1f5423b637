"""Problems found in an entered hand, and the one exception that carries all of them.

Every problem has a dotted path to the field at fault (``melds.2.tile``, ``concealed``,
``win.tile``), a short code that tests and clients can rely on, and a sentence saying what is
wrong and how to mend it. ``HandError.as_drf()`` gives Django REST framework's error body, so
the API can answer 400 with it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Problem:
    path: str
    code: str
    message: str


class HandError(Exception):
    """A hand that cannot be scored. ``problems`` lists everything found, not only the first.

    ``list_sizes`` maps the path of a list field (``melds``) to its length, so that the DRF
    body has one entry (``{}`` when valid) per element, as DRF's own list serializers give.
    """

    def __init__(self, problems: list[Problem], list_sizes: dict[str, int] | None = None):
        self.problems = list(problems)
        self.list_sizes = dict(list_sizes or {})
        super().__init__("; ".join(f"{p.path or '(hand)'}: {p.message}" for p in self.problems))

    @property
    def codes(self) -> list[str]:
        return [p.code for p in self.problems]

    def prefixed(self, path: str) -> HandError:
        """The same problems nested under ``path`` (e.g. ``hands.E`` in a settlement)."""

        def join(inner: str) -> str:
            return f"{path}.{inner}" if inner else path

        return HandError(
            [replace(p, path=join(p.path)) for p in self.problems],
            {join(k): v for k, v in self.list_sizes.items()},
        )

    def as_drf(self) -> dict[str, Any]:
        """DRF's error shape: nested objects by field, lists of messages at the leaves, and a
        list (``{}`` for valid entries) for a list field's elements. Problems of the whole
        hand go under ``non_field_errors``."""
        tree: dict[str, Any] = {}
        for p in self.problems:
            parts = p.path.split(".") if p.path else ["non_field_errors"]
            node = tree
            for part in parts[:-1]:
                child = node.setdefault(part, {})
                if isinstance(child, list):  # messages already here: keep both
                    child = node[part] = {"non_field_errors": child}
                node = child
            leaf = parts[-1]
            existing = node.get(leaf)
            if isinstance(existing, dict):
                existing.setdefault("non_field_errors", []).append(p.message)
            else:
                node.setdefault(leaf, []).append(p.message)
        return _lists_for_indices(tree, "", self.list_sizes)


def _lists_for_indices(node: Any, path: str, sizes: dict[str, int]) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {
        key: _lists_for_indices(value, f"{path}.{key}" if path else key, sizes)
        for key, value in node.items()
    }
    if converted and all(key.isdigit() for key in converted):
        length = max(sizes.get(path, 0), max(int(k) for k in converted) + 1)
        return [converted.get(str(i), {}) for i in range(length)]
    return converted


class ProblemList:
    """Collects problems while a hand is checked, then raises them together."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.list_sizes: dict[str, int] = {}

    def add(self, path: str, code: str, message: str) -> None:
        self.problems.append(Problem(path, code, message))

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise HandError(self.problems, self.list_sizes)
