"""What the host sees before accepting a draw: who meets again and how often they have met this
season, first meetings, the spread of meetings after tonight, and the same figures for random
draws of the same tables (the hat), so "2 repeats" can be read against "a hat gives 9".
Also the host's swap, and the rules a swapped draw now breaks."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from statistics import mean

from door.draw.greedy import random_tables
from door.draw.model import Draw, DrawError, DrawnTable, DrawRequest
from door.draw.season import Season, pair

RANDOM_DRAWS = 100


@dataclass(frozen=True)
class Repeat:
    a: str
    b: str
    times: int  # how often they have met this season before tonight


@dataclass(frozen=True)
class Quality:
    pairs_tonight: int
    repeats: tuple[Repeat, ...]  # most-met first
    first_meetings: int
    never_met_left: int  # pairs here tonight who have never met and will not tonight either
    most_met_after: int  # the most times any pair here tonight will have met after tonight
    spread: tuple[tuple[int, int], ...]  # (times met after tonight, pairs here tonight)
    random_repeats_mean: float
    random_repeats_worst: int
    random_most_met_mean: float
    random_first_mean: float
    broken: tuple[str, ...] = ()  # the host's rules this draw breaks (after a swap)

    def to_json(self) -> dict:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        data["repeats"] = [[r.a, r.b, r.times] for r in self.repeats]
        data["spread"] = [list(s) for s in self.spread]
        data["broken"] = list(self.broken)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Quality:
        return cls(**{**data, "repeats": tuple(Repeat(*r) for r in data["repeats"]),
                      "spread": tuple(tuple(s) for s in data["spread"]),
                      "broken": tuple(data.get("broken", ()))})


def _meetings(tables, season: Season) -> tuple[int, int, int]:
    """(repeats, first meetings, most met after tonight) of one draw: its figures for the
    random yardstick, counted the same way as ``quality``."""
    repeats = first = 0
    tonight = set()
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1:]:
                key = pair(a, b)
                tonight.add(key)
                if season.met.get(key, 0):
                    repeats += 1
                else:
                    first += 1
    keys = sorted(k for t in tables for k in t)
    most = max((season.met.get(pair(a, b), 0) + (pair(a, b) in tonight)
                for i, a in enumerate(keys) for b in keys[i + 1:]), default=0)
    return repeats, first, most


def quality(req: DrawRequest, drawn: Draw, season: Season, seed: int | None = None) -> Quality:
    tables = [t.seats for t in drawn.tables]
    keys = sorted(k for t in tables for k in t)
    tonight = {pair(a, b) for t in tables for i, a in enumerate(t) for b in t[i + 1:]}
    repeats = sorted((Repeat(*key, season.met[key]) for key in tonight if season.met.get(key)),
                     key=lambda r: (-r.times, r.a, r.b))
    after = Counter()
    never_left = 0
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            key = pair(a, b)
            met = season.met.get(key, 0)
            after[met + (key in tonight)] += 1
            never_left += met == 0 and key not in tonight
    rng = random.Random(drawn.seed if seed is None else seed)
    sizes = [len(t) for t in tables]
    hat = [_meetings(random_tables(keys, sizes, rng), season) for _ in range(RANDOM_DRAWS)]
    return Quality(
        pairs_tonight=len(tonight),
        repeats=tuple(repeats),
        first_meetings=len(tonight) - len(repeats),
        never_met_left=never_left,
        most_met_after=max(after, default=0),
        spread=tuple(sorted(after.items())),
        random_repeats_mean=round(mean(h[0] for h in hat), 1),
        random_repeats_worst=max(h[0] for h in hat),
        random_most_met_mean=round(mean(h[2] for h in hat), 1),
        random_first_mean=round(mean(h[1] for h in hat), 1),
        broken=tuple(broken_rules(req, drawn)),
    )


def swap(drawn: Draw, a: str, b: str) -> Draw:
    """The draw with ``a`` and ``b`` in each other's seats (and so each other's winds)."""
    if a == b:
        raise DrawError("Pick two different players to swap.")
    if drawn.table_of(a) is None or drawn.table_of(b) is None:
        raise DrawError("Both players must be in tonight's draw to swap them.")
    swapped = {a: b, b: a}
    tables = tuple(DrawnTable(t.number, tuple(swapped.get(k, k) for k in t.seats))
                   for t in drawn.tables)
    return dc_replace(drawn, tables=tables, method="swapped by the host")


def broken_rules(req: DrawRequest, drawn: Draw) -> list[str]:
    """Each of the host's rules the draw breaks, in words (empty for a solver's draw)."""
    names = {p.key: p.name for p in req.players}
    table = {k: t.number for t in drawn.tables for k in t.seats}
    problems = []
    c = req.constraints
    for a, b in c.apart:
        if table.get(a) == table.get(b):
            problems.append(f"{names[a]} and {names[b]} were to be kept apart.")
    for a, b in c.together:
        if table.get(a) != table.get(b):
            problems.append(f"{names[a]} and {names[b]} were to sit together.")
    for key, number in c.fixed:
        if table.get(key) != number:
            problems.append(f"{names[key]} was to stay at table {number}.")
    regulars = {p.key for p in req.players if p.regular and not p.newcomer}
    for p in req.players:
        if p.newcomer and p.key in table:
            members = next(t.seats for t in drawn.tables if t.number == table[p.key])
            if not regulars.intersection(members):
                problems.append(f"{p.name} is new and has no regular at the table.")
    return problems
