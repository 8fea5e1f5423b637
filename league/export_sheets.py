"""What the league exports, as ``exports.Sheet``s (the formats live in ``exports/``)."""

from __future__ import annotations

from exports import Sheet
from league.queries import HAND_COLUMNS, NO_FILTERS, Filters, hand_result_rows
from league.ranking import Standings

# "place" is a number (a spreadsheet sorts it as one) and "shared" says a tie ("2=" on the page).
STANDING_COLUMNS = ["place", "shared", "player", "member_id", "group", "nights", "hands",
                    "mah_jongs", "given_away", "net", "table_points", "average", "score",
                    "average_place", "note"]


def standings_sheet(standings: Standings, title: str = "Standings") -> Sheet:
    def rows():
        for group, members in (("ranked", standings.ranked), ("unranked", standings.unranked),
                               ("guest", standings.guests)):
            for r in members:
                yield [r.place, "yes" if r.place is not None and r.shared else "", r.name,
                       r.member_id, group, r.nights, r.hands,
                       r.mahjongs, r.given, r.net, r.table_points, r.average, r.score,
                       r.average_place, r.note]

    return Sheet(title, STANDING_COLUMNS, rows())


def calculation_sheet(standings: Standings) -> Sheet:
    return Sheet("Calculation", ["calculation"], ([line] for line in standings.calculation()))


def hands_sheet(season, filters: Filters = NO_FILTERS) -> Sheet:
    return Sheet("Hand results", HAND_COLUMNS, hand_result_rows(season, filters),
                 date_columns=frozenset({"date"}))
