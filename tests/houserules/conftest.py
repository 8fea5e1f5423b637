"""Helpers to write a hand in a line and score it under a house rule, through the public API.

``hand("chow b1, pung c8 concealed", "d7 d7", win="d7 discard")`` builds the contract's hand
JSON (melds are exposed unless they say ``concealed``; a kong may say ``added``), so each test
reads like the rule document's own example.
"""

from __future__ import annotations

import pytest

from scoring.engine import get_house_rule, parse_hand, score_hand


def _melds(text: str) -> list[dict]:
    melds = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, tile, *flags = part.split()
        meld = {"kind": kind, "tile": tile, "concealed": "concealed" in flags}
        if "added" in flags:
            meld["added"] = True
        melds.append(meld)
    return melds


def hand(
    melds: str = "",
    concealed: str = "",
    *,
    win: str | None = None,
    seat: str = "S",
    round: str = "E",
    bonus: str = "",
    rules: str = "guide",
    goulash: bool = False,
    players: int | None = None,
    **win_flags,
) -> dict:
    """A contract hand; ``win`` is "<tile> <from>" and makes it a Mah Jong hand."""
    data = {
        "rules": rules,
        "seat_wind": seat,
        "prevailing_wind": round,
        "mahjong": win is not None,
        "melds": _melds(melds),
        "concealed": concealed.split(),
        "bonus": bonus.split(),
        "goulash": goulash,
    }
    if players is not None:
        data["players"] = players
    if win is not None:
        tile, source = win.split()
        data["win"] = {"tile": tile, "from": source, **win_flags}
    return data


def score(data: dict, rule=None):
    """Score a contract hand under ``rule`` (a HouseRule) or the hand's own ``rules`` slug."""
    rule = rule if rule is not None else get_house_rule(data["rules"])
    return score_hand(parse_hand(data), rule)


@pytest.fixture
def scored():
    return score
