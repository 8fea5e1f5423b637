"""What the season so far says about tonight's players: how often each pair has met, against
how often a random draw would have let them meet, and each player's Easts and seats at tables
of 3 or 5 against their share.

"Their share" is what a random draw gives on average: on a night of ``n`` players, a player at a
table of ``s`` meets each other player with chance ``(s - 1) / (n - 1)``, starts as East with
chance ``1 / s``, and sits at an odd table with the night's share of odd seats. A pair's
*excess* is meetings minus share: the draw makes the pairs with the lowest excess meet (the
greedy step of making the sum of squared excesses as small as it can), so pairs who keep coming
on the same nights but have not met rise to the top, and pairs who have met more than most
sink. Recent nights weigh more (``Weights.half_life``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from door.draw.model import PastNight, Weights

Pair = tuple[str, str]


def pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class Season:
    """Counts over the nights so far; ``met`` and ``together`` are plain counts (what the host
    is shown), the ``*_w`` figures weighted toward recent nights (what the draw balances)."""

    nights: int = 0
    met: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    together: dict[Pair, int] = field(default_factory=lambda: defaultdict(int))
    met_w: dict[Pair, float] = field(default_factory=lambda: defaultdict(float))
    share_w: dict[Pair, float] = field(default_factory=lambda: defaultdict(float))
    attended: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    east: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    east_share: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    odd: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    odd_share: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    odd_w: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    odd_share_w: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def pair_excess(self, a: str, b: str) -> float:
        key = pair(a, b)
        return self.met_w.get(key, 0.0) - self.share_w.get(key, 0.0)

    def odd_excess(self, key: str) -> float:
        return self.odd_w.get(key, 0.0) - self.odd_share_w.get(key, 0.0)

    def east_excess(self, key: str) -> float:
        return self.east.get(key, 0) - self.east_share.get(key, 0.0)


def summarise(history: tuple[PastNight, ...], weights: Weights | None = None,
              base: int = 4) -> Season:
    """The season's counts from its nights, oldest first."""
    weights = weights or Weights()
    season = Season()
    last = len(history) - 1
    for index, night in enumerate(history):
        add_night(season, night, 0.5 ** ((last - index) / weights.half_life), base)
    return season


def add_night(season: Season, night: PastNight, weight: float = 1.0, base: int = 4) -> None:
    seated = [(key, len(table)) for table in night.tables for key in table]
    count = len(seated)
    if count < 2:
        return
    season.nights += 1
    odd_seats = sum(size for table in night.tables if (size := len(table)) != base)
    for table in night.tables:
        size = len(table)
        for position, key in enumerate(table):
            season.attended[key] += 1
            season.east_share[key] += 1 / size
            season.east[key] += position == 0
            season.odd_share[key] += odd_seats / count
            season.odd_share_w[key] += weight * odd_seats / count
            if size != base:
                season.odd[key] += 1
                season.odd_w[key] += weight
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                key = pair(a, b)
                season.met[key] += 1
                season.met_w[key] += weight
    for i, (a, size_a) in enumerate(seated):
        for b, size_b in seated[i + 1:]:
            key = pair(a, b)
            season.together[key] += 1
            season.share_w[key] += weight * ((size_a - 1) + (size_b - 1)) / 2 / (count - 1)
