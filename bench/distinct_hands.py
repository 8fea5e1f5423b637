"""Distinct hands entered as a scorer enters them, for the benchmarks that record or replay.

    from bench.distinct_hands import distinct_entries
    entries = distinct_entries(2000, seed=7)

A benchmark that records one hand over and over, or replays twelve, measures the engine's memos
answering the same hand again, not a club's nights (issue #27). Each entry here is a hand of
the recording contract (``clubs.recording``): the winner's hand as tiles (four sets and a pair,
some exposed, some concealed, kongs, chows, flowers and seasons), the losers' agreed scores,
who won from where (the wall, a discard and who gave it, the kong box), and no two winning
hands alike (their tiles, melds and winning tile differ). Seeded: the same hands every run.
Plain Python, no import of the project, so any benchmark (and a Lua client's bodies) may use it.
"""

from __future__ import annotations

import json
import random
from collections import Counter

SUITS = "bcd"
SUITED = [f"{s}{n}" for s in SUITS for n in range(1, 10)]
HONOURS = ["we", "ws", "ww", "wn", "dr", "dg", "dw"]
PLAYING = SUITED + HONOURS
BONUS = ["f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4"]
WINDS = "ESWN"


def _tiles(kind: str, tile: str) -> list[str]:
    if kind == "chow":
        return [f"{tile[0]}{int(tile[1:]) + step}" for step in range(3)]
    return [tile] * {"pair": 2, "pung": 3, "kong": 4}[kind]


def winning_hand(r: random.Random, chows: int = 1) -> dict | None:
    """Four sets (at most ``chows`` chows: the British rules allow one, a goulash none) and a
    pair as the contract's hand JSON (no seat or prevailing wind: the table's seating gives
    them), or None when the draw used a tile five times."""
    counts: Counter = Counter()
    melds, held = [], []
    for _ in range(4):
        kind = r.choices(["pung", "chow", "kong"], weights=[5, 4 * (chows > 0), 1])[0]
        chows -= kind == "chow"
        tile = r.choice([t for t in SUITED if int(t[1]) <= 7] if kind == "chow" else PLAYING)
        tiles = _tiles(kind, tile)
        counts.update(tiles)
        if kind == "kong" or r.random() < 0.55:
            melds.append({"kind": kind, "tile": tile,
                          "concealed": kind == "kong" and r.random() < 0.3})
        else:
            held += tiles
    pair = r.choice(PLAYING)
    counts.update([pair, pair])
    held += [pair, pair]
    if max(counts.values()) > 4:
        return None
    r.shuffle(held)
    return {"melds": melds, "concealed": held,
            "bonus": sorted(r.sample(BONUS, r.choice((0, 0, 1, 1, 2, 3)))),
            "win": {"tile": pair}, "fishing": False}


def _key(hand: dict) -> str:
    return json.dumps({**hand, "concealed": sorted(hand["concealed"])}, sort_keys=True)


def distinct_entries(count: int, seed: int = 27, draws: float = 0.07,
                     chows: int = 1) -> list[dict]:
    """``count`` recording entries, to be recorded in order at one table: about ``draws`` of
    them wall games, the rest wins, each winning hand different from every other. The hand
    after a wall game is a goulash, which allows no chow (``chows=0``: none in any hand, for
    a hand that may follow a wall game it does not know of)."""
    r = random.Random(seed)
    seen: set[str] = set()
    entries = []
    while len(entries) < count:
        goulash = bool(entries) and entries[-1].get("draw", False)
        if r.random() < draws and not goulash:
            entries.append({"draw": True, "winner": None,
                            "seats": {w: {"score": r.choice((0, 2, 4, 8))} for w in WINDS}})
            continue
        hand = winning_hand(r, chows=0 if goulash else chows)
        if hand is None or _key(hand) in seen:
            continue
        seen.add(_key(hand))
        winner = r.choice(WINDS)
        others = [w for w in WINDS if w != winner]
        source = r.choices(["discard", "wall", "kong_box"], weights=[6, 3, 1])[0]
        if source == "kong_box" and not any(m["kind"] == "kong" for m in hand["melds"]):
            source = "wall"
        seats = {w: {"score": r.randrange(0, 64, 2)} for w in others}
        seats[winner] = hand
        entries.append({"winner": winner, "win_from": source,
                        "discarder": r.choice(others) if source == "discard" else None,
                        "seats": seats})
    return entries
