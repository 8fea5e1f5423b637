"""A member's statistics over a season or a date range, read from the stored rows
(``HandResult`` and ``Hand.computed``), never a replay: a constant number of queries whatever
the length of their history.

What a span reads grows with the span: every hand of it. So the page and the API show, when
asked for nothing else, the member's latest season (``latest_season``: the season of their
latest night; a season holds about fifty nights whatever the club's age), with the club's
all-time figures beside it read from the stored standings (``all_time``: one row); the whole
history's statistics are there when asked for (``Span(every=True)``), and cost what they read
(issue #27: the default view must not grow with the club's history).

Imported nights (a spreadsheet's or Kajongg's totals, not hands recorded here) count where a
night's total is enough, read from the league's per-night summary (``NightResult``): nights
played, the net over them, places at the table. The hand statistics (hands won, the wall's
share, limit hands, the largest hand, who paid whom) have no hands of theirs to read: the page
and the API say how many imported nights they leave out, never skipping them silently."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Max, Q, Sum

from clubs.models import Hand, HandResult, Seat
from history.models import ImportedTable
from league.models import NightResult
from league.queries import BEST_HAND_ORDER
from league.summary import FROM_WALL


@dataclass(frozen=True)
class Span:
    """What the statistics cover: a season, and/or dates."""

    season: int | None = None
    start: dt.date | None = None
    end: dt.date | None = None
    # Asked for every season (the whole history), not left to the default.
    every: bool = False
    # The season was chosen for the member (their latest), not asked for.
    latest: bool = False

    def results(self, qs, date="session__date", season="season_id"):
        if self.season:
            qs = qs.filter(**{season: self.season})
        if self.start:
            qs = qs.filter(**{f"{date}__gte": self.start})
        if self.end:
            qs = qs.filter(**{f"{date}__lte": self.end})
        return qs


@dataclass
class Nights:
    """Every night the member played in the span, recorded or imported, from the league's
    per-night summary (one row per player per table)."""

    played: int = 0
    imported: int = 0  # of them, imported as totals: not in the hand statistics
    net: int = 0
    places: list = field(default_factory=list)  # (place, nights), 1st first; ties share a place

    @property
    def place_words(self) -> str:
        """'1st 3, 2nd 4, 4th 1' (a tie counts at the place it shares)."""
        return ", ".join(f"{_ordinal(place)} {n}" for place, n in self.places)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass
class Stats:
    nights: Nights = field(default_factory=Nights)
    hands: int = 0
    won: int = 0
    won_from_wall: int = 0
    given: int = 0
    net: int = 0
    east: dict = field(default_factory=dict)
    goulash: dict = field(default_factory=dict)
    largest: dict | None = None
    specials: list = field(default_factory=list)  # (name, count)
    limit_hands: list = field(default_factory=list)  # dicts, newest first
    paid: list = field(default_factory=list)  # (opponent, received, paid, net), by net

    @property
    def won_share(self) -> float:
        return self.won / self.hands if self.hands else 0.0

    @property
    def wall_share(self) -> float:
        return self.won_from_wall / self.won if self.won else 0.0


def latest_season(member) -> Span:
    """The default span: the season of the member's latest night (one indexed row:
    ``night_by_member_date``). A member with no night yet, or whose latest night is outside any
    season, gets every season (which for them reads little: nights outside seasons are not how
    a league club keeps its history)."""
    season = (NightResult.objects.filter(member=member).order_by("-date")
              .values_list("season_id", flat=True).first())
    return Span(season, latest=True) if season else Span(every=True)


@dataclass(frozen=True)
class AllTime:
    """The member's whole history, as the stored standings keep it (``league.Standing``, the
    club's all-time row: one row, whatever the history): every counted night, imported ones
    too, as ``Nights`` counts them over every season."""

    played: int = 0  # table-nights, as Nights.played
    nights: int = 0  # distinct nights
    net: int = 0
    hands: int = 0  # recorded hands, and those an imported sheet listed
    won: int = 0


def all_time(member) -> AllTime:
    from league.models import Standing

    row = (Standing.objects.filter(scope__club_id=member.club_id, scope__season__isnull=True,
                                   member=member)
           .values_list("tables", "nights", "net", "hands", "mahjongs").first())
    return AllTime(*row) if row else AllTime()


def member_stats(member, span: Span = Span()) -> Stats:
    """The member's statistics over the span. A season (the default: their latest) is read
    from the stored standings (``league.Standing``, the member's row of the season, kept in
    step with every write of the nights) and its few notable hands from their own indexes, so
    it costs the same whatever the season's length; dates, or every season, are summed from
    the hands (``scratch_stats``), and cost what they read."""
    if span.season and not span.start and not span.end:
        return _season_stats(member, span)
    return scratch_stats(member, span)


SEASON_COLUMNS = ("hands", "imported_hands", "mahjongs", "won_from_wall", "given", "net",
                  "imported_net", "east_hands", "east_won", "east_net", "goulash_hands",
                  "goulash_won", "goulash_net", "tables", "imported_tables",
                  "place_1", "place_2", "place_3", "place_4", "place_5")


def _season_stats(member, span: Span) -> Stats:
    from league.models import Standing

    row = (Standing.objects.filter(scope__season_id=span.season, member=member)
           .values_list(*SEASON_COLUMNS).first())
    r = dict(zip(SEASON_COLUMNS, row, strict=True)) if row else dict.fromkeys(SEASON_COLUMNS, 0)
    stats = Stats(hands=r["hands"] - r["imported_hands"], won=r["mahjongs"],
                  won_from_wall=r["won_from_wall"], given=r["given"],
                  net=r["net"] - r["imported_net"],
                  east={"hands": r["east_hands"], "won": r["east_won"], "net": r["east_net"]},
                  goulash={"hands": r["goulash_hands"], "won": r["goulash_won"],
                           "net": r["goulash_net"]})
    stats.nights = Nights(played=r["tables"], imported=r["imported_tables"], net=r["net"],
                          places=[(k, r[f"place_{k}"]) for k in range(1, 6)
                                  if r[f"place_{k}"]])
    # The largest hand and the limit hands: each read in its partial index of the club's,
    # season's and member's winning hands (result_best_hand, result_limit_hand), so they cost
    # the rows they return.
    won = HandResult.objects.filter(club_id=member.club_id, season_id=span.season,
                                    member=member, won=True)
    best = won.order_by(*BEST_HAND_ORDER).values(*NOTABLE).first()
    limits = won.exclude(limit="").order_by("-session__date", "-hand__number").values(*NOTABLE)
    _notable(stats, limits, None)
    stats.largest = _item(best) if best else None
    stats.paid = season_paid(member, span.season)
    return stats


def season_paid(member, season: int) -> list[tuple[str, int, int, int]]:
    """``who_paid_whom`` over a season, from the member's nights' payments as the league's
    per-night summary keeps them (``NightResult.paid``: a row a table-night, read in
    ``night_by_member_season``), with the other seats' names as they are now: two queries,
    that read a row a night and not every hand's payments."""
    nights = NightResult.objects.filter(member=member, season_id=season).order_by()
    by_seat: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for paid in nights.values_list("paid", flat=True):
        for seat, (received, gave) in (paid or {}).items():
            by_seat[int(seat)][0] += received
            by_seat[int(seat)][1] += gave
    if not by_seat:
        return []
    # The seats of the member's tables, found by the same nights in the statement: a list of
    # their ids as parameters cost more to build than the rows to read.
    names = {pk: (member_name or guest) for pk, member_name, guest in
             Seat.objects.filter(table_id__in=nights.values("table_id")).order_by()
             .values_list("pk", "member__display_name", "guest_name")}
    received, paid = defaultdict(int), defaultdict(int)
    for seat, (got, gave) in by_seat.items():
        name = names.get(seat, "?")
        received[name] += got
        paid[name] += gave
    return _paid_rows(received, paid)


