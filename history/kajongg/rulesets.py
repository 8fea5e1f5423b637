"""Which built-in house rule a Kajongg game is filed under, from its ruleset's name (plain
Python).

Kajongg's rulesets (``Classical Chinese standard``, ``Classical Chinese DMJL``, ``Classical
Chinese BMJA``, and club copies of them) all pay the same way: every loser pays the winner his
score, East pays and receives double, and the losers settle their differences (East double):
the payments of this project's ``bmja`` house rule. They differ in scoring, and where this
project scores a hand differently from Kajongg the hand comes in as the score Kajongg gave
(an agreed score), so the totals stay Kajongg's. ``bmja`` is therefore the nearest built-in
rule for every Kajongg ruleset; each game's own ruleset name is kept with the import (the
night's notes and the import's report), and a name that is not Kajongg's own is said to be
filed under the nearest rule, not claimed to be it.
"""

from __future__ import annotations

NEAREST = "bmja"
# Kajongg's own rulesets, as its predefined.py names them; the rest are a club's copies.
KNOWN = {
    "classical chinese bmja": "the BMJA's rules, as Kajongg reads them",
    "classical chinese dmjl": "the German league's (DMJL) rules",
    "classical chinese standard": "Kajongg's classical Chinese rules",
}


def house_rule_for(ruleset: str) -> tuple[str, str]:
    """(house rule slug, why) for a Kajongg ruleset name."""
    name = " ".join(str(ruleset or "").lower().split())
    if name in KNOWN:
        return NEAREST, (f"{ruleset!r} ({KNOWN[name]}) pays as BMJA does: filed under BMJA, "
                         "hands scored differently here kept at Kajongg's score")
    return NEAREST, (f"{ruleset!r} is not one of Kajongg's own rulesets; Kajongg pays every "
                     "ruleset as BMJA does, so it is filed under the nearest, BMJA")
