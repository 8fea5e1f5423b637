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


def test_scoring_fills_no_module_level_dict():
    """Issue #27: the engine's memos are its registered functools caches (the division of a
    hand, a house rule's plan, one suit's readings), never a table filled while scoring."""
    modules = list(_engine_modules())
    memo.clear_all()
    before = {(m.__name__, name): len(value) for m in modules
              for name, value in vars(m).items() if isinstance(value, dict)}
    rule = get_house_rule("bmja")
    for data in load()["hands"][:400]:
        try:
            score_hand(parse_hand(data), rule)
        except Exception:  # noqa: BLE001 - refused hands are scored as far as they go
            pass
    grown = [(m.__name__, name) for m in modules for name, value in vars(m).items()
             if isinstance(value, dict) and len(value) > before.get((m.__name__, name), 0)]
    assert not grown, grown


def test_the_engine_keeps_four_caches_each_named_for_why():
    assert {name for name, _kind in memo.registered()} == {
        "scoring.engine.arrange.search.arrangements_for",  # the division, as riichi's
        "scoring.engine.arrange.standard.suit_readings",  # measured: see standard.py
        "scoring.engine.plan.plan_for",  # a house rule's items bound once
        "scoring.engine.rules.builtin._rules",  # the built-in rules, built once
    }


def test_clear_all_keeping_tables_empties_only_the_memos_of_hands():
    kinds = {kind for _name, kind in memo.registered()}
    assert kinds == {memo.TABLE, memo.HAND}