NOTABLE = ("seat_id", "score", "limit", "session__date", "hand__number", "hand__table__number",
           "hand__computed__results")


def _item(row: dict) -> dict:
    stored = (row["hand__computed__results"] or {}).get(str(row["seat_id"])) or {}
    return {"date": row["session__date"], "hand": row["hand__number"],
            "table": row["hand__table__number"], "score": row["score"], "limit": row["limit"],
            "name": _special_name(stored) or row["limit"]}


def _notable(stats: Stats, rows, best: int | None) -> None:
    """The limit and special hands made (``rows``, newest first: the won hands with a limit,
    and those scoring ``best``) and the largest hand (the earliest scoring ``best``: by night,
    table number and hand number, as ``league.queries.BEST_HAND_ORDER``)."""
    counts = defaultdict(int)
    for row in rows:
        item = _item(row)
        if row["limit"]:
            counts[item["name"]] += 1
            stats.limit_hands.append(item)
        if row["score"] == best and (stats.largest is None
                                     or _earliest(item) < _earliest(stats.largest)):
            stats.largest = item
    stats.specials = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _earliest(item: dict) -> tuple:
    return item["date"], item["table"], item["hand"]


def scratch_stats(member, span: Span = Span()) -> Stats:
    """The member's statistics summed from their hands over the span: what dates and every
    season read, and the yardstick the stored season rows are held to in the tests."""
    # The club named beside the member: a season's results are then read by
    # ``result_by_club_season`` (club, season, member), not among the member's every result.
    results = span.results(HandResult.objects.filter(club_id=member.club_id, member=member,
                                                     hand__voided=False))
    won = Q(won=True)
    agg = results.aggregate(
        n_hands=Count("id"), n_won=Count("id", filter=won),
        wall=Count("id", filter=won & Q(hand__win_source__in=FROM_WALL)),
        n_given=Count("id", filter=Q(gave=True)), n_net=Sum("net"),
        east_hands=Count("id", filter=Q(seat_wind="E")),
        east_won=Count("id", filter=won & Q(seat_wind="E")),
        east_net=Sum("net", filter=Q(seat_wind="E")),
        goulash_hands=Count("id", filter=Q(hand__goulash=True)),
        goulash_won=Count("id", filter=won & Q(hand__goulash=True)),
        goulash_net=Sum("net", filter=Q(hand__goulash=True)),
        best=Max("score", filter=won))
    stats = Stats(hands=agg["n_hands"], won=agg["n_won"], won_from_wall=agg["wall"],
                  given=agg["n_given"], net=agg["n_net"] or 0,
                  east={"hands": agg["east_hands"], "won": agg["east_won"],
                        "net": agg["east_net"] or 0},
                  goulash={"hands": agg["goulash_hands"], "won": agg["goulash_won"],
                           "net": agg["goulash_net"] or 0})
    # Limit and special hands made, with the largest hand: the won hands with a limit, and the
    # best one, each with the seat's stored result (one query).
    notable = (results.filter(won).filter(Q(limit__gt="") | Q(score=agg["best"] or -1))
               .order_by("-session__date", "-hand__number").values(*NOTABLE))
    _notable(stats, notable, agg["best"])
    stats.paid = who_paid_whom(member, span)
    stats.nights = member_nights(member, span)
    return stats


