"""A night's score sheets read from what recording stored: plain objects, a few queries.

Every figure comes from ``Hand.computed`` (``play.HandRow.to_json()``, written with the hand):
each payment between two players (or a player and the pot or kitty), each seat's net and
running total. The number of queries does not depend on the number of hands: the tables, their
seats, their hands, and (only when some hand is voided) the reasons given for voiding.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from clubs.models import AuditAction, AuditEntry, ClubSession, Hand, Seat, Table
from clubs.table_state import stored_table_state
from play import KEPT

POT = "pot"
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
WIND_ORDER = "ESWN"
LAYOUTS = {"per_player": "Per-player sheet (004)", "tally": "Tally sheet (002)"}


@dataclass(frozen=True)
class Player:
    seat_id: int
    name: str
    position: int
    starting_wind: str  # "" for a fifth player who sits out the first hand
    member_id: int | None


@dataclass(frozen=True)
class SheetHand:
    """One recorded hand as both sheets show it, by seat id."""

    id: int
    number: int
    prevailing_wind: str
    winds: dict[int, str]  # the seats that played the hand; a seat sitting out is absent
    voided: bool
    void_reason: str
    error: bool  # the engines refuse this hand under the session's rule: it counts for nothing
    winner: int | None
    discarder: int | None
    draw: bool
    goulash: bool
    win_source: str
    scores: dict[int, int]
    # (payer, payee) -> amount, summed over the hand's payments; payer/payee a seat id or "pot".
    transfers: dict[tuple, int]
    net: dict[int, int]
    before: dict[int, int]  # running totals as the hand starts
    after: dict[int, int]  # running totals after it
    pot_before: int
    pot_after: int
    # Seated as the table played it after an earlier hand was corrected or voided (play.KEPT):
    # the sheet says so, so the sequence it prints is one the rotation allows.
    seating_kept: bool = False

    @property
    def counted(self) -> bool:
        return not self.voided and not self.error

    def received(self, seat_id: int, source) -> int:
        return self.transfers.get((source, seat_id), 0)

    def paid(self, seat_id: int, target) -> int:
        return self.transfers.get((seat_id, target), 0)

    @property
    def pot_change(self) -> int:
        return self.pot_after - self.pot_before


@dataclass(frozen=True)
class TableSheet:
    id: int
    number: int
    players: tuple[Player, ...]
    hands: tuple[SheetHand, ...]
    start: int  # the tally each player starts from (002: 2,000; 004: 0)
    uses_pot: bool  # some payment went to or from a pot or kitty
    rule_start: int = 0  # the house rule's starting tally (``start`` may be the sheet's choice)

    def player(self, seat_id: int) -> Player:
        return next(p for p in self.players if p.seat_id == seat_id)

    def final(self, seat_id: int) -> int:
        """What the night won or lost this player at this table (the sum of the nets)."""
        return sum(h.net.get(seat_id, 0) for h in self.hands)

    def hands_played(self, seat_id: int) -> int:
        return sum(1 for h in self.hands if h.counted and seat_id in h.winds)

    def ending(self, hand: SheetHand) -> str:
        return ending(hand, self)


@dataclass(frozen=True)
class Standing:
    place: str  # "1", "2=", ...
    name: str
    tables: tuple[int, ...]
    hands: int
    total: int
    member_id: int | None = None  # None for a guest, known by name

    @property
    def key(self) -> tuple:
        """Who this is, as ``standings`` groups players: a member wherever they sat, a guest by
        name."""
        return (self.member_id, None if self.member_id else self.name)


@dataclass(frozen=True)
class SessionSheet:
    club: str
    date: object  # datetime.date
    rule_name: str
    rule_version: int
    layout: str  # "per_player" or "tally"
    tables: tuple[TableSheet, ...]
    standings: tuple[Standing, ...] = field(default=())

    @property
    def heading(self) -> str:
        """What every printed page carries: the club, the date, the house rule and version."""
        return f"{self.club} · {self.date:%a %d %b %Y} · {self.rule_name} (v{self.rule_version})"


def default_layout(session: ClubSession) -> str:
    """The sheet the session's house rule names (``HouseRule.score_sheet``); per-player for a
    version frozen before house rules named one."""
    return session.house_rule_version.data.get("score_sheet") or "per_player"


def session_layout(session: ClubSession) -> str:
    """The sheet a scorer picked for this session (``SessionLayout``), else the house rule's."""
    from sheets.models import SessionLayout

    picked = (SessionLayout.objects.filter(session_id=session.pk)
              .values_list("layout", flat=True).first())
    return picked or default_layout(session)


