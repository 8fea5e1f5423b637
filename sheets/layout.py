"""The printed pages of a night's sheets, as rows of text: what the print page and the PDF both
draw, so they can never disagree.

- 004's per-player sheet ("Score sheet template"): one sheet per player headed Name, Date and
  Wind of the Round; a row per hand with the player's wind and the hand's number, a Receive and
  a Pay column for each opponent (named in the header), then Win and Lose; Totals, Subtract and
  Final totals at the foot. Twelve hand rows a sheet as on paper: a longer night goes on to
  another sheet that starts with the totals brought forward.
- 002's "Score Sheet": a row per hand with the Winning Score and the Prevailing Wind, then for
  each player the Total they hold as the hand starts and the hand's Payments (from 2,000 each
  when the house rule starts from a tally), and the final tallies at the foot.

A pot or kitty (goulash chips, 000's kitty) gets its own columns, so every row nets to zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sheets.data import POT, WIND_NAMES, SessionSheet, SheetHand, TableSheet, ending

ROWS_PER_PLAYER_SHEET = 12  # 004's template: twelve hands a sheet
BLANK_TALLY_ROWS = 24
# The relative widths of each kind of page's first columns (a figure's column is 1).
LABEL_WEIGHTS = {"per_player": (1.5, 1.3), "tally": (0.8, 1.4, 1.4),
                 "summary": (0.6, 3.0, 1.0, 1.0)}


@dataclass(frozen=True)
class HeaderCell:
    text: str
    colspan: int = 1
    rowspan: int = 1


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    # "hand", "void" (struck through), "out" (sat out), "brought" (brought forward), "totals",
    # "subtract", "final", "blank" (to fill in by hand)
    kind: str = "hand"
    note: str = ""  # shown under a struck-through hand: why it counts for nothing
    mark: str = ""  # beside the hand's number: "wall game", "goulash", "goulash wall game"

    @property
    def is_foot(self) -> bool:
        """Totals, Subtract, Final totals, Brought forward: a label across the first two
        columns, then figures."""
        return self.kind in ("totals", "subtract", "final", "brought")


@dataclass(frozen=True)
class Page:
    """One sheet of paper: a heading, the fields filled in at its top, one grid."""

    kind: str  # "per_player", "tally" or "summary"
    title: str
    fields: tuple[tuple[str, str], ...]
    header: tuple[tuple[HeaderCell, ...], ...]
    rows: tuple[Row, ...]
    # Columns holding figures (right-aligned), by index.
    numeric_from: int = 2
    footnote: str = ""

    @property
    def columns(self) -> int:
        return sum(cell.colspan for cell in self.header[0])

    @property
    def widths(self) -> tuple[float, ...]:
        """Each column's share of the page width (they add up to 1): the label columns wider
        than a figure's, so the print view and the PDF lay the page out alike."""
        first = LABEL_WEIGHTS[self.kind]
        weights = (*first, *[1.0] * (self.columns - len(first)))
        return tuple(w / sum(weights) for w in weights)

    @property
    def percent_widths(self) -> tuple[str, ...]:
        return tuple(f"{100 * w:.2f}" for w in self.widths)


@dataclass(frozen=True)
class Document:
    heading: str  # club · date · house rule (version): on every page
    title: str
    pages: tuple[Page, ...] = field(default=())


def _n(value: int) -> str:
    return "" if not value else f"{value:,}"


def _signed(value: int) -> str:
    return "0" if not value else f"{value:+,}"


# -- 004: one sheet per player ------------------------------------------------------------------


