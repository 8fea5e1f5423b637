"""The club rating, bridge-grading style (plain Python: nights in, each night's line out).

Each member's grade is a percentage centred on 50. At each night's table:

- actual = the share of the other players at the table the member beat that night (a tie
  counts half), as a percentage: beating all three at a table of four is 100, two of them 66.7;
- par = 50 + own grade - the mean grade of the others at the table (a guest counts as
  ``guest_grade``; a member not yet rated starts at ``start_grade``);
- new = old + weight x (actual - par), the weight being 1 / (nights counted) until that falls
  below ``min_weight``, then ``min_weight``.

So a member's first nights are averaged equally (the grade settles quickly), after which each
night moves the grade by a fixed share and recent nights weigh more: a night's influence
shrinks by (1 - min_weight) with each later night. The grade is provisional until
``provisional_nights`` nights. Only placement at the table counts, never the points: one limit
hand cannot decide a rating.

Tables of 2, 3, 4 or 5 players alike (a five-player table's sitter-out played the night).
The lines do not depend on the order nights were stored in: nights are taken date by date; on
each date every table's par is worked from the grades as they stood before that date, and a
member at two tables on one date (an afternoon and an evening) has them applied in an order
read from the tables themselves (their players and results), not from their ids.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass(frozen=True)
class Params:
    provisional_nights: int = 6
    min_weight: float = 0.1
    guest_grade: float = 50.0
    start_grade: float = 50.0


class SeatResult(NamedTuple):
    key: object  # a member id (rated), or a guest's "guest:<name>"
    net: int
    member: bool = True


class TableNight(NamedTuple):
    table: int  # an id to write the lines against; never used to order
    date: object
    seats: tuple  # SeatResult, ...
    season: int | None = None


@dataclass
class Standing:
    grade: float
    nights: int


class Line(NamedTuple):
    """One member's night at one table, the calculation written out (a named tuple: a club's
    whole history is some hundred thousand of them)."""

    member: object
    table: int
    date: object
    season: int | None
    seq: int
    players: int
    beaten: float
    actual: float
    others_mean: float
    old: float
    par: float
    weight: float
    new: float
    provisional: bool


@dataclass
class Ratings:
    lines: list = field(default_factory=list)
    standing: dict = field(default_factory=dict)  # member -> Standing


def _content_key(table: TableNight) -> tuple:
    return tuple(sorted((str(s.key), s.net) for s in table.seats))


def rate(nights, params: Params = Params(), standing: dict | None = None) -> Ratings:
    """Lines for every member at every table of ``nights`` (any order), starting from
    ``standing`` (member -> Standing after the nights before these)."""
    state = {k: Standing(v.grade, v.nights) for k, v in (standing or {}).items()}
    by_date = defaultdict(list)
    for night in nights:
        if len(night.seats) >= 2:
            by_date[night.date].append(night)
    lines = []
    guest, start, provisional_at = params.guest_grade, params.start_grade, params.provisional_nights
    min_weight = params.min_weight
    for date in sorted(by_date):
        grades = {k: v.grade for k, v in state.items()}
        updates = defaultdict(list)
        for night in sorted(by_date[date], key=_content_key):
            seats = night.seats
            n = len(seats)
            graded = [(s, grades.get(s.key, start) if s.member else guest) for s in seats]
            total = sum(g for _s, g in graded)
            for seat, own in graded:
                if not seat.member:
                    continue
                net = seat.net
                beaten = 0.0
                for other in seats:
                    if other is not seat:
                        beaten += 1.0 if other.net < net else 0.5 if other.net == net else 0.0
                actual = 100.0 * beaten / (n - 1)
                others_mean = (total - own) / (n - 1)
                par = 50.0 + own - others_mean
                updates[seat.key].append((night, n, beaten, actual, others_mean, par))
        for member, items in updates.items():
            current = state.get(member)
            grade, count = (current.grade, current.nights) if current else (start, 0)
            for night, players, beaten, actual, others_mean, par in items:
                count += 1
                weight = max(1.0 / count, min_weight)
                new = grade + weight * (actual - par)
                lines.append(Line(member, night.table, date, night.season, count, players,
                                  beaten, actual, others_mean, grade, par, weight, new,
                                  count < provisional_at))
                grade = new
            state[member] = Standing(grade, count)
    return Ratings(lines, state)
