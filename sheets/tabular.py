"""A night's hands as rows for the CSV and XLSX downloads (``exports``): one row per hand per
seat, with the same figures as the printed sheets."""

from __future__ import annotations

from exports import Sheet
from sheets.data import POT, SessionSheet, TableSheet, ending

MAX_OPPONENTS = 4  # five at a table: four others

HAND_COLUMNS = [
    "Table", "Hand", "Prevailing wind", "Seat wind", "Player", "How the hand ended", "Score",
    *[f"{what} {n}" for n in range(1, MAX_OPPONENTS + 1)
      for what in ("Opponent", "Received from", "Paid to")],
    "Received from pot/kitty", "Paid to pot/kitty", "Net", "Running total", "Counted",
]
SUMMARY_COLUMNS = ["Place", "Player", "Tables", "Hands", "Final total"]


def hand_rows(sheet: SessionSheet):
    """One row per hand per seat (a seat sitting the hand out has "out" for its wind)."""
    for table in sheet.tables:
        yield from _table_rows(table)


def _table_rows(table: TableSheet):
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
            ]


def summary_rows(sheet: SessionSheet):
    for s in sheet.standings:
        yield [s.place, s.name, ", ".join(map(str, s.tables)), s.hands, s.total]


def sheets_for(sheet: SessionSheet, fmt: str) -> list[Sheet]:
    """The hands; in a workbook, the night's standings as a second worksheet (a CSV file holds
    one table, so that it reads back as one)."""
    hands = Sheet("Hands", HAND_COLUMNS, hand_rows(sheet))
    if fmt == "csv":
        return [hands]
    return [hands, Sheet("Final totals", SUMMARY_COLUMNS, summary_rows(sheet))]
