"""One club's whole history as a versioned JSON document (``manage.py export_club``).

What is kept is what was entered: the club, its members (and their logins), seasons, the
house-rule versions its sessions were played under, sessions, tables, seats, hands as entered
and the audit trail. Objects refer to each other by keys local to the document (``m3``,
``s12``), never by database ids, so the document loads into any database. Keys are numbered in
the order objects were made, so an export of an imported club reads the same as the original.
Each hand also carries its derived results and each table its totals, for checking only: ``import_club``
recomputes them and reports any that come out different. Each season carries its league rules
and published standings, and the club its finished comparisons (``club_league_compare``): a
club moved keeps its ranking, its published tables and its reports.
"""

from __future__ import annotations

from typing import Any

from clubs.models import (
    AuditEntry,
    Club,
    ClubSession,
    Hand,
    HandResult,
    HouseRuleVersion,
    Seat,
    Table,
)
from safekeeping.club_league_compare import Ids, export_comparisons, export_league

FORMAT = "mahjong-club-export"
VERSION = 2  # 2: league rules, published standings and comparisons (1 had none: still read)
READS = (1, 2)


def _stamp(value) -> str | None:
    return value.isoformat() if value is not None else None


def _login(user) -> dict | None:
    if user is None:
        return None
    return {"username": user.username, "password": user.password, "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name,
            "is_active": user.is_active}


def _rule_ref(version: HouseRuleVersion | None) -> dict | None:
    return None if version is None else {"slug": version.record.slug, "number": version.number}


def export_club(club: Club) -> dict[str, Any]:
    """The document for ``club``: plain JSON types only, dates as ISO text."""
    sessions = list(club.sessions.select_related(
        "house_rule_version__record", "goulash_rule_version__record", "season"
    ).order_by("date", "pk"))
    members = list(club.members.select_related("user").order_by("pk"))
    seasons = list(club.seasons.order_by("start", "pk"))
    keys = _Keys({m.pk: f"m{i}" for i, m in enumerate(members, 1)},
                 {s.pk: f"y{i}" for i, s in enumerate(seasons, 1)})
    ids = _ids(sessions, keys)
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {"slug": club.slug, "name": club.name, "published": club.published,
                 "default_house_rule": club.default_house_rule.slug
                 if club.default_house_rule else None,
                 "created": _stamp(club.created)},
        "house_rules": _house_rules(club, sessions),
        "members": [
            {"key": keys.member[m.pk], "display_name": m.display_name,
             "login": _login(m.user), "role": m.role, "active": m.active,
             "joined": _stamp(m.joined)}
            for m in members
        ],
        "seasons": [
            {"key": keys.season[s.pk], "name": s.name, "start": _stamp(s.start),
             "end": _stamp(s.end), "league": export_league(s, ids)}
            for s in seasons
        ],
        "sessions": [_session(s, keys) for s in sessions],
        "comparisons": export_comparisons(club, ids),
        "audit": [
            {"user": e.user.username if e.user else None, "at": _stamp(e.at),
             "action": e.action, "object_type": e.object_type, "object_id": e.object_id,
             "before": e.before, "after": e.after, "note": e.note}
            for e in AuditEntry.objects.filter(club=club).select_related("user").order_by("pk")
        ],
    }


def _ids(sessions: list[ClubSession], keys: _Keys) -> Ids:
    """Document keys of the club's nights (``n3``: the third in the document), tables
    (``n3.1``: its table 1) and hands (``n3.1.7``: hand 7 there)."""
    session = {s.pk: f"n{i}" for i, s in enumerate(sessions, 1)}
    table = {pk: f"{session[sid]}.{number}" for pk, sid, number in Table.objects.filter(
        session__in=sessions).values_list("pk", "session_id", "number")}
    hand = {pk: f"{table[tid]}.{number}" for pk, tid, number in Hand.objects.filter(
        table__session__in=sessions).values_list("pk", "table_id", "number")}
    return Ids({pk: int(key[1:]) for pk, key in keys.member.items()}, keys.season, session,
               table, hand)


