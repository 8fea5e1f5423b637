"""Reading standings: a constant number of queries whatever the number of nights, hands or
players. Unfiltered, the stored rows (``league.standings_store``), one query; filtered, the
per-night summary's rows the filters keep, one GROUP BY per player with the players' names
and the count of the nights, one query too. Best-N adds each player's night values."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection
from django.db.models import (
    CharField,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Cast, Coalesce

from clubs.models import HandResult, Member
from league.models import NightResult, Standing, StandingScope
from league.ranking import (
    PRESETS,
    RULE_FIELDS,
    LeagueRules,
    PlayerTotals,
    Standings,
    rank,
)

POINT_COLUMNS = {"4-2-1-0": "points_zero", "4-2-1-0.5": "points_half"}


class FilterPaths(NamedTuple):
    """Where a queryset's rows keep what ``Filters`` narrow by."""

    date: str
    house_rule: str
    table: str


NIGHT_PATHS = FilterPaths("date", "house_rule_id", "table_number")
HAND_PATHS = FilterPaths("session__date", "session__house_rule_version__record_id",
                         "seat__table__number")


@dataclass(frozen=True)
class Filters:
    """What the page's and the API's filters narrow the nights to."""

    start: dt.date | None = None
    end: dt.date | None = None
    as_of: dt.date | None = None
    house_rule: int | None = None  # a HouseRuleRecord id
    table: int | None = None  # a table number

    def q(self, paths: FilterPaths | None = None) -> Q:
        """The condition they make; ``paths`` say where the night's date, house rule and table
        number are (the per-night summary's own columns unless given)."""
        date, house_rule, table = paths or NIGHT_PATHS
        return Q(*((name, value) for name, value in (
            (f"{date}__gte", self.start), (f"{date}__lte", self.end),
            (f"{date}__lte", self.as_of), (house_rule, self.house_rule), (table, self.table),
        ) if value))

    def apply(self, qs: QuerySet, paths: FilterPaths | None = None) -> QuerySet:
        """``qs`` narrowed (``q``)."""
        return qs.filter(self.q(paths))

    def to_dict(self) -> dict:
        return {k: (v.isoformat() if isinstance(v, dt.date) else v)
                for k, v in self.__dict__.items() if v is not None}


NO_FILTERS = Filters()


def nights_of(season=None, club=None, filters: Filters = NO_FILTERS) -> QuerySet:
    qs = NightResult.objects.filter(counted=True)
    if season is not None:
        qs = qs.filter(season_id=season.pk)
    if club is not None:
        qs = qs.filter(club_id=club.pk)
    return filters.apply(qs)


def standings(rules: LeagueRules, season=None, club=None,
              filters: Filters = NO_FILTERS) -> Standings:
    """A season's standings (or a club's all-time ones: ``club`` and no season): the stored
    rows (``league.standings_store``), one query; with filters, the nights they keep summed,
    one query too (best-N reads each player's night values besides)."""
    if filters == NO_FILTERS:
        return stored_standings(rules, season, club)
    if season is not None:
        found = summed(SUMMED_ROWS, filters, "season_id", season_id=season.pk)
    else:
        found = summed(SUMMED_ROWS, filters, "club_id", club_id=club.pk)
    return _ranked(rules, [_stored_order(row, 2) for row in found],
                   found[0][-1] if found else 0, lambda: nights_of(season, club, filters))


STORED_COLUMNS = ("member_id", "guest_name", "member__display_name", "nights", "hands", "net",
                  "mahjongs", "given", "points_zero", "points_half", "place_sum", "tables")
# The stored reads' columns are set once, as a view's class-level queryset is, and each
# request only filters a copy: resolving these columns' joins on every request cost more than
# reading the rows (issue #27: 0.9 ms of a season's 1.7 ms read, at a load of 5). Never
# evaluated themselves.
STORED_ROWS = Standing.objects.values_list(*STORED_COLUMNS, "scope__nights")
SEASON_ABOUT = ("season__name", "season__club__slug", "season__league__id",
                *(f"season__league__{name}" for name in RULE_FIELDS))
SEASON_STORED = StandingScope.objects.values_list(
    *SEASON_ABOUT, "nights", *(f"rows__{c}" for c in STORED_COLUMNS))
