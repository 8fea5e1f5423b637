"""Writing a planned import, and undoing it as a whole. Each is one transaction: an import that
cannot be written leaves the database as it was."""

from __future__ import annotations

import datetime as dt
import logging

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs.members.merge import MoveRefused, guest_to_member
from clubs.models import ClubSession, Hand, HandEntry, Member, Season, Seat, Table
from clubs.models.choices import SessionStatus
from history import night_rows
from history.import_plan import Plan
from history.models import ImportBatch, ImportedHand, ImportedTable, ImportedTotal
from play import entry_kind

# Past seasons imported and undone: an operator's record of what arrived in a club's history.
log = logging.getLogger(__name__)


class ImportRefused(Exception):
    """Nothing was written; the message says why and what to do."""


def house_rule_version_for(club, slug: str | None = None):
    """The version imported nights are filed under: the one named, else the club's default
    house rule's newest, else BMJA's (the built-ins synced first)."""
    from houserules.models import HouseRuleVersion
    from houserules.sync import ensure_builtin_house_rules

    qs = HouseRuleVersion.objects.filter(Q(record__club__isnull=True) | Q(record__club=club))
    if slug:
        version = qs.filter(record__slug=slug).order_by("-number").first()
        if version is None:
            raise ImportRefused(f"This club has no house rule {slug!r}.")
        return version
    if club.default_house_rule_id:
        version = qs.filter(record_id=club.default_house_rule_id).order_by("-number").first()
        if version:
            return version
    return ensure_builtin_house_rules()["bmja"]


def taken_dates(club) -> set[dt.date]:
    return set(ClubSession.objects.filter(club=club).values_list("date", flat=True))


def seasons_of(club) -> list[tuple]:
    return list(Season.objects.filter(club=club).values_list("pk", "name", "start", "end"))


def members_of(club) -> dict[int, str]:
    return dict(Member.objects.filter(club=club).values_list("pk", "display_name"))