def _house_rules(club: Club, sessions: list[ClubSession]) -> list[dict]:
    """The club's own house rules (every version), and every other version its sessions were
    played under (built-in ones included: the target database may hold different data)."""
    records = {r.pk: r for r in club.house_rules.select_related("based_on")}
    if club.default_house_rule_id:
        records.setdefault(club.default_house_rule_id, club.default_house_rule)
    used = {v.pk for s in sessions for v in (s.house_rule_version, s.goulash_rule_version) if v}
    used |= set(Table.objects.filter(session__in=sessions, house_rule_version__isnull=False)
                .values_list("house_rule_version_id", flat=True))
    versions = (HouseRuleVersion.objects.filter(record__club=club)
                | HouseRuleVersion.objects.filter(pk__in=used))
    by_record: dict[int, list[HouseRuleVersion]] = {}
    for version in versions.select_related("record__based_on").order_by("record_id", "number"):
        by_record.setdefault(version.record_id, []).append(version)
        records.setdefault(version.record_id, version.record)
    # A copy's base comes before the copy, so an import links them in one pass.
    ordered = sorted(records.values(), key=lambda r: (_depth(r), r.slug))
    return [{
        "slug": record.slug, "name": record.name, "description": record.description,
        "own": record.club_id == club.pk, "builtin": record.club_id is None,
        "based_on": record.based_on.slug if record.based_on else None,
        "overrides": record.overrides,
        "versions": [{"number": v.number, "data": v.data, "created": _stamp(v.created)}
                     for v in by_record.get(record.pk, [])],
    } for record in ordered]


def _depth(record) -> int:
    depth = 0
    while record.based_on_id is not None and depth < 50:
        record, depth = record.based_on, depth + 1
    return depth


class _Keys:
    """Document keys for database ids, numbered in the order the objects were made."""

    def __init__(self, member: dict[int, str], season: dict[int, str]):
        self.member, self.season, self.seat = member, season, {}

    def seats(self, seats) -> None:
        for seat in seats:
            self.seat[seat.pk] = f"t{len(self.seat) + 1}"


def _session(session: ClubSession, keys: _Keys) -> dict:
    tables = session.tables.select_related("house_rule_version__record").order_by("number")
    return {
        "season": keys.season.get(session.season_id),
        "date": _stamp(session.date),
        "house_rule": _rule_ref(session.house_rule_version),
        "goulash_rule": _rule_ref(session.goulash_rule_version),
        "notes": session.notes,
        "status": session.status,
        "created": _stamp(session.created),
        "tables": [_table(t, keys) for t in tables],
    }


def _table(table, keys: _Keys) -> dict:
    seats = list(Seat.objects.filter(table=table).order_by("pk"))
    keys.seats(seats)
    hands = list(Hand.objects.filter(table=table).select_related("created_by")
                 .prefetch_related("entries").order_by("number"))
    results: dict[int, list[HandResult]] = {}
    for result in HandResult.objects.filter(hand__table=table).order_by("seat__position"):
        results.setdefault(result.hand_id, []).append(result)
    state = table.state or {}
    return {
        "number": table.number,
        # A table of 3 or 5 on a night of fours plays under its own version (null: the night's).
        "house_rule": _rule_ref(table.house_rule_version),
        "seats": [{"key": keys.seat[s.pk], "position": s.position,
                   "member": keys.member.get(s.member_id),
                   "guest_name": s.guest_name, "starting_wind": s.starting_wind}
                  for s in seats],
        "hands": [_hand(h, results.get(h.pk, []), keys) for h in hands],
        # Derived, for checking: seat key -> running total after the last hand, and the pot.
        "totals": {keys.seat[int(k)]: v for k, v in (state.get("totals") or {}).items()},
        "pot": state.get("pot", 0),
    }


def _hand(hand: Hand, results: list[HandResult], keys: _Keys) -> dict:
    def seat(pk):
        return keys.seat.get(pk)

    return {
        "number": hand.number,
        "prevailing_wind": hand.prevailing_wind,
        "dealer": seat(hand.dealer_id),
        "winner": seat(hand.winner_id),
        "discarder": seat(hand.discarder_id),
        "draw": hand.draw,
        "goulash": hand.goulash,
        "win_source": hand.win_source,
        "facts": hand.facts,
        "voided": hand.voided,
        "created_by": hand.created_by.username if hand.created_by else None,
        "created": _stamp(hand.created),
        "entries": [{"seat": seat(e.seat_id), "seat_wind": e.seat_wind, "kind": e.kind,
                     "data": e.data} for e in sorted(hand.entries.all(),
                                                      key=lambda e: "ESWN".index(e.seat_wind))],
        # Derived, for checking only.
        "results": [{"seat": seat(r.seat_id), "seat_wind": r.seat_wind, "score": r.score,
                     "net": r.net, "running_total": r.running_total} for r in results],
    }