def player_pages(sheet: SessionSheet, table: TableSheet, seat_id: int,
                 blank: bool = False) -> list[Page]:
    me = table.player(seat_id)
    opponents = [p for p in table.players if p.seat_id != seat_id]
    sources = [p.seat_id for p in opponents] + ([POT] if table.uses_pot else [])
    # 004's template: "Opponents" over the three opponents' columns, each opponent's name over
    # their Receive and Pay.
    header = (
        (HeaderCell("Wind", rowspan=3), HeaderCell("Hand", rowspan=3),
         HeaderCell("Opponents", colspan=2 * len(opponents)),
         *((HeaderCell("Pot/kitty", colspan=2, rowspan=2),) if table.uses_pot else ()),
         HeaderCell("Win", rowspan=3), HeaderCell("Lose", rowspan=3)),
        tuple(HeaderCell(f"Name: {p.name}", colspan=2) for p in opponents),
        tuple(HeaderCell(t) for _ in sources for t in ("Receive", "Pay")),
    )
    width = 2 + 2 * len(sources) + 2

    def hand_row(hand: SheetHand) -> Row:
        if seat_id not in hand.winds:
            cells = ["out", str(hand.number)] + [""] * (width - 2)
            return Row(tuple(cells), "void" if hand.voided else "out",
                       _note(hand, table) if hand.voided else "", hand_mark(hand))
        money = []
        for source in sources:
            money += [hand.received(seat_id, source), hand.paid(seat_id, source)]
        net = hand.net.get(seat_id, 0)
        cells = [WIND_NAMES[hand.winds[seat_id]], str(hand.number), *map(_n, money),
                 _n(max(net, 0)), _n(max(-net, 0))]
        if hand.counted:
            return Row(tuple(cells), "hand", mark=hand_mark(hand))
        return Row(tuple(cells), "void", _note(hand, table), hand_mark(hand))

    def sums(hands) -> list[int]:
        col = [0] * (width - 2)
        for hand in hands:
            if seat_id not in hand.winds:
                continue
            i = 0
            for source in sources:
                col[i] += hand.received(seat_id, source)
                col[i + 1] += hand.paid(seat_id, source)
                i += 2
            net = hand.net.get(seat_id, 0)
            col[i] += max(net, 0)
            col[i + 1] += max(-net, 0)
        return col

    hands = list(table.hands)
    chunks = [hands[i:i + ROWS_PER_PLAYER_SHEET]
              for i in range(0, len(hands), ROWS_PER_PLAYER_SHEET)] or [[]]
    if blank:
        chunks = [[]]
    pages = []
    brought = [0] * (width - 2)  # the sheets before this one's totals, carried forward
    for index, chunk in enumerate(chunks):
        rows: list[Row] = []
        if index:
            rows.append(Row(("Brought forward", "", *map(_n, brought)), "brought"))
        if blank:
            first = WIND_NAMES.get(me.starting_wind, "out")
            rows += [Row((first if n == 1 else "", str(n), *[""] * (width - 2)), "blank")
                     for n in range(1, ROWS_PER_PLAYER_SHEET + 1)]
            totals = None
        else:
            rows += [hand_row(h) for h in chunk]
            totals = [a + b for a, b in zip(brought, sums(chunk), strict=True)]
            brought = totals
        if totals is None:
            rows += [Row(("Totals:", "", *[""] * (width - 2)), "totals"),
                     Row(("Subtract:", "", *[""] * (width - 2)), "subtract"),
                     Row(("Final totals:", "", *[""] * (width - 2)), "final")]
        else:
            win, lose = totals[-2], totals[-1]
            final = win - lose
            rows += [
                Row(("Totals:", "", *map(_n, totals)), "totals"),
                Row(("Subtract:", "", *[""] * (width - 4), _n(lose), ""), "subtract"),
                Row(("Final totals:", "", *[""] * (width - 4),
                     f"{final:,}" if final >= 0 else "", f"{-final:,}" if final < 0 else ""),
                    "final"),
            ]
        last = index == len(chunks) - 1
        fields = [("Name", me.name), ("Date", f"{sheet.date:%d %b %Y}"),
                  ("Wind of the Round", _round_winds(chunk, blank)),
                  ("Table", str(table.number))]
        if len(chunks) > 1:
            fields.append(("Sheet", f"{index + 1} of {len(chunks)}"))
        footnote = "" if last or blank else "Continued on the next sheet."
        pages.append(Page("per_player", f"{me.name} · table {table.number}", tuple(fields),
                          header, tuple(rows), footnote=footnote))
    return pages


def hand_mark(hand: SheetHand) -> str:
    """What a per-player sheet writes beside a hand's number so a row with no payments does not
    read as a hand left out: a wall game (no Mah Jong), a goulash hand."""
    if not hand.counted:
        return ""
    wall = hand.draw or hand.winner is None
    if hand.goulash:
        return "goulash wall game" if wall else "goulash"
    return "wall game" if wall else ""


def _note(hand: SheetHand, table: TableSheet) -> str:
    """What a struck-through hand says under it: why it counts for nothing."""
    return f"Hand {hand.number}: {ending(hand, table)}"


def _round_winds(hands: list[SheetHand], blank: bool) -> str:
    if blank or not hands:
        return "East"
    seen = []
    for hand in hands:
        name = WIND_NAMES[hand.prevailing_wind]
        if name not in seen:
            seen.append(name)
    return ", ".join(seen)