ALL_TIME_ABOUT = ("club__slug",)
ALL_TIME_STORED = StandingScope.objects.values_list(
    *ALL_TIME_ABOUT, "nights", *(f"rows__{c}" for c in STORED_COLUMNS))


def stored_standings(rules: LeagueRules, season=None, club=None) -> Standings:
    """The standings from the stored rows: each player's row with their name and the scope's
    count of nights, in one query whatever the history (best-N also reads the season's
    nights, each player's value of each)."""
    found = list(STORED_ROWS.filter(scope__season_id=season.pk) if season is not None else (
        STORED_ROWS.filter(scope__club_id=club.pk, scope__season__isnull=True)))
    return _ranked(rules, found, found[0][-1] if found else 0, lambda: nights_of(season, club))


class Scope(NamedTuple):
    """What an answer names its file by: the season's name (None for all time) and its
    club's slug."""

    name: str | None
    club_slug: str


def seen_standings(seen: Q, filters: Filters = NO_FILTERS, season_id: int | None = None,
                   club_slug: str | None = None) -> tuple[Scope, Standings] | None:
    """A season's (or with ``club_slug``, a club's all-time) standings and what the answer
    needs of their scope (the season's name and league rules, the club's slug), among those
    ``seen`` keeps (``clubs.permissions.seen_by`` on ``season__club``, or ``club`` for all
    time), in one query (best-N reads each player's night values besides): unfiltered, the
    scope with its season, club and league rules, and its stored rows (one a player);
    filtered, the nights the filters keep summed, one row a player, each with the scope's
    columns and the count of those nights. None when that finds nothing (no such season or
    club, one the user may not see, no night counted there yet, or none the filters keep):
    the caller then looks the season or club up (a 404, or empty standings)."""
    if season_id is not None:
        # season__pk, not season_id: an id past the column's range finds nothing (no query)
        about, where = SEASON_ABOUT, {"season__pk": season_id}
        stored, grouped, scope = SEASON_STORED, SEASON_SUMMED, "season_id"
    else:
        about, where = ALL_TIME_ABOUT, {"club__slug": club_slug}
        stored, grouped, scope = ALL_TIME_STORED, ALL_TIME_SUMMED, "club_id"
    width = len(about)
    if filters == NO_FILTERS:
        found = list(stored.filter(seen, **where) if season_id is not None else
                     stored.filter(seen, season__isnull=True, **where))
        if not found:
            return None
        # The scope's columns and nights, then its rows' columns; a scope without rows comes
        # as one row whose player columns are NULL (guest_name is never NULL in a stored row).
        first, season_nights = found[0], found[0][width]
        rows = [row[width + 1:] for row in found if row[width + 2] is not None]
    else:
        found = summed(grouped, filters, scope, seen, **where)
        if not found:
            return None
        first, season_nights = found[0][2:], found[0][-1]
        rows = [_stored_order(row, 2 + width) for row in found]
    if season_id is None:
        name, rules = Scope(None, first[0]), PRESETS["net"][1]
    else:
        name = Scope(first[0], first[1])
        # The columns of SeasonLeague named as LeagueRules' fields, in their order; no row
        # (the join found none): the net preset, as rules_of says.
        *league, tie_breaks = first[3:width]
        rules = PRESETS["net"][1] if first[2] is None else LeagueRules(*league,
                                                                       tuple(tie_breaks))
    return name, _ranked(rules, rows, season_nights, lambda: filters.apply(
        NightResult.objects.filter(counted=True, **where)))


# The filtered path's rows: STORED_COLUMNS summed over the nights a filter keeps, one row a
# player, then the count of those nights (``summed``). As STORED_ROWS, the grouping and the
# sums are resolved once and each request filters a copy (filters on the nights' own columns
# go to WHERE, not HAVING); the API's reads group by the scope's columns too (the season's
# name and league rules, the club's slug), which every row of one scope shares.
SUMS = {"nights": Count("session_id", distinct=True), "hands": Sum("hands"), "net": Sum("net"),
        "mahjongs": Sum("mahjongs"), "given": Sum("given"), "points_zero": Sum("points_zero"),
        "points_half": Sum("points_half"), "place_sum": Sum("place"), "tables": Count("id")}
