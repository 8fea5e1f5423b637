"""Ranking a season, in plain Python (no Django): league rules as data, table points by place,
the gate and the tie-break chain. The Django side sums each player's nights in SQL and hands the
totals here; snapshots store what this returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

MEASURES = {"net": "net points", "table_points": "table points"}
COMBINES = {"sum": "summed over nights", "average": "averaged per night",
            "best": "summed over the best nights"}
POINT_SCHEMES = {"4-2-1-0": (4.0, 2.0, 1.0, 0.0), "4-2-1-0.5": (4.0, 2.0, 1.0, 0.5)}
# Tie-breaks: (label, higher is better).
TIE_BREAKS = {
    "table_points": ("table points", True),
    "net": ("net points", True),
    "mahjongs": ("Mah Jongs made", True),
    "fewest_given": ("fewest Mah Jongs given away", False),
    "average_place": ("average place", False),
    "nights": ("nights played", True),
}


class LeagueRulesError(ValueError):
    """Bad league rules: ``errors`` maps a field name to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


@dataclass(frozen=True)
class LeagueRules:
    """How a season is ranked. ``measure`` is what a night is worth (its net, or its table
    points under ``points``); ``combine`` sums, averages or sums the ``best_n`` best nights; a
    player needs ``min_nights`` nights and ``min_share`` percent of the season's nights to be
    ranked; ``tie_breaks`` order players level on the measure."""

    measure: str = "net"
    combine: str = "sum"
    points: str = "4-2-1-0"
    best_n: int | None = None
    min_nights: int = 0
    min_share: int = 0
    tie_breaks: tuple[str, ...] = ("table_points", "mahjongs", "fewest_given")

    def check(self) -> LeagueRules:
        errors: dict[str, list[str]] = {}

        def bad(name, message):
            errors.setdefault(name, []).append(message)

        if self.measure not in MEASURES:
            bad("measure", f"Choose one of {', '.join(MEASURES)}.")
        if self.combine not in COMBINES:
            bad("combine", f"Choose one of {', '.join(COMBINES)}.")
        if self.points not in POINT_SCHEMES:
            bad("points", f"Choose one of {', '.join(POINT_SCHEMES)}.")
        if self.combine == "best" and not (isinstance(self.best_n, int) and self.best_n >= 1):
            bad("best_n", "Best nights needs how many nights count: a whole number from 1.")
        if not (isinstance(self.min_nights, int) and 0 <= self.min_nights <= 1000):
            bad("min_nights", "Give a whole number of nights from 0 to 1000.")
        if not (isinstance(self.min_share, int) and 0 <= self.min_share <= 100):
            bad("min_share", "Give a percentage from 0 to 100.")
        unknown = [t for t in self.tie_breaks if t not in TIE_BREAKS]
        if unknown:
            bad("tie_breaks", f"Unknown tie-break {', '.join(map(str, unknown))}: choose from "
                f"{', '.join(TIE_BREAKS)}.")
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            bad("tie_breaks", "Name each tie-break once.")
        if errors:
            raise LeagueRulesError(errors)
        return self

    def to_dict(self) -> dict:
        # The fields read directly (plain values): dataclasses.asdict copies each deeply.
        return {**{name: getattr(self, name) for name in RULE_FIELDS},
                "tie_breaks": list(self.tie_breaks)}

    @classmethod
    def from_dict(cls, data: dict) -> LeagueRules:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        if "tie_breaks" in known:
            known["tie_breaks"] = tuple(known["tie_breaks"])
        return cls(**known)

    def describe(self) -> str:
        what = MEASURES[self.measure]
        if self.measure == "table_points":
            what += f" ({self.points.replace('-', ' / ')} by place at the table, ties sharing)"
        if self.combine == "best":
            return f"Ranked by {what} summed over each player's best {self.best_n} nights."
        return f"Ranked by {what} {COMBINES[self.combine]}."

    def describe_gate(self, season_nights: int) -> str:
        needed = self.required_nights(season_nights)
        if not needed:
            return "Every member who played is ranked."
        parts = []
        if self.min_nights:
            parts.append(f"at least {self.min_nights} nights")
        if self.min_share:
            parts.append(f"{self.min_share}% of the season's {season_nights} nights")
        return f"Ranked from {needed} nights played ({' and '.join(parts)})."

    def describe_tie_breaks(self) -> str:
        if not self.tie_breaks:
            return "Players level on that share a place."
        names = ", then ".join(TIE_BREAKS[t][0] for t in self.tie_breaks)
        return f"Ties broken by {names}; players level on all of them share a place."

    def required_nights(self, season_nights: int) -> int:
        return max(self.min_nights, math.ceil(self.min_share * season_nights / 100))


