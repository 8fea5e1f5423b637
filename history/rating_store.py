"""Keeping a club's rating lines (``RatingLine``) in step with its results, and reading them.

The lines are derived from ``league.NightResult`` (one row per player per table per night,
whether the night was recorded hand by hand or imported as totals). When results change,
the lines from that date on are recomputed: the lines before it cannot depend on later
nights, so a correction changes the lines after it and nothing before. Recomputing reads the
nights from that date in one query and each member's standing before it in one more, and
writes the lines in batches: the same few statements whatever the club's history.

When: the receivers of clubs' ``table_recomputed`` mark the club's rating out of date from a
date (``mark_stale``, one UPDATE; none on the hot path of a hand appended to a table), and the
next read (``ensure_fresh``) recomputes. Nights still in play (an open night of the last two
days) are recomputed on every read, since hands added to them mark nothing.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from history.models import RatingLine, RatingPrivacy, RatingSettings
from history.rating import Params, Ratings, SeatResult, Standing, TableNight, rate

LIVE_DAYS = 2


def mark_stale(club_id: int, date) -> None:
    """The results of ``date`` changed: the lines from that date on are recomputed on the next
    read. One UPDATE, and none at all for a club that has not turned the rating on."""
    RatingSettings.objects.filter(club_id=club_id, enabled=True).filter(
        Q(stale_from__isnull=True) | Q(stale_from__gt=date)).update(stale_from=date)


def params_of(settings: RatingSettings) -> Params:
    return Params(provisional_nights=settings.provisional_nights,
                  min_weight=settings.min_weight, guest_grade=settings.guest_grade)


def settings_of(club) -> RatingSettings | None:
    return RatingSettings.objects.filter(club=club).first()


def nights_from(club_id: int, start: dt.date | None) -> list[TableNight]:
    """Every counted table-night of the club from ``start`` on, read from the league summary
    in one query."""
    from league.models import NightResult

    qs = NightResult.objects.filter(club_id=club_id, counted=True)
    if start is not None:
        qs = qs.filter(date__gte=start)
    tables: dict[int, TableNight] = {}
    seats: dict[int, list] = {}
    for table_id, date, season_id, member_id, guest_name, net in qs.values_list(
            "table_id", "date", "season_id", "member_id", "guest_name", "net").iterator(
            chunk_size=5000):
        seats.setdefault(table_id, []).append(
            SeatResult(member_id, net) if member_id else SeatResult(f"guest:{guest_name}", net,
                                                                    member=False))
        if table_id not in tables:
            tables[table_id] = (date, season_id)
    return [TableNight(t, date, tuple(seats[t]), season) for t, (date, season) in tables.items()]


def standing_before(club_id: int, date: dt.date | None) -> dict:
    """Each member's grade and nights counted after their last line before ``date``."""
    if date is None:
        return {}
    last = RatingLine.objects.filter(member=OuterRef("member"), date__lt=date).order_by("-seq")
    rows = RatingLine.objects.filter(club_id=club_id, date__lt=date,
                                     seq=Subquery(last.values("seq")[:1]))
    return {m: Standing(new, seq) for m, new, seq in rows.values_list("member_id", "new", "seq")}


def recompute(club, start: dt.date | None, settings: RatingSettings | None = None) -> Ratings:
    """Rewrite the club's lines from ``start`` on (None: its whole history)."""
    settings = settings or settings_of(club)
    with transaction.atomic():
        ratings = rate(nights_from(club.pk, start), params_of(settings),
                       standing_before(club.pk, start))
        old = RatingLine.objects.filter(club_id=club.pk)
        if start is not None:
            old = old.filter(date__gte=start)
        old.delete()
        RatingLine.objects.bulk_create(
            (RatingLine(club_id=club.pk, member_id=ln.member, table_id=ln.table, date=ln.date,
                        season_id=ln.season, seq=ln.seq, players=ln.players, beaten=ln.beaten,
                        actual=ln.actual, others_mean=ln.others_mean, old=ln.old, par=ln.par,
                        weight=ln.weight, new=ln.new, provisional=ln.provisional)
             for ln in ratings.lines), batch_size=2000)
    return ratings


def live_from(club) -> dt.date | None:
    """The first date of a night still open in the last ``LIVE_DAYS`` days, if any."""
    from clubs.models import ClubSession
    from clubs.models.choices import SessionStatus

    today = timezone.localdate()
    return (ClubSession.objects.filter(club=club, status=SessionStatus.OPEN,
                                       date__gte=today - dt.timedelta(days=LIVE_DAYS),
                                       date__lte=today)
            .order_by("date").values_list("date", flat=True).first())


def ensure_fresh(club) -> RatingSettings | None:
    """The club's rating settings, its lines brought up to date first (None: not turned on)."""
    settings = settings_of(club)
    if settings is None or not settings.enabled:
        return settings
    live = live_from(club)
    stale = settings.stale_from
    if stale is None and live is None:
        return settings
    with transaction.atomic():
        settings = RatingSettings.objects.select_for_update().get(pk=settings.pk)
        starts = [d for d in (settings.stale_from, live) if d is not None]
        if starts:
            recompute(club, min(starts), settings)
            RatingSettings.objects.filter(pk=settings.pk).update(stale_from=None)
            settings.stale_from = None
    return settings


def turn_on(club, **params) -> RatingSettings:
    """Enable the club's rating (or change its parameters): the whole history is recomputed."""
    with transaction.atomic():
        settings, _ = RatingSettings.objects.select_for_update().get_or_create(club=club)
        for name, value in params.items():
            setattr(settings, name, value)
        settings.enabled = True
        settings.stale_from = None
        settings.save()
        recompute(club, None, settings)
    return settings


def hidden_members(club) -> set[int]:
    return set(RatingPrivacy.objects.filter(member__club=club, hidden=True)
               .values_list("member_id", flat=True))


def table_as_of(club, as_of: dt.date | None, viewer_member_id: int | None = None) -> list[dict]:
    """The rating table: each member's last line on or before ``as_of`` (all of them when
    None), highest grade first; members who hide theirs left out (except to themselves)."""
    lines = RatingLine.objects.filter(club=club)
    inner = RatingLine.objects.filter(member=OuterRef("member"))
    if as_of is not None:
        lines = lines.filter(date__lte=as_of)
        inner = inner.filter(date__lte=as_of)
    lines = lines.filter(seq=Subquery(inner.order_by("-seq").values("seq")[:1]))
    hidden = hidden_members(club) - {viewer_member_id}
    rows = [
        {"member_id": m, "name": name, "grade": round(new, 1), "nights": seq,
         "provisional": provisional, "last": date}
        for m, name, new, seq, provisional, date in lines.values_list(
            "member_id", "member__display_name", "new", "seq", "provisional", "date")
        if m not in hidden
    ]
    rows.sort(key=lambda r: (r["provisional"], -r["grade"], r["name"]))
    place = 0
    for row in rows:
        if not row["provisional"]:
            place += 1
            row["place"] = place
    return rows
