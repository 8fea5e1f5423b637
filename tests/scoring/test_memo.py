"""Issue #12: every memo of the scoring engine is registered in ``scoring.engine.memo`` and one
``clear_all()`` empties them all; results never depend on what the memos hold."""

from __future__ import annotations

import importlib
import pkgutil

import scoring.engine
from scoring.engine import get_house_rule, memo, parse_hand, score_hand
from tests.scoring.golden_master import load


def _engine_modules():
    for info in pkgutil.walk_packages(scoring.engine.__path__, "scoring.engine."):
        yield importlib.import_module(info.name)


def test_every_functools_cache_of_the_engine_is_registered():
    names = {name for name, _kind in memo.registered()}
    caches = {f"{module.__name__}.{name}" for module in _engine_modules()
              for name, value in vars(module).items()
              if callable(getattr(value, "cache_clear", None))
              and getattr(value, "__module__", None) == module.__name__}
    assert caches and caches <= names, caches - names


def test_every_module_level_dict_of_the_engine_that_grows_is_a_registered_memo():
    """A memo is a dict filled while scoring: score a few hundred hands from empty, and every
    module-level dict that grew is one of the registered memos (cleared by clear_all)."""
    modules = list(_engine_modules())
    memo.clear_all()
    before = {(m.__name__, name): len(value) for m in modules
              for name, value in vars(m).items() if isinstance(value, dict)}
    rule = get_house_rule("bmja")
    for data in load()["hands"][:400]:
        try:
            score_hand(parse_hand(data), rule)
        except Exception:  # noqa: BLE001 - refused hands fill memos too
            pass
    grown = [(m.__name__, name) for m in modules for name, value in vars(m).items()
             if isinstance(value, dict) and len(value) > before.get((m.__name__, name), 0)]
    assert grown
    memo.clear_all()
    still = [key for key in grown if len(vars(importlib.import_module(key[0]))[key[1]])]
    assert not still, f"module-level dicts that grow but are not registered memos: {still}"


def test_clear_all_keeping_tables_empties_only_the_memos_of_hands():
    kinds = {kind for _name, kind in memo.registered()}
    assert kinds == {memo.TABLE, memo.HAND}
