import pytest

import scoring.engine
from scoring.engine.rules.model import HouseRule


def _stand_in_rules() -> dict:
    """Two plain house rules, used only while the engine's built-in set is not there yet."""
    bmja = HouseRule(slug="bmja", name="BMJA", description="British Mah Jong Association.")
    guide = bmja.derive("guide", {"name": "Guide"})
    return {"bmja": bmja, "guide": guide}


@pytest.fixture
def builtin_rules(monkeypatch) -> dict:
    """The engine's built-in house rules (slug -> HouseRule)."""
    real = getattr(scoring.engine, "builtin_house_rules", None)
    if real is not None:
        return real()
    rules = _stand_in_rules()
    monkeypatch.setattr(scoring.engine, "builtin_house_rules", lambda: rules, raising=False)
    return rules


@pytest.fixture
def demo_club(db, builtin_rules):
    from clubs.demo import load_demo_club

    return load_demo_club()
