"""The dry run of a results import: every row of the sheet given a fate before anything is
written. Plain Python (rows, the column mapping, the name choices and what the club already
has in; a ``Plan`` out), so the page, ``manage.py import_results`` and the tests read one
answer.

A sheet has one row per player per night (the night's net), or one per player per hand (that
hand's net, with a hand column; per-hand scores where there is a score column). A night's
table must sum to zero (each hand must, in a sheet of hands); a table that does not is refused
whole, with its lines and the sum, and so is a table with a row refused for its own reason.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from history.dates import DateFormatError, parse_date
from history.names import Match, clean, match_names, normalise, too_long

FIELDS = {
    "date": "Date of the night",
    "player": "Player's name",
    "net": "Net score (the night's, or the hand's)",
    "table": "Table (optional: one table a night if absent)",
    "hand": "Hand number (optional: rows are then one per player per hand)",
    "score": "Hand score (optional)",
    "season": "Season name (optional: else the club's season holding the date)",
}
REQUIRED = ("date", "player", "net")
GUESSES = {
    "date": ("date", "night", "day", "session"),
    "player": ("player", "name", "member", "who"),
    "net": ("net", "total", "result", "balance", "points"),
    "table": ("table", "table no", "table number"),
    "hand": ("hand", "hand no", "hand number", "game"),
    "score": ("score", "hand score"),
    "season": ("season", "league", "year"),
}
MAX_AT_TABLE = 5


class MappingError(ValueError):
    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def guess_mapping(headers: list[str]) -> dict[str, str]:
    found = {}
    for name, words in GUESSES.items():
        for header in headers:
            if normalise(header) in words and header not in found.values():
                found[name] = header
                break
    if "net" not in found and "score" in found and "hand" not in found:
        # One row per player per night headed Date, Player, Score: the score is the night's
        # result (a best hand's score needs hands); it was taken for the optional hand score
        # and the required net left for the secretary to find.
        found["net"] = found.pop("score")
    return found


def check_mapping(mapping: dict, headers: list[str]) -> dict[str, str]:
    errors = {}
    clean = {k: v for k, v in mapping.items() if k in FIELDS and v}
    for name in REQUIRED:
        if not clean.get(name):
            errors[name] = f"Choose the column that holds the {FIELDS[name].lower()}."
    for name, column in clean.items():
        if column not in headers:
            errors[name] = f"The sheet has no column {column!r}."
    used = [c for c in clean.values()]
    for name, column in clean.items():
        if used.count(column) > 1 and name not in errors:
            errors[name] = f"Column {column!r} is chosen for two things."
    if errors:
        raise MappingError(errors)
    return clean


@dataclass
class Player:
    name: str  # as the sheet writes it
    who: str  # "member:<id>", "new" or "guest"
    net: int = 0
    hands: int = 0
    hand_nets: list = field(default_factory=list)
    best_score: int = 0
    lines: list = field(default_factory=list)
    detail: list = field(default_factory=list)  # a Kajongg game's hands, as Kajongg kept them


@dataclass
class PlannedTable:
    number: int
    players: dict = field(default_factory=dict)  # normalised name -> Player
    lines: list = field(default_factory=list)
    refused: str = ""
    # A Kajongg game: its hands to record (``history.kajongg.plan``), the house rule version
    # it is filed under, and what it was in Kajongg. A sheet's table has no hands: totals.
    hands: list = field(default_factory=list)
    house_rule: int | None = None
    note: str = ""


@dataclass
class PlannedNight:
    date: dt.date
    season: str  # "season:<id>", "new:<name>" or ""
    tables: dict = field(default_factory=dict)  # number -> PlannedTable
    refused: str = ""


@dataclass
class NameFate:
    name: str
    match: Match
    choice: str  # "member:<id>", "new", "guest" or "" (a choice is needed)
    rows: int


@dataclass
class Plan:
    nights: list[PlannedNight]
    fates: list[tuple[int, str, str]]  # (line, "ok" | "refused", sentence)
    refusals: list[tuple[str, str]]  # (lines, reason)
    names: list[NameFate]
    per_hand: bool

    @property
    def needs_choice(self) -> list[str]:
        return [n.name for n in self.names if not n.choice]

    @property
    def good_nights(self) -> list[PlannedNight]:
        return [n for n in self.nights if not n.refused and any(not t.refused for t in n.tables.values())]

    def counts(self) -> dict:
        tables = [t for n in self.good_nights for t in n.tables.values() if not t.refused]
        return {
            "nights": len(self.good_nights), "tables": len(tables),
            "player_nights": sum(len(t.players) for t in tables),
            "rows_ok": sum(1 for f in self.fates if f[1] == "ok"),
            "rows_refused": sum(1 for f in self.fates if f[1] == "refused"),
            "new_members": sum(1 for n in self.names if n.choice == "new"),
            "guests": sum(1 for n in self.names if n.choice == "guest"),
            "no_season": sum(1 for n in self.good_nights if not n.season),
        }

    def no_season_words(self) -> str:
        """What the dry run says of nights no season holds (no Season column, and no season
        of the club's holding their dates): that they are in no season's standings."""
        count = self.counts()["no_season"]
        if not count:
            return ""
        return (f"{count} night{'' if count == 1 else 's'} fall{'s' if count == 1 else ''} in "
                "no season: in the all-time standings, the statistics and the rating, but in "
                "no season's standings. Make the seasons first, or give the sheet a Season "
                "column.")


def _lines(lines) -> str:
    lines = sorted(set(lines))
    if len(lines) == 1:
        return f"line {lines[0]}"
    if lines == list(range(lines[0], lines[-1] + 1)):
        return f"lines {lines[0]}-{lines[-1]}"
    return "lines " + ", ".join(map(str, lines))


# The most a net or a score may be either way: far past any night's play, and within the
# database's integer columns (99999999999999999999 against -99999999999999999999 summed to 0,
# passed the dry run and was a 500 on Import: too large for SQLite's INTEGER).
LARGEST = 1_000_000_000


def _int(text) -> int:
    text = str(text).replace("\u2212", "-").replace(" ", "")
    if text.startswith("+"):
        text = text[1:]
    if text.startswith("(") and text.endswith(")"):  # accountants' negatives
        text = "-" + text[1:-1]
    value = float(text)
    if not value.is_integer() or abs(value) > LARGEST:
        raise ValueError
    return int(value)


def _season_for(date: dt.date, seasons) -> str:
    for pk, _name, start, end in seasons:
        if start <= date and (end is None or date <= end):
            return f"season:{pk}"
    return ""


def make_plan(rows, mapping: dict, members: dict[int, str], *, choices: dict | None = None,
              seasons=(), taken_dates=frozenset(), day_first: bool = True,
              accept_suggestions: bool = False, unmatched: str = "") -> Plan:
    """``members``: id -> name; ``seasons``: (id, name, start, end); ``taken_dates``: dates
    the club already has a night on; ``choices``: sheet name -> "member:<id>" | "new" |
    "guest"; ``unmatched``: the choice for a name with no match and no choice given."""
    choices = choices or {}
    per_hand = bool(mapping.get("hand"))
    fates: dict[int, tuple[str, str]] = {}
    refusals: list[tuple[str, str]] = []
    parsed = []
    for row in rows:
        cells = row.cells
        problems = []
        name = clean(cells.get(mapping["player"], ""))
        if not name:
            problems.append("no player's name")
        elif too_long(name):
            problems.append(too_long(name))
            name = ""  # refused with its row, not offered as a name to choose for
        try:
            date = parse_date(cells.get(mapping["date"], ""), day_first)
        except DateFormatError as exc:
            date = None
            problems.append(str(exc))
        try:
            net = _int(cells.get(mapping["net"], ""))
        except (ValueError, TypeError):
            net = None
            problems.append(f"the net {str(cells.get(mapping['net'], ''))[:20]!r} is not a whole "
                            f"number from -{LARGEST:,} to {LARGEST:,}")
        table = 1
        if mapping.get("table"):
            try:
                table = _int(cells.get(mapping["table"], "") or 1)
                if not 1 <= table <= 99:
                    raise ValueError
            except (ValueError, TypeError):
                problems.append(f"the table {str(cells.get(mapping['table']))[:20]!r} is not a number from 1 to 99")
        hand = None
        if per_hand:
            try:
                hand = _int(cells.get(mapping["hand"], ""))
                if not 1 <= hand <= 9999:
                    raise ValueError
            except (ValueError, TypeError):
                problems.append(f"the hand {str(cells.get(mapping['hand'], ''))[:20]!r} is not a number from 1 to 9999")
        score = 0
        if mapping.get("score") and str(cells.get(mapping["score"], "")).strip():
            try:
                score = _int(cells[mapping["score"]])
            except (ValueError, TypeError):
                problems.append(f"the score {str(cells.get(mapping['score']))[:20]!r} is not a whole "
                                f"number from -{LARGEST:,} to {LARGEST:,}")
        season_name = clean(cells.get(mapping["season"], "")) if mapping.get("season") else ""
        if problems:
            fates[row.line] = ("refused", "; ".join(problems))
            refusals.append((_lines([row.line]), "; ".join(problems)))
        parsed.append((row.line, date, table, name, net, hand, score, season_name, bool(problems)))

    names = sorted({p[3] for p in parsed if p[3]}, key=normalise)
    matches = match_names(names, members)
    season_by_name = {normalise(name): pk for pk, name, *_ in seasons}
    name_fates, who_of = [], {}
    for name in names:
        match = matches[name]
        choice = choices.get(name, "")
        if choice.startswith("member:") and int(choice.split(":")[1]) not in members:
            choice = ""
        if not choice:
            if match.exact:
                choice = f"member:{match.exact}"
            elif match.suggestion and accept_suggestions:
                choice = f"member:{match.suggestion}"
            elif not match.suggestion and unmatched in ("new", "guest"):
                choice = unmatched
        who_of[name] = choice
        name_fates.append(NameFate(name, match, choice,
                                   sum(1 for p in parsed if p[3] == name)))

    nights: dict[dt.date, PlannedNight] = {}
    bad_rows_of_table: dict[tuple, list[int]] = defaultdict(list)
    for line, date, table, name, net, hand, score, season_name, bad in parsed:
        if date is None:
            continue
        night = nights.get(date)
        if night is None:
            season = ""
            if season_name:
                pk = season_by_name.get(normalise(season_name))
                season = f"season:{pk}" if pk else f"new:{season_name[:80]}"
            else:
                season = _season_for(date, seasons)
            night = nights[date] = PlannedNight(date, season)
        planned = night.tables.setdefault(table, PlannedTable(table))
        planned.lines.append(line)
        if bad:
            bad_rows_of_table[(date, table)].append(line)
            continue
        key = normalise(name)
        player = planned.players.get(key)
        if player is None:
            player = planned.players[key] = Player(name, who_of.get(name, ""))
        elif not per_hand:
            planned.refused = planned.refused or (
                f"{name} is listed twice at this table ({_lines(player.lines + [line])})")
        if per_hand:
            if any(h == hand for h, _ in player.hand_nets):
                planned.refused = planned.refused or f"{name} has hand {hand} twice"
            player.hand_nets.append((hand, net))
            player.hands += 1
        player.net += net
        player.best_score = max(player.best_score, score)
        player.lines.append(line)

    for night in sorted(nights.values(), key=lambda n: n.date):
        if night.season.startswith("season:"):
            _pk, name, start, end = next(s for s in seasons if f"season:{s[0]}" == night.season)
            if night.date < start or (end and night.date > end):
                night.refused = (f"the night of {night.date:%-d %b %Y} is outside the season "
                                 f"{name} ({start:%-d %b %Y} to "
                                 f"{end.strftime('%-d %b %Y') if end else 'open'})")
        if night.date in taken_dates:
            night.refused = (f"the club already has a night on {night.date:%-d %b %Y}: remove it "
                             "or leave this night out of the sheet")
        where = {}
        for number, planned in sorted(night.tables.items()):
            label = f"the night of {night.date:%-d %b %Y} at table {number}"
            if bad_rows_of_table.get((night.date, number)):
                planned.refused = planned.refused or (
                    f"a row of this table was refused ({_lines(bad_rows_of_table[(night.date, number)])})")
            if not planned.refused and per_hand:
                sums = defaultdict(int)
                for p in planned.players.values():
                    for hand, net in p.hand_nets:
                        sums[hand] += net
                off = [h for h, s in sorted(sums.items()) if s]
                if off:
                    planned.refused = (f"hand {off[0]} of {label} sums to {sums[off[0]]:+d}, not 0"
                                       + (f" (and {len(off) - 1} more hands)" if len(off) > 1 else ""))
            largest = max((abs(p.net) for p in planned.players.values()), default=0)
            if not planned.refused and largest > LARGEST:
                planned.refused = (f"a player's net at {label} comes to {largest:,} either way, "
                                   f"past the {LARGEST:,} a night may hold")
            total = sum(p.net for p in planned.players.values())
            if not planned.refused and total:
                planned.refused = f"{label} sums to {total:+d}, not 0"
            if not planned.refused and not 2 <= len(planned.players) <= MAX_AT_TABLE:
                planned.refused = f"{label} has {len(planned.players)} players; a table has 2 to 5"
            for p in planned.players.values():
                if p.who.startswith("member:") and not planned.refused:
                    if p.who in where:
                        planned.refused = (f"{p.name} is at tables {where[p.who]} and {number} "
                                           "on the same night")
                    where[p.who] = number
            if planned.refused and not planned.refused.startswith("the night of"):
                planned.refused = planned.refused if label in planned.refused else f"{label}: {planned.refused}"
            reason = night.refused or planned.refused
            if reason:
                refusals.append((_lines(planned.lines), reason))
            for p in planned.players.values():
                for line in p.lines:
                    if reason:
                        fates.setdefault(line, ("refused", reason))
                    else:
                        what = _who_words(p, members, matches[p.name])
                        hands = f", {p.hands} hands" if per_hand else ""
                        fates[line] = ("ok", f"{night.date:%-d %b %Y}, table {number}: {p.name} "
                                             f"{what}, night's net {p.net:+d}{hands}")
        if night.refused:
            continue
    return Plan(
        nights=sorted(nights.values(), key=lambda n: n.date),
        fates=[(line, *fates[line]) for line in sorted(fates)],
        refusals=refusals, names=name_fates, per_hand=per_hand,
    )


def _who_words(player: Player, members: dict[int, str], match: Match) -> str:
    if player.who.startswith("member:"):
        pk = int(player.who.split(":")[1])
        return "(member)" if match.exact == pk else f"(matched to {members[pk]})"
    if player.who == "new":
        return "(new member)"
    if player.who == "guest":
        return "(guest)"
    if match.suggestion:
        return f"(choose: suggested {members[match.suggestion]})"
    return "(choose: new member or guest)"
