"""Every memo of the scoring engine, registered in one place, so that one call empties them all.

A memo is either a ``TABLE``, which depends only on the algorithm or on a house rule (one
suit's counts to its readings, one set's description to its shared object, a house rule's
prepared plan), or a ``HAND`` memo, which remembers particular hands (a whole hand's readings,
its problems, the answers remembered by how a hand went out). A long-running server keeps
both; each is bounded where it is made. ``clear_all()`` empties every one (the bench's "cold"
figures, tests that must start from nothing); ``clear_all(keep_tables=True)`` only the memos
of hands (the bench's "warm tables").

    table = memo.table("declared sets")          # a dict, registered
    @memo.cached(maxsize=4096)                   # functools.lru_cache, registered
    def _suit_ways(counts): ...
    memo.register("plans' answers by win", memo.HAND, clear_function)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

TABLE = "table"
HAND = "hand"

_REGISTERED: list[tuple[str, str, Callable[[], None]]] = []


def register(name: str, kind: str, clear: Callable[[], None]) -> None:
    """Register the function that empties the memo ``name`` of ``kind`` (TABLE or HAND)."""
    if kind not in (TABLE, HAND):
        raise ValueError(f"A memo is a {TABLE!r} or a {HAND!r}, not {kind!r}.")
    _REGISTERED.append((name, kind, clear))


def table(name: str, kind: str = TABLE, factory: Callable[[], dict] = dict) -> Any:
    """A new dict (or ``factory()``) registered as the memo ``name``."""
    made = factory()
    register(name, kind, made.clear)
    return made


def cached(maxsize: int, kind: str = TABLE) -> Callable[[Callable], Callable]:
    """``functools.lru_cache(maxsize)``, registered under the function's module and name."""

    def decorate(fn: Callable) -> Callable:
        wrapped = lru_cache(maxsize=maxsize)(fn)
        register(f"{fn.__module__}.{fn.__qualname__}", kind, wrapped.cache_clear)
        return wrapped

    return decorate


def clear_all(keep_tables: bool = False) -> None:
    """Empty every registered memo; with ``keep_tables``, only the memos of hands."""
    for _name, kind, clear in _REGISTERED:
        if keep_tables and kind == TABLE:
            continue
        clear()


def registered() -> list[tuple[str, str]]:
    """Every registered memo's name and kind, in the order they were made."""
    return [(name, kind) for name, kind, _clear in _REGISTERED]
