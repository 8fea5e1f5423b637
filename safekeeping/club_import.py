"""Load a document written by ``export_club`` into this database (``manage.py import_club``).

Everything is created in one transaction: a document that cannot be loaded leaves the
database as it was, with a sentence saying why. Derived results are not read from the
document: each table is recomputed by ``clubs.recording.recompute_table`` from the hands as
entered, then compared with the results the document carried; differences are reported.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_date, parse_datetime

from clubs.house_rules import ensure_builtin_house_rules
from clubs.models import (
    AuditEntry,
    Club,
    ClubSession,
    Hand,
    HandEntry,
    HandResult,
    HouseRuleRecord,
    HouseRuleVersion,
    Member,
    Season,
    Seat,
    Table,
)
from clubs.recording import recompute_table
from safekeeping.club_export import FORMAT, READS, VERSION
from safekeeping.club_league_compare import Ids, import_comparisons, import_league

# A club imported, and whether its replayed results match the export's.
log = logging.getLogger(__name__)


class ImportRefused(Exception):
    """The document cannot be loaded here; the message says why and what to do."""


@dataclass
class ImportReport:
    club: Club
    members: int = 0
    sessions: int = 0
    tables: int = 0
    hands: int = 0
    logins_created: int = 0
    logins_linked: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    comparisons: int = 0


def _date(value) -> dt.date | None:
    return parse_date(value) if value else None


def _when(value) -> dt.datetime | None:
    return parse_datetime(value) if value else None


def check_document(doc: Any) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ImportRefused("This is not a club export: its 'format' is not "
                            f"{FORMAT!r}. Give a file written by manage.py export_club.")
    if doc.get("version") not in READS:
        raise ImportRefused(f"This export is version {doc.get('version')!r}; this service reads "
                            f"version {VERSION}. Export again with the same release as this one.")


@transaction.atomic
def import_club(doc: dict) -> ImportReport:
    check_document(doc)
    given = doc["club"]
    if Club.objects.filter(slug=given["slug"]).exists():
        raise ImportRefused(f"A club {given['slug']!r} exists here already: delete it first, or "
                            "import into another database.")
    if Club.objects.filter(name=given["name"]).exists():
        raise ImportRefused(f"A club called {given['name']!r} exists here already.")
    club = Club.objects.create(slug=given["slug"], name=given["name"],
                               published=given["published"])
    report = ImportReport(club)
    versions = _house_rules(doc["house_rules"], club)
    if given.get("default_house_rule"):
        club.default_house_rule = HouseRuleRecord.objects.get(slug=given["default_house_rule"])
    club.save()
    _stamp(Club, club.pk, created=_when(given.get("created")))
    members = _members(doc["members"], club, report)
    seasons = {s["key"]: Season.objects.create(club=club, name=s["name"], start=_date(s["start"]),
                                               end=_date(s["end"])) for s in doc["seasons"]}
    users = {m.user.username: m.user for m in members.values() if m.user}
    places: dict[str, dict[str, int]] = {"session": {}, "table": {}, "hand": {}}
    for number, given_session in enumerate(doc["sessions"], 1):
        _session(given_session, club, members, seasons, versions, users, report,
                 f"n{number}", places)
    ids = Ids({int(key[1:]): m.pk for key, m in members.items()},
              {key: s.pk for key, s in seasons.items()}, **places)

    def user_named(username):
        if not username:
            return None
        if username not in users:
            users[username] = get_user_model().objects.filter(username=username).first()
        return users[username]

    for given_season in doc["seasons"]:
        import_league(given_season.get("league"), seasons[given_season["key"]], ids, user_named)
    report.comparisons = import_comparisons(doc.get("comparisons", []), club, ids, user_named)
    _audit(doc["audit"], club, report)
    transaction.on_commit(lambda: _log_import(report))
    return report


def _log_import(report: ImportReport) -> None:
    log.info("club %s imported: %d members, %d nights, %d tables, %d hands, %d logins made",
             report.club.slug, report.members, report.sessions, report.tables, report.hands,
             report.logins_created)
    if report.differences:
        # Replayed here, some results differ from those the export carried: worth a look.
        log.warning("club %s imported with %d results that differ from the export's; first: %s",
                    report.club.slug, len(report.differences), report.differences[0])


def _stamp(model, pk, **values) -> None:
    """Keep the document's timestamps (auto_now_add would set the time of the import)."""
    values = {k: v for k, v in values.items() if v is not None}
    if values:
        model.objects.filter(pk=pk).update(**values)


def _house_rules(given: list[dict], club: Club) -> dict[tuple[str, int], HouseRuleVersion]:
    """(slug, number) in the document -> the version here holding the same data."""
    ensure_builtin_house_rules()
    found: dict[tuple[str, int], HouseRuleVersion] = {}
    for rule in given:
        record = HouseRuleRecord.objects.filter(slug=rule["slug"]).first()
        if rule["own"]:
            if record is not None:
                raise ImportRefused(f"A house rule {rule['slug']!r} exists here already (another "
                                    "club's or built in): rename one of them first.")
            base = (HouseRuleRecord.objects.filter(slug=rule["based_on"]).first()
                    if rule["based_on"] else None)
            record = HouseRuleRecord.objects.create(
                slug=rule["slug"], name=rule["name"], description=rule["description"],
                club=club, based_on=base, overrides=rule["overrides"])
        elif record is None:
            raise ImportRefused(f"The sessions were played under {rule['slug']!r}, another "
                                "club's house rule that this database does not have: import "
                                "that club first.")
        for version in rule["versions"]:
            found[(rule["slug"], version["number"])] = _version(record, version)
    return found