def apply_plan(batch: ImportBatch, plan: Plan, user=None, *, version=None, versions=None,
               skip_refused: bool = False) -> dict:
    """Write the plan's good nights as closed sessions: a sheet's tables hold imported totals;
    a Kajongg game's table holds its hands, recorded as the recording service stores them
    (``_write_hands``) and settled by a replay, under the version each table names
    (``versions``: id -> version)."""
    if batch.status != ImportBatch.Status.DRAFT:
        raise ImportRefused(f"Import {batch.pk} is already {batch.get_status_display().lower()}.")
    if plan.needs_choice:
        raise ImportRefused(
            f"Choose for {len(plan.needs_choice)} name(s) first (a member, a new member or a "
            f"guest): {', '.join(plan.needs_choice[:10])}.")
    if plan.refusals and not skip_refused:
        raise ImportRefused(
            f"{len(plan.refusals)} part(s) of the sheet are refused: mend the sheet, or import "
            "the rest and leave them out.")
    if not plan.good_nights:
        raise ImportRefused("No night of the file can be imported.")
    club = batch.club
    with transaction.atomic():
        batch = ImportBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.status != ImportBatch.Status.DRAFT:
            raise ImportRefused(f"Import {batch.pk} was applied meanwhile.")
        if batch.digest and ImportBatch.objects.filter(
                club=club, digest=batch.digest, status=ImportBatch.Status.APPLIED).exists():
            raise ImportRefused("This file is already imported: undo that import first.")
        clash = taken_dates(club) & {n.date for n in plan.good_nights}
        if clash:
            raise ImportRefused(f"The club now has a night on {min(clash):%-d %b %Y}: run the dry "
                                "run again.")
        versions = versions or {}
        if version is None and not versions:
            version = house_rule_version_for(club, batch.mapping.get("house_rule"))
        seasons, new_seats = {}, {}
        made = {"sessions": 0, "tables": 0, "player_nights": 0}
        table_ids, played = [], []
        for night in plan.good_nights:
            season = None
            if night.season.startswith("season:"):
                season = Season.objects.get(pk=int(night.season.split(":")[1]), club=club)
            elif night.season.startswith("new:"):
                name = night.season[4:]
                season = seasons.get(name)
                if season is None:
                    dates = [n.date for n in plan.good_nights if n.season == night.season]
                    season = Season.objects.create(club=club, name=name, start=min(dates),
                                                   end=max(dates))
                    batch.seasons_made.add(season)
                    seasons[name] = season
            good = [t for _n, t in sorted(night.tables.items()) if not t.refused]
            night_version = versions.get(good[0].house_rule) if good and good[0].hands else None
            if good and good[0].hands:
                notes = (f"Imported from the Kajongg database {batch.filename} (import "
                         f"{batch.pk}): {'; '.join(t.note for t in good)}. Kajongg keeps no "
                         "discarder: a hand won on a discard has the discarder unknown.")
            else:
                notes = (f"Imported from {batch.filename or 'a spreadsheet'} (import {batch.pk}): "
                         "totals, not hands.")
            session = ClubSession.objects.create(
                club=club, season=season, date=night.date,
                house_rule_version=night_version or version, status=SessionStatus.CLOSED,
                notes=notes[:2000])
            batch.sessions.add(session)
            made["sessions"] += 1
            for number, planned in sorted(night.tables.items()):
                if planned.refused:
                    continue
                own = (planned.house_rule if planned.hands
                       and planned.house_rule != session.house_rule_version_id else None)
                table = Table.objects.create(session=session, number=number,
                                             house_rule_version_id=own)
                if not planned.hands:
                    ImportedTable.objects.create(table=table, batch=batch)
                    table_ids.append(table.pk)
                made["tables"] += 1
                for position, player in enumerate(sorted(planned.players.values(),
                                                         key=lambda p: min(p.lines))):
                    member = None
                    if player.who.startswith("member:"):
                        member = Member.objects.get(pk=int(player.who.split(":")[1]), club=club)
                    seat = Seat.objects.create(
                        table=table, position=position, member=member,
                        guest_name="" if member else player.name[:80], starting_wind="")
                    if player.who == "new":
                        new_seats.setdefault(player.name, []).append(seat.pk)
                    if not planned.hands:
                        ImportedTotal.objects.create(
                            seat=seat, table=table, net=player.net, hands=player.hands,
                            hand_nets=[list(h) for h in player.hand_nets],
                            best_score=player.best_score, lines=player.lines)
                    ImportedHand.objects.bulk_create(
                        [ImportedHand(table=table, seat=seat, **d) for d in player.detail],
                        batch_size=500)
                    made["player_nights"] += 1
                if planned.hands:
                    played.append((table, planned))
        night_rows.derive(table_ids)
        if played:
            made["hands"] = _write_hands(played, user)
        # A new member is the guest of the sheet made a member by the clubs app's own move
        # (audited, refused if they would sit twice on one night), given only these seats.
        for name, seat_ids in new_seats.items():
            try:
                move = guest_to_member(club, name[:80], None, user=user, seat_ids=seat_ids,
                                       note=f"Made a member by import {batch.pk}.")
            except MoveRefused as exc:
                raise ImportRefused(f"{name} cannot be made a new member: {exc}") from exc
            batch.members_made.add(move.member)
        batch.status = ImportBatch.Status.APPLIED
        batch.applied = timezone.now()
        batch.report = {**batch.report, "made": made, "members_made": len(new_seats),
                        "refused": [list(r) for r in plan.refusals]}
        batch.rows = []  # the record is now the totals; the draft's copy is not kept
        batch.save()
        _mark_rating_stale(club, min(n.date for n in plan.good_nights))
    log.info("club %s: import %s (%s) written: %s; %d rows refused", batch.club_id, batch.pk,
             batch.filename, made, len(plan.refusals))
    return made