# -- 002: the running-tally sheet ---------------------------------------------------------------


def tally_page(sheet: SessionSheet, table: TableSheet, blank: bool = False) -> Page:
    players = list(table.players)
    header = (
        (HeaderCell("Hand", rowspan=2), HeaderCell("Winning score", rowspan=2),
         HeaderCell("Prevailing wind", rowspan=2),
         *(HeaderCell(f"Player: {p.name}", colspan=2) for p in players),
         *((HeaderCell("Pot/kitty", colspan=2),) if table.uses_pot else ())),
        tuple(HeaderCell(t) for _ in range(len(players) + table.uses_pot)
              for t in ("Total", "Payments")),
    )
    rows: list[Row] = []
    if blank:
        rows.append(Row(("1", "", "East", *[x for _ in players for x in (f"{table.start:,}", "")],
                         *(("0", "") if table.uses_pot else ())), "blank"))
        rows += [Row((str(n), "", "", *[""] * (2 * (len(players) + table.uses_pot))), "blank")
                 for n in range(2, BLANK_TALLY_ROWS + 1)]
    for hand in () if blank else table.hands:
        cells = [str(hand.number), _winning_score(hand), WIND_NAMES[hand.prevailing_wind]]
        for p in players:
            if p.seat_id not in hand.winds:
                cells += [f"{hand.before[p.seat_id]:,}", "out"]
            else:
                cells += [f"{hand.before[p.seat_id]:,}", _signed(hand.net.get(p.seat_id, 0))]
        if table.uses_pot:
            cells += [f"{hand.pot_before:,}", _signed(hand.pot_change if hand.counted else 0)]
        kind = "hand" if hand.counted else "void"
        rows.append(Row(tuple(cells), kind, "" if hand.counted else _note(hand, table)))
    if not blank:
        final = [x for p in players
                 for x in (f"{(table.hands[-1].after if table.hands else {}).get(p.seat_id, table.start):,}",
                           _signed(table.final(p.seat_id)))]
        pot = ()
        if table.uses_pot:
            last = table.hands[-1].pot_after if table.hands else 0
            pot = (f"{last:,}", "")
        rows.append(Row(("Final", "", "", *final, *pot), "final"))
    fields = (("Date", f"{sheet.date:%d %b %Y}"), ("Table", str(table.number)),
              ("Starting tally", f"{table.start:,}" if table.start == table.rule_start
               else f"{table.start:,} (this sheet's; the house rule starts at "
                    f"{table.rule_start:,})"))
    footnote = ("Total: each player's tally as the hand starts; Payments: what the hand paid "
                "them (+) or cost them (-). Final: the tallies after the last hand and what the "
                "night won or lost.")
    return Page("tally", f"Table {table.number} · score sheet", fields, header, tuple(rows),
                numeric_from=3, footnote=footnote)


def _winning_score(hand: SheetHand) -> str:
    if not hand.counted:
        return "void" if hand.voided else "—"
    if hand.winner is None:
        return "wall game"
    return f"{hand.scores.get(hand.winner, 0):,}"


# -- the night ----------------------------------------------------------------------------------


def summary_page(sheet: SessionSheet) -> Page:
    header = ((HeaderCell("Place"), HeaderCell("Player"), HeaderCell("Table"),
               HeaderCell("Hands"), HeaderCell("Final total")),)
    rows = tuple(Row((s.place, s.name, ", ".join(map(str, s.tables)), str(s.hands),
                      f"{s.total:,}")) for s in sheet.standings)
    return Page("summary", "The night's final totals", (("Date", f"{sheet.date:%d %b %Y}"),),
                header, rows, numeric_from=3)


def document(sheet: SessionSheet, whole_session: bool, blank: bool = False) -> Document:
    """Every page: for each table its sheets (a per-player sheet for each player, or the tally
    sheet), then, for the whole session, the night's summary."""
    pages: list[Page] = []
    for table in sheet.tables:
        if sheet.layout == "tally":
            pages.append(tally_page(sheet, table, blank))
        else:
            for player in table.players:
                pages += player_pages(sheet, table, player.seat_id, blank)
    if whole_session and not blank:
        pages.append(summary_page(sheet))
    what = "Blank score sheets" if blank else "Score sheets"
    if not whole_session and sheet.tables:
        what += f", table {sheet.tables[0].number}"
    return Document(sheet.heading, what, tuple(pages))