def pick_layout(session: ClubSession, layout: str | None, user) -> tuple[str | None, str | None]:
    """Make ``layout`` the session's sheet (None: back to the house rule's), with an entry in
    the audit trail. Returns the pick before and after."""
    from django.db import transaction

    from sheets.models import SessionLayout

    with transaction.atomic():
        before = (SessionLayout.objects.select_for_update().filter(session_id=session.pk)
                  .values_list("layout", flat=True).first())
        if layout is None:
            SessionLayout.objects.filter(session_id=session.pk).delete()
        else:
            SessionLayout.objects.update_or_create(
                session_id=session.pk,
                defaults={"layout": layout,
                          "chosen_by": user if user and user.is_authenticated else None})
        if before != layout:
            AuditEntry.objects.create(
                club_id=session.club_id, user=user if user and user.is_authenticated else None,
                action=AuditAction.UPDATE, object_type="clubsession", object_id=str(session.pk),
                before={"sheet_layout": before}, after={"sheet_layout": layout},
                note="Score sheet picked for the session.")
    return before, layout


def session_sheet(session: ClubSession, layout: str | None = None,
                  tables: list[Table] | None = None, start: int | None = None) -> SessionSheet:
    """The sheets of every table of the session (or of ``tables``), with the night's standings.
    ``session`` should come with ``club`` and ``house_rule_version__record`` loaded.

    ``start`` is the tally each player's running total starts from on this sheet (002 starts
    from 2,000 for tally sticks): a choice of the sheet, not of the house rule, so it moves the
    running totals and nothing else (no payment, net or final total). None: the house rule's."""
    version = session.house_rule_version
    if tables is None:
        tables = list(Table.objects.filter(session=session).order_by("number"))
    rule_start = version.data.get("payment", {}).get("starting_tally", 0)
    sheets = tuple(_table_sheets(tables, rule_start,
                                 rule_start if start is None else start))
    return SessionSheet(
        club=session.club.name, date=session.date, rule_name=version.record.name,
        rule_version=version.number, layout=layout or session_layout(session), tables=sheets,
        standings=standings(sheets),
    )


def _table_sheets(tables: list[Table], rule_start: int, start: int):
    ids = [t.pk for t in tables]
    players: dict[int, list[Player]] = defaultdict(list)
    for seat in Seat.objects.filter(table_id__in=ids).select_related("member").order_by(
            "table_id", "position"):
        players[seat.table_id].append(
            Player(seat.pk, seat.name, seat.position, seat.starting_wind, seat.member_id))
    rows = list(
        Hand.objects.filter(table_id__in=ids).order_by("table_id", "number").values_list(
            "id", "table_id", "number", "voided", "prevailing_wind", "winner_id", "discarder_id",
            "draw", "goulash", "win_source", "computed", "facts")
    )
    reasons = _void_reasons([r[0] for r in rows if r[3]])
    by_table: dict[int, list] = defaultdict(list)
    for row in rows:
        by_table[row[1]].append(row)
    for table in tables:
        table_rows = by_table[table.pk]
        if any(r[10] is None for r in table_rows):
            # Figures stored by an older release: read them as the table page does (which
            # replays such a table until its next write stores them).
            computed = {h.id: h.to_json() for h in stored_table_state(table).hands}
            table_rows = [(*r[:10], computed.get(r[0]), r[11]) for r in table_rows]
        seats = tuple(players[table.pk])
        hands = tuple(_hands(table_rows, seats, rule_start, reasons, start - rule_start))
        uses_pot = any(POT in pair for h in hands for pair in h.transfers) or any(
            h.pot_before or h.pot_after for h in hands)
        yield TableSheet(table.pk, table.number, seats, hands, start, uses_pot, rule_start)