def _version(record: HouseRuleRecord, given: dict) -> HouseRuleVersion:
    """The version of ``record`` with the document's data: the same number if it matches,
    else any with the same data, else a new one (built-in data may differ between releases)."""
    same = record.versions.filter(number=given["number"]).first()
    if same is not None and same.data == given["data"]:
        return same
    for version in record.versions.all():
        if version.data == given["data"]:
            return version
    number = given["number"] if same is None else (
        max(record.versions.values_list("number", flat=True)) + 1)
    version = HouseRuleVersion.objects.create(record=record, number=number,
                                              data={**given["data"], "version": number})
    _stamp(HouseRuleVersion, version.pk, created=_when(given.get("created")))
    return version


def _members(given: list[dict], club: Club, report: ImportReport) -> dict[str, Member]:
    users = get_user_model().objects
    members = {}
    for m in given:
        user = None
        if m["login"]:
            login = m["login"]
            user = users.filter(username=login["username"]).first()
            if user is None:
                user = users.create(
                    username=login["username"], password=login["password"],
                    email=login["email"], first_name=login["first_name"],
                    last_name=login["last_name"], is_active=login["is_active"])
                report.logins_created += 1
            else:
                report.logins_linked.append(login["username"])
        members[m["key"]] = Member.objects.create(
            club=club, display_name=m["display_name"], user=user, role=m["role"],
            active=m["active"], joined=_date(m["joined"]))
    report.members = len(members)
    return members


def _session(given, club, members, seasons, versions, users, report: ImportReport, key: str,
             places: dict[str, dict[str, int]]) -> None:
    """A night, its tables and hands; ``places`` gains their document keys' new ids."""
    def version(ref):
        return versions[(ref["slug"], ref["number"])] if ref else None

    session = ClubSession.objects.create(
        club=club, season=seasons.get(given["season"]), date=_date(given["date"]),
        house_rule_version=version(given["house_rule"]),
        goulash_rule_version=version(given["goulash_rule"]),
        notes=given["notes"], status=given["status"])
    _stamp(ClubSession, session.pk, created=_when(given.get("created")))
    places["session"][key] = session.pk
    report.sessions += 1
    for given_table in given["tables"]:
        table = Table.objects.create(session=session, number=given_table["number"],
                                     house_rule_version=version(given_table.get("house_rule")))
        table_key = f"{key}.{table.number}"
        places["table"][table_key] = table.pk
        seats = {}
        for s in given_table["seats"]:
            seats[s["key"]] = Seat.objects.create(
                table=table, position=s["position"], member=members.get(s["member"]),
                guest_name=s["guest_name"], starting_wind=s["starting_wind"])
        for given_hand in given_table["hands"]:
            places["hand"][f"{table_key}.{given_hand['number']}"] = _hand(
                given_hand, table, seats, users)
            report.hands += 1
        recompute_table(table)
        report.tables += 1
        report.differences += _differences(given_table, table, seats)


def _hand(given: dict, table: Table, seats: dict[str, Seat], users) -> int:
    def seat(key):
        return seats[key] if key else None

    creator = given.get("created_by")
    hand = Hand.objects.create(
        table=table, number=given["number"], prevailing_wind=given["prevailing_wind"],
        dealer=seat(given["dealer"]), winner=seat(given["winner"]),
        discarder=seat(given["discarder"]), draw=given["draw"], goulash=given["goulash"],
        win_source=given["win_source"], facts=given["facts"], voided=given["voided"],
        created_by=users.get(creator) if creator else None)
    HandEntry.objects.bulk_create(
        HandEntry(hand=hand, seat=seats[e["seat"]], seat_wind=e["seat_wind"], kind=e["kind"],
                  data=e["data"]) for e in given["entries"])
    _stamp(Hand, hand.pk, created=_when(given.get("created")))
    return hand.pk


def _differences(given_table: dict, table: Table, seats: dict[str, Seat]) -> list[str]:
    """Where the recomputed results differ from the ones the document carried."""
    key_of = {s.pk: key for key, s in seats.items()}
    now = {}
    for r in HandResult.objects.filter(hand__table=table).select_related("hand"):
        now[(r.hand.number, key_of[r.seat_id])] = (r.score, r.net, r.running_total)
    then = {(h["number"], r["seat"]): (r["score"], r["net"], r["running_total"])
            for h in given_table["hands"] for r in h["results"]}
    where = f"{table.session.date} table {table.number}"
    return [f"{where} hand {number}, seat {key}: was {then.get((number, key))}, now "
            f"{now.get((number, key))}" for number, key in sorted(set(now) | set(then))
            if now.get((number, key)) != then.get((number, key))]


def _audit(given: list[dict], club: Club, report: ImportReport) -> None:
    users = {u.username: u for u in get_user_model().objects.filter(
        username__in={e["user"] for e in given if e["user"]})}
    entries = AuditEntry.objects.bulk_create(
        AuditEntry(club=club, user=users.get(e["user"]), action=e["action"],
                   object_type=e["object_type"], object_id=e["object_id"], before=e["before"],
                   after=e["after"], note=e["note"]) for e in given)
    for entry, e in zip(entries, given, strict=True):
        if entry.pk is not None:
            _stamp(AuditEntry, entry.pk, at=_when(e.get("at")))