def member_nights(member, span: Span = Span()) -> Nights:
    """Nights played, imported ones among them, the net and the places: one query."""
    imported = Q(table_id__in=ImportedTable.objects.values("table_id"))
    rows = (span.results(NightResult.objects.filter(member=member, counted=True), "date")
            .order_by().values("place")
            .annotate(n=Count("id"), net=Sum("net"), imported=Count("id", filter=imported))
            .order_by("place"))
    nights = Nights()
    for row in rows:
        nights.played += row["n"]
        nights.imported += row["imported"]
        nights.net += row["net"] or 0
        nights.places.append((row["place"], row["n"]))
    return nights


def _special_name(stored: dict) -> str:
    special = stored.get("special")
    if not special:
        return ""
    for line in stored.get("lines", ()):
        if line.get("code") == special:
            return line.get("name") or special
    return special


def who_paid_whom(member, span: Span = Span()) -> list[tuple[str, int, int, int]]:
    """What the member received from and paid to each opponent (by name; a guest by their
    name) over the span, from the payments stored with each hand: three queries."""
    # The member's seats in the span, with their tables, from the league's per-night rows
    # (one a seat at every table that recorded a hand: a seat without one has no payment),
    # read by season or date where the seats themselves are found only among the member's
    # every seat. A table's hands are of its night: the span needs no second filter.
    seats = dict(span.results(NightResult.objects.filter(member=member), "date")
                 .order_by().values_list("seat_id", "table_id"))
    if not seats:
        return []
    mine, tables = set(seats), set(seats.values())
    hands = Hand.objects.filter(table_id__in=tables, voided=False).order_by()
    names = {pk: (member_name or guest) for pk, member_name, guest in
             Seat.objects.filter(table_id__in=tables).values_list(
                 "pk", "member__display_name", "guest_name")}
    received, paid = defaultdict(int), defaultdict(int)
    for payments in hands.values_list("computed__payments", flat=True):
        for p in payments or ():
            payer, payee = p.get("payer"), p.get("payee")
            if payee in mine and payer not in mine and payer != "pot":
                received[names.get(payer, "?")] += p["amount"]
            elif payer in mine and payee not in mine and payee != "pot":
                paid[names.get(payee, "?")] += p["amount"]
    return _paid_rows(received, paid)


def _paid_rows(received: dict, paid: dict) -> list[tuple[str, int, int, int]]:
    people = set(received) | set(paid)
    rows = [(name, received[name], paid[name], received[name] - paid[name]) for name in people]
    return sorted(rows, key=lambda r: (-r[3], r[0]))