RULE_FIELDS = tuple(f.name for f in fields(LeagueRules))

PRESETS: dict[str, tuple[str, LeagueRules]] = {
    "net": ("Net points (sum of nets)", LeagueRules()),
    "table-points": ("Table points 4/2/1/0", LeagueRules(
        measure="table_points", tie_breaks=("net", "mahjongs", "fewest_given"))),
    "table-points-half": ("Table points 4/2/1/0.5", LeagueRules(
        measure="table_points", points="4-2-1-0.5", tie_breaks=("net", "mahjongs"))),
    "average-net": ("Average net per night", LeagueRules(combine="average", min_nights=3)),
    "average-table-points": ("Average table points per night", LeagueRules(
        measure="table_points", combine="average", min_share=50,
        tie_breaks=("net", "average_place"))),
    "best-nights": ("Best 10 nights' table points", LeagueRules(
        measure="table_points", combine="best", best_n=10, tie_breaks=("net", "nights"))),
}


# -- one table's night ------------------------------------------------------------------------


def places(nets: dict) -> dict:
    """Place at the table by net, highest first: ``{key: (place, tied)}``, ``tied`` being how
    many share that place (standard competition ranking: two tied first are both 1st, the next
    is 3rd)."""
    ordered = sorted(nets.values(), reverse=True)
    return {key: (ordered.index(net) + 1, ordered.count(net)) for key, net in nets.items()}


def table_points(place: int, tied: int, scheme: str) -> float:
    """Points for a place shared by ``tied`` players: the mean of the points of the places they
    occupy (two tied first under 4/2/1/0: 3 each; all four tied: 1.75). Places past the scheme's
    last (a fifth player) are worth its last value."""
    values = POINT_SCHEMES[scheme]
    occupied = [values[min(p, len(values)) - 1] for p in range(place, place + tied)]
    return sum(occupied) / tied


# -- a season ----------------------------------------------------------------------------------


@dataclass
class PlayerTotals:
    """One player's nights summed (what SQL's GROUP BY gives). ``key`` is the member id, or
    ``"guest:<name>"``; ``tables`` counts table-nights (the divisor of the average place);
    ``night_values`` each night's measure, needed only for best-N."""

    key: str
    name: str
    member_id: int | None
    nights: int
    hands: int
    net: int
    mahjongs: int
    given: int
    points: dict[str, float]
    place_sum: int
    tables: int
    night_values: list[float] = field(default_factory=list)

    @property
    def guest(self) -> bool:
        return self.member_id is None


@dataclass
class StandingRow:
    place: int | None
    shared: bool
    name: str
    member_id: int | None
    nights: int
    hands: int
    mahjongs: int
    given: int
    net: int
    table_points: float
    average: float
    score: float
    average_place: float
    note: str = ""

    @property
    def place_label(self) -> str:
        if self.place is None:
            return ""
        return f"{self.place}=" if self.shared else str(self.place)


ROW_FIELDS = tuple(f.name for f in fields(StandingRow))