def _hands(rows, seats: tuple[Player, ...], start: int, reasons: dict[int, str],
           shift: int = 0):
    """The hands as the sheets show them; ``shift`` moves every running total (the sheet's
    chosen starting tally less the house rule's)."""
    running = {p.seat_id: start for p in seats}
    for (pk, _table, number, voided, prevailing, winner, discarder, draw, goulash, win_source,
         computed, facts) in rows:
        computed = computed or {}
        transfers: dict[tuple, int] = defaultdict(int)
        for p in computed.get("payments", ()):
            transfers[(_party(p["payer"]), _party(p["payee"]))] += p["amount"]
        net = {int(k): v for k, v in computed.get("net", {}).items()}
        before = dict(running)
        if not voided and not computed.get("error"):
            stored = {int(k): v for k, v in computed.get("totals", {}).items()}
            running = {s: stored.get(s, running[s] + net.get(s, 0)) for s in running}
        seating = computed.get("seating", {})
        yield SheetHand(
            id=pk, number=number, prevailing_wind=prevailing,
            winds={int(k): w for k, w in seating.get("winds", {}).items()},
            voided=voided, void_reason=reasons.get(pk, ""), error=bool(computed.get("error")),
            winner=winner, discarder=discarder, draw=draw, goulash=goulash,
            win_source=win_source,
            scores={int(k): v for k, v in computed.get("scores", {}).items()},
            transfers=dict(transfers), net=net,
            before={s: v + shift for s, v in before.items()},
            after={s: v + shift for s, v in running.items()},
            pot_before=computed.get("pot_before", 0), pot_after=computed.get("pot_after", 0),
            seating_kept=bool((facts or {}).get(KEPT)),
        )


def _party(who):
    return who if who == POT else int(who)


def _void_reasons(hand_ids: list[int]) -> dict[int, str]:
    """The note given when each hand was last voided (the audit trail keeps it)."""
    if not hand_ids:
        return {}
    reasons: dict[int, str] = {}
    entries = (AuditEntry.objects.filter(object_type="hand", action=AuditAction.VOID,
                                         object_id__in=[str(i) for i in hand_ids])
               .order_by("at", "id").values_list("object_id", "note"))
    for object_id, note in entries:
        reasons[int(object_id)] = note
    return reasons


def standings(tables: tuple[TableSheet, ...]) -> tuple[Standing, ...]:
    """Each player's final total over the night and their place, highest first. A member is one
    player wherever they sat; a guest is known by name (as ``ClubSession.player_totals``)."""
    players: dict[tuple, dict] = {}
    for table in tables:
        for p in table.players:
            key = (p.member_id, None if p.member_id else p.name)
            entry = players.setdefault(key, {"name": p.name, "tables": set(), "hands": 0,
                                             "total": 0, "member_id": p.member_id})
            entry["tables"].add(table.number)
            entry["hands"] += table.hands_played(p.seat_id)
            entry["total"] += table.final(p.seat_id)
    ordered = sorted(players.values(), key=lambda e: (-e["total"], e["name"]))
    result = []
    for entry in ordered:
        # Equal totals share a place ("2="), and the next place after them is skipped.
        place = 1 + sum(1 for e in ordered if e["total"] > entry["total"])
        tied = sum(1 for e in ordered if e["total"] == entry["total"]) > 1
        result.append(Standing(f"{place}{'=' if tied else ''}", entry["name"],
                               tuple(sorted(entry["tables"])), entry["hands"], entry["total"],
                               entry["member_id"]))
    return tuple(result)


def ending(hand: SheetHand, table: TableSheet) -> str:
    """How the hand ended, in words: who went Mah Jong and how, or a wall game; a hand seated
    as the table played on after a correction says so first."""
    said = _ending(hand, table)
    return f"Seated as played. {said}" if hand.seating_kept else said


def _ending(hand: SheetHand, table: TableSheet) -> str:
    if hand.voided:
        return f"Void: {hand.void_reason}" if hand.void_reason else "Void"
    if hand.error:
        return "Not scored under this house rule (to be corrected)"
    extra = " (goulash)" if hand.goulash else ""
    if hand.draw or hand.winner is None:
        return "Wall game" + extra
    who = table.player(hand.winner).name
    if hand.discarder is not None:
        how = f"on {table.player(hand.discarder).name}'s discard"
    else:
        # No discarder on a discard or a robbed kong: the discarder was unknown (play.UNKNOWN).
        how = {"wall": "self-drawn", "kong_box": "from the kong box",
               "discard": "on a discard (who discarded is not known)",
               "robbed_kong": "robbing a kong (whose is not known)"}.get(hand.win_source,
                                                                        "self-drawn")
    return f"Mah Jong: {who}, {how}{extra}"