PLAYER = ("member_id", "guest_name")
# The member's name read once a player (a subquery by the member's key, annotated after the
# sums so that it is not grouped by), not joined to every night and grouped by: the read
# 0.3x the summary's sums less on PostgreSQL at 1M hands (issue #27).
NAME = Subquery(Member.objects.filter(pk=OuterRef("member_id")).order_by().values(
    "display_name"))
COUNTED = NightResult.objects.filter(counted=True).order_by()
SUMMED_ROWS = COUNTED.values(*PLAYER).annotate(**SUMS).annotate(display_name=NAME)
# The player's columns lead the GROUP BY, the scope's (the same in every row) after them.
SEASON_SUMMED = COUNTED.values(*PLAYER, *SEASON_ABOUT).annotate(**SUMS).annotate(
    display_name=NAME)
ALL_TIME_SUMMED = COUNTED.values(*PLAYER, *ALL_TIME_ABOUT).annotate(**SUMS).annotate(
    display_name=NAME)
# The count of the nights kept, grouped by the column every row of the scope shares.
NIGHTS_COUNTED = {scope: COUNTED.values(scope).annotate(
    n=Count("session_id", distinct=True)).values("n") for scope in ("season_id", "club_id")}


def summed(grouped: QuerySet, filters: Filters, scope: str, seen: Q | None = None,
           **where) -> list[tuple]:
    """``grouped``'s rows (``SUMMED_ROWS`` or the API's, with their scope) over the counted
    nights that ``where`` and ``filters`` keep (and ``seen``, who may see them), as tuples:
    its columns, then the count of those nights, a subquery of the same nights grouped by
    ``scope`` (``season_id`` or ``club_id``, which they all share), evaluated once, rather
    than a query of its own."""
    kept = filters.q()
    count = Subquery(NIGHTS_COUNTED[scope].filter(kept, **where))
    rows = grouped.filter(seen or Q(), kept, **where).annotate(scope_nights=count)
    # Read as the values() dicts they are, in their columns' order (values_list would set
    # the columns again on every request).
    return [tuple(row.values()) for row in rows]


def _stored_order(row: tuple, sums: int) -> tuple:
    """A row of ``summed`` (the player's key, any scope's columns, the sums from ``sums`` on,
    the name, the count of the nights) in ``STORED_COLUMNS``' order."""
    return (row[0], row[1], row[-2], *row[sums:-2])


def _ranked(rules: LeagueRules, rows: list[tuple], season_nights: int,
            nights: Callable[[], QuerySet]) -> Standings:
    """Stored rows (``STORED_COLUMNS``) ranked; best-N reads each player's value of each
    night too (``nights``: the scope's counted nights)."""
    players = []
    for (member_id, guest, name, nights_played, hands, net, mahjongs, given, zero, half,
         place_sum, tables, *_) in rows:
        players.append(PlayerTotals(
            key=str(member_id) if member_id else f"guest:{guest}", name=name or guest,
            member_id=member_id, nights=nights_played, hands=hands, net=net,
            mahjongs=mahjongs, given=given, points={"4-2-1-0": zero, "4-2-1-0.5": half},
            place_sum=place_sum, tables=tables))
    if rules.combine == "best":
        values = _night_values(nights(), rules)
        for p in players:
            p.night_values = values.get((p.member_id, "" if p.member_id else p.key[6:]), [])
    return rank(players, rules, season_nights)


def _night_values(nights: QuerySet, rules: LeagueRules) -> dict[tuple, list[float]]:
    """Each player's value of each night (a night at two tables counts once, summed)."""
    column = "net" if rules.measure == "net" else POINT_COLUMNS[rules.points]
    found: dict[tuple, list[float]] = {}
    rows = nights.values("member_id", "guest_name", "session_id").order_by().annotate(
        value=Sum(column)).values_list("member_id", "guest_name", "value")
    for member_id, guest_name, value in rows:
        found.setdefault((member_id, guest_name), []).append(value)
    return found


def player_nights(member, season=None, filters: Filters = NO_FILTERS) -> QuerySet:
    qs = NightResult.objects.filter(member_id=member.pk, counted=True)
    if season is not None:
        qs = qs.filter(season_id=season.pk)
    return filters.apply(qs).order_by("date", "table_number")