@dataclass
class Standings:
    rules: LeagueRules
    season_nights: int
    required_nights: int
    ranked: list[StandingRow]
    unranked: list[StandingRow]
    guests: list[StandingRow]

    def calculation(self) -> list[str]:
        """The calculation written out, as the page and a snapshot state it."""
        return [
            self.rules.describe(),
            self.rules.describe_gate(self.season_nights),
            self.rules.describe_tie_breaks(),
            "Guests are listed apart and never ranked. A night at a five-player table counts "
            "for the player sitting out each hand.",
        ]

    def rows(self) -> list[StandingRow]:
        return [*self.ranked, *self.unranked, *self.guests]

    def to_json(self) -> dict:
        def plain(row, group):
            # The row's fields are plain values: read them directly (dataclasses.asdict copies
            # each one deeply, a third of the standings API's Python time for a season).
            return {**{name: getattr(row, name) for name in ROW_FIELDS},
                    "place_label": row.place_label, "group": group}

        return {
            "rules": self.rules.to_dict(),
            "season_nights": self.season_nights,
            "required_nights": self.required_nights,
            "calculation": self.calculation(),
            "rows": [plain(r, "ranked") for r in self.ranked]
            + [plain(r, "unranked") for r in self.unranked]
            + [plain(r, "guest") for r in self.guests],
        }


def _round(value: float) -> float:
    # Sums of shared points are floats (7/3 ...): compare and show them rounded.
    return round(value, 6)


def _row(p: PlayerTotals, rules: LeagueRules) -> StandingRow:
    points = _round(p.points[rules.points])
    total = p.net if rules.measure == "net" else points
    if rules.combine == "sum":
        score = total
    elif rules.combine == "average":
        score = _round(total / p.nights) if p.nights else 0.0
    else:
        score = _round(sum(sorted(p.night_values, reverse=True)[: rules.best_n]))
    return StandingRow(
        place=None, shared=False, name=p.name, member_id=p.member_id, nights=p.nights,
        hands=p.hands, mahjongs=p.mahjongs, given=p.given, net=p.net, table_points=points,
        average=_round(total / p.nights) if p.nights else 0.0, score=score,
        average_place=_round(p.place_sum / p.tables) if p.tables else 0.0,
    )


# What each tie-break reads of a row; higher is better unless TIE_BREAKS says otherwise.
TIE_ATTRIBUTES = {"table_points": "table_points", "net": "net", "mahjongs": "mahjongs",
                  "fewest_given": "given", "average_place": "average_place",
                  "nights": "nights"}


def rank(players: Iterable[PlayerTotals], rules: LeagueRules, season_nights: int) -> Standings:
    """Rank members who pass the gate; list the rest by their measure, and guests apart."""
    needed = rules.required_nights(season_nights)
    ranked, unranked, guests = [], [], []
    for p in players:
        row = _row(p, rules)
        if p.guest:
            guests.append(row)
        elif row.nights < needed:
            row.note = f"{row.nights} of {needed} nights"
            unranked.append(row)
        else:
            ranked.append(row)
    return Standings(rules, season_nights, needed, _ordered(ranked, rules, places=True),
                     _ordered(unranked, rules), _ordered(guests, rules))


def _ordered(rows: list[StandingRow], rules: LeagueRules, places: bool = False
             ) -> list[StandingRow]:
    """The rows best first (the measure, then the tie-breaks, then the name); with
    ``places``, each row's place set: level rows (the same measure and tie-breaks) share the
    first of their places (standard competition ranking). Each row's key is worked out once;
    level rows sit together once sorted, so one pass sets the places."""
    signs = [(TIE_ATTRIBUTES[t], 1 if TIE_BREAKS[t][1] else -1) for t in rules.tie_breaks]
    keyed = sorted(
        ((-row.score, *(-sign * getattr(row, name) for name, sign in signs)), row.name, i, row)
        for i, row in enumerate(rows))
    ordered = [row for *_, row in keyed]
    if not places:
        return ordered
    start = 0
    for end in range(1, len(keyed) + 1):
        if end == len(keyed) or keyed[end][0] != keyed[start][0]:
            for row in ordered[start:end]:
                row.place, row.shared = start + 1, end - start > 1
            start = end
    return ordered
