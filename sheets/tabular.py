"""A night's hands as rows for the CSV and XLSX downloads (``exports``): one row per hand per
seat, with the same figures as the printed sheets."""

from __future__ import annotations

from exports import Sheet
from sheets.data import POT, SessionSheet, Standing, TableSheet, ending

MAX_OPPONENTS = 4  # five at a table: four others

HAND_COLUMNS = [
    "Table", "Hand", "Prevailing wind", "Seat wind", "Player", "How the hand ended", "Score",
    *[f"{what} {n}" for n in range(1, MAX_OPPONENTS + 1)
      for what in ("Opponent", "Received from", "Paid to")],
    "Received from pot/kitty", "Paid to pot/kitty", "Net", "Running total", "Counted",
    # The night's result for the row's player (the same on each of their rows), so the CSV,
    # one table of rows, carries the final totals and places too.
    "Night's final total", "Night's place", "Place shared",
]
# Places and table numbers are numbers (a spreadsheet sorts them as numbers); a tie ("2=" on
# the page) is said in "Shared"; a player who moved tables has the tables as text ("1, 2").
SUMMARY_COLUMNS = ["Place", "Shared", "Player", "Table", "Hands", "Final total"]


def hand_rows(sheet: SessionSheet):
    """One row per hand per seat (a seat sitting the hand out has "out" for its wind)."""
    night = {s.key: s for s in sheet.standings}
    for table in sheet.tables:
        yield from _table_rows(table, night)


def _place(standing: Standing | None) -> tuple:
    if standing is None:
        return None, None, ""
    number, shared = _place_number(standing.place)
    return standing.total, number, "yes" if shared else ""


def _place_number(place: str) -> tuple[int, bool]:
    return int(place.rstrip("=")), place.endswith("=")


def _table_rows(table: TableSheet, night: dict):
    for hand in table.hands:
        how = ending(hand, table)
        for player in table.players:
            me = player.seat_id
            opponents = [p for p in table.players if p.seat_id != me]
            cells: list = []
            for n in range(MAX_OPPONENTS):
                if n < len(opponents):
                    other = opponents[n].seat_id
                    cells += [opponents[n].name, hand.received(me, other), hand.paid(me, other)]
                else:
                    cells += ["", None, None]
            playing = me in hand.winds
            yield [
                table.number, hand.number, hand.prevailing_wind,
                hand.winds.get(me, "out"), player.name, how,
                hand.scores.get(me) if playing and hand.counted else None,
                *cells, hand.received(me, POT), hand.paid(me, POT), hand.net.get(me, 0),
                hand.after[me], "yes" if hand.counted else "no",
                *_place(night.get((player.member_id,
                                   None if player.member_id else player.name))),
            ]


def summary_rows(sheet: SessionSheet):
    for s in sheet.standings:
        number, shared = _place_number(s.place)
        tables = s.tables[0] if len(s.tables) == 1 else ", ".join(map(str, s.tables))
        yield [number, "yes" if shared else "", s.name, tables, s.hands, s.total]


def sheets_for(sheet: SessionSheet, fmt: str) -> list[Sheet]:
    """The hands; in a workbook, the night's standings as a second worksheet (a CSV file holds
    one table, so that it reads back as one)."""
    hands = Sheet("Hands", HAND_COLUMNS, hand_rows(sheet))
    if fmt == "csv":
        return [hands]
    return [hands, Sheet("Final totals", SUMMARY_COLUMNS, summary_rows(sheet))]