def undo(batch: ImportBatch, user=None) -> dict:
    """Remove everything the import made: its nights (their tables, seats, totals and league
    rows go with them), the members it created who sit at no other night, and the seasons it
    created that hold no other night."""
    with transaction.atomic():
        batch = ImportBatch.objects.select_for_update().get(pk=batch.pk)
        if batch.status != ImportBatch.Status.APPLIED:
            raise ImportRefused(f"Import {batch.pk} is {batch.get_status_display().lower()}: "
                                "only an applied import can be undone.")
        sessions = list(batch.sessions.all())
        first = min((s.date for s in sessions), default=None)
        # A Kajongg import recorded hands itself: only hands beyond those are the club's own.
        imported = batch.report.get("made", {}).get("hands", 0)
        recorded = ([s for s in sessions if s.tables.filter(hands__isnull=False).exists()]
                    if not imported else
                    sessions if Hand.objects.filter(table__session__in=sessions).count() > imported
                    else [])
        if recorded:
            raise ImportRefused(
                f"Hands were recorded on the imported night of {recorded[0].date:%-d %b %Y} "
                "since: remove them before undoing the import.")
        counts = {"sessions": len(sessions)}
        if first:
            # Before the delete, which takes the nights' rating lines with it: the order
            # rating_store.mark_stale explains.
            _mark_rating_stale(batch.club, first)
        ClubSession.objects.filter(pk__in=[s.pk for s in sessions]).delete()
        members = [m for m in batch.members_made.all() if not Seat.objects.filter(member=m).exists()]
        counts["members"] = len(members)
        Member.objects.filter(pk__in=[m.pk for m in members]).delete()
        seasons = [s for s in batch.seasons_made.all() if not s.sessions.exists()]
        counts["seasons"] = len(seasons)
        Season.objects.filter(pk__in=[s.pk for s in seasons]).delete()
        batch.status = ImportBatch.Status.UNDONE
        batch.undone = timezone.now()
        batch.report = {**batch.report, "undone": counts}
        batch.save()
    log.info("club %s: import %s undone: %s", batch.club_id, batch.pk, counts)
    return counts


def _write_hands(played: list, user) -> int:
    """Record each Kajongg game's hands at its table as the recording service stores a hand
    entered at the table (the hand, each seat's entry as entered), then replay the table
    (``recompute_table``: each hand scored and settled, its results, the table's state and
    league's night rows). The dry run settled every hand to Kajongg's payments; a table that
    replays to other totals is refused, and nothing is written."""
    from clubs.recording.recompute import recompute_table

    count = 0
    for table, planned in played:
        seats = {s.position: s for s in Seat.objects.filter(table=table)}
        first = planned.hands[0]["positions"]
        Seat.objects.bulk_update(
            [Seat(pk=seats[position].pk, starting_wind=wind) for wind, position in first.items()],
            ["starting_wind"])
        hands = Hand.objects.bulk_create([
            Hand(table=table, number=h["number"], prevailing_wind=h["prevailing"],
                 dealer_id=seats[h["positions"]["E"]].pk,
                 winner_id=(seats[h["positions"][h["entry"]["winner"]]].pk
                            if h["entry"]["winner"] else None),
                 discarder=None, draw=h["entry"]["draw"], goulash=False,
                 win_source=h["entry"]["win_from"] or "", facts={},
                 created_by=user if user is not None and user.is_authenticated else None)
            for h in planned.hands])
        HandEntry.objects.bulk_create([
            HandEntry(hand=hand, seat_id=seats[h["positions"][wind]].pk, seat_wind=wind,
                      kind=entry_kind(data), data=data)
            for hand, h in zip(hands, planned.hands, strict=True)
            for wind, data in h["entry"]["seats"].items()], batch_size=500)
        state = recompute_table(table)
        want = {seats[p.lines[0]].pk: p.net for p in planned.players.values()}
        if state.totals != want or any(row.error for row in state.hands):
            raise ImportRefused(f"Table {planned.number} of {table.session.date:%-d %b %Y} "
                                f"({planned.note}) did not replay to Kajongg's balances.")
        count += len(hands)
    return count


def _mark_rating_stale(club, date) -> None:
    from history.rating_store import mark_stale

    mark_stale(club.pk, date)