def player_hands(member, season=None, filters: Filters = NO_FILTERS) -> QuerySet:
    # The club leads: the results' indexes start with it (result_by_club_season,
    # result_best_hand), so a player's season is read alone, not among every club's.
    qs = HandResult.objects.filter(club_id=member.club_id, member_id=member.pk)
    if season is not None:
        qs = qs.filter(season_id=season.pk)
    return filters.apply(qs, HAND_PATHS)


HAND_COLUMNS = ["date", "table", "hand", "player", "member_id", "wind", "score", "net",
                "running_total", "mah_jong", "gave", "limit"]


def hand_result_rows(season, filters: Filters = NO_FILTERS, chunk_size: int = 2000):
    """Every counted hand result of the season, in play order, as export rows, streamed: the
    memory of one chunk of rows whatever the season's size."""
    sql, params = hand_result_query(season, filters).query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One plain statement read in chunks (libpq's chunked rows): unlike a server-side
            # cursor it may use parallel workers, as COPY does, and memory stays one chunk.
            yield from cursor.cursor.stream(sql, params, size=chunk_size)
            return
        cursor.execute(sql, params)  # SQLite hands rows over as they are fetched
        while chunk := cursor.fetchmany(chunk_size):
            yield from chunk


def hand_result_query(season, filters: Filters = NO_FILTERS):
    """The statement ``hand_result_rows`` streams. The club is named beside the season: with
    the season alone PostgreSQL estimated an average season's rows (10,000 at a million hands
    in 400 seasons, for a season of 1,500) and hash-joined them with a scan of every club's
    hands, seats, tables and nights (656 ms against 14 ms at 20k hands); with both, it reads
    the season's rows in ``result_by_club_season`` and looks each join up by its key."""
    qs = filters.apply(HandResult.objects.filter(club_id=season.club_id, season_id=season.pk),
                       HAND_PATHS)
    qs = qs.order_by("session__date", "seat__table__number", "hand__number", "seat__position")
    # The database writes the date and the flags as the export shows them, so each row goes
    # to the exporter as fetched (no conversion per row in Python).
    return qs.values_list(
        Cast("session__date", CharField()), "seat__table__number", "hand__number",
        Coalesce(F("seat__member__display_name"), F("seat__guest_name")), "member_id",
        "seat_wind", "score", "net", "running_total", Cast("won", IntegerField()),
        Cast("gave", IntegerField()), "limit",
    )


# What the player page shows of a hand. The best hand's ties on the score are sorted by their
# night's date, whole rows and all: with the hands' stored JSON that sort cost 4.5 ms for a
# season of tied hands (47, SQLite), 0.1 ms with these columns alone (issue #27).
HAND_SHOWN = ("score", "limit", "hand__number", "session__date")


# A player's best hand: the highest score, and among equal scores the earliest hand (the
# earliest night, then the lower table number, then the lower hand number), so the league's
# player page and the player history (history.stats) name the same hand. Ordered by the date
# alone, a night's tied hands came in whatever order the index gave them.
BEST_HAND_ORDER = ("-score", "session__date", "hand__table__number", "hand__number")


def best_hand_query(member, season=None, filters: Filters = NO_FILTERS) -> QuerySet:
    """The player's winning hands, best first (``BEST_HAND_ORDER``)."""
    return (player_hands(member, season, filters).filter(won=True)
            .select_related("hand", "session").only(*HAND_SHOWN).order_by(*BEST_HAND_ORDER))


def best_hand(member, season=None, filters: Filters = NO_FILTERS) -> HandResult | None:
    """The player's highest-scoring Mah Jong (the earliest hand among equals:
    ``BEST_HAND_ORDER``): read in the partial index ``result_best_hand`` (club, season,
    member, score of the winners' rows), so it costs the season's winning hands of this
    player, not the club's or the database's."""
    return best_hand_query(member, season, filters).first()


def limit_hands(member, season=None, filters: Filters = NO_FILTERS) -> QuerySet:
    return player_hands(member, season, filters).filter(~Q(limit="")).select_related(
        "hand", "session").only(*HAND_SHOWN).order_by("session__date", "hand__number")
