"""Keeping a club's rating lines (``RatingLine``) in step with its results, and reading them.

The lines are derived from ``league.NightResult`` (one row per player per table per night,
whether the night was recorded hand by hand or imported as totals). When results change,
the lines from that date on are recomputed: the lines before it cannot depend on later
nights, so a correction changes the lines after it and nothing before. Recomputing reads the
nights from that date in one query and each member's standing before it in one more, and
writes the lines in batches: the same few statements whatever the club's history.

When: the receivers of clubs' ``table_recomputed`` mark the club's rating out of date from a
date (``mark_stale``, one UPDATE; none on the hot path of a hand appended to a table), and the
next read (``ensure_fresh``) recomputes. Hands appended to a night still in play (an open
night of the last two days) mark nothing: a read compares those nights' results with what they
were at the last rebuild (``live_mark``, one indexed aggregate, no lock) and recomputes from
the first open night only when they changed, so a read with nothing new writes nothing.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Count, DateField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Least
from django.utils import timezone

from history.models import RatingLine, RatingPrivacy, RatingSettings
from history.rating import Params, Ratings, SeatResult, Standing, TableNight, rate

LIVE_DAYS = 2


def mark_stale(club_id: int, date) -> None:
    """The results of ``date`` changed: the lines from that date on are recomputed on the next
    read. One UPDATE, and none at all for a club that has not turned the rating on.

    The UPDATE writes the club's settings row even when it is already stale from an earlier
    date, so the writing transaction holds that row's lock until it commits: a read that
    recomputes (``ensure_fresh``) locks the row first too, so the two queue one behind the
    other. A write that deletes rating lines (undoing an import deletes its nights, and their
    lines with them) calls this before deleting: taking the locks in the other order let a
    reader hold the row while waiting for the deleted lines, and the writer wait for the row,
    a deadlock (or, when the row was already stale, a reader rewriting lines of nights just
    deleted: an IntegrityError at its commit)."""
    RatingSettings.objects.filter(club_id=club_id, enabled=True).update(
        stale_from=Least(Coalesce("stale_from", Value(date, DateField())),
                         Value(date, DateField())))


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


def last_lines(club_id: int, date: dt.date | None, before: bool) -> list[tuple]:
    """(member, grade, nights, provisional, date) of each member's last line before ``date``
    (or on or before it; every line when None): one query, each member's last line found
    through the (member, date) index, whatever the length of the club's history."""
    from clubs.models import Member

    on = {"date__lt" if before else "date__lte": date or dt.date.max}
    last = (RatingLine.objects.filter(member_id=OuterRef("pk"), **on)
            .order_by("-date", "-seq").values("pk")[:1])
    lines = Member.objects.filter(club_id=club_id).annotate(line=Subquery(last)).filter(
        line__isnull=False).values("line")
    return list(RatingLine.objects.filter(pk__in=lines).values_list(
        "member_id", "new", "seq", "provisional", "date"))


def standing_before(club_id: int, date: dt.date | None) -> dict:
    """Each member's grade and nights counted after their last line before ``date``."""
    if date is None:
        return {}
    return {m: Standing(new, seq) for m, new, seq, _p, _d in last_lines(club_id, date, True)}


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
        _insert(club.pk, ratings.lines)
    return ratings


def _insert(club_id: int, lines, batch: int = 5000) -> None:
    """The lines written by Django's ``bulk_create``. A raw writer (COPY on PostgreSQL, one
    prepared INSERT run over the rows on SQLite; kept in bench/bench_rating.py as the
    yardstick) wrote them 2.0-2.6x as fast, but at a club's scale that is 2.4 s against 4.7 s
    for a twenty-year club's whole history (16,000 lines: turning the rating on or changing
    its settings) and 0.26 s against 0.53 s for a correction a season back (3,200 lines);
    a night played writes its few lines either way in milliseconds (bench/README.md, 26 Nov
    2026, PostgreSQL, load 8-10). Clarity wins."""
    RatingLine.objects.bulk_create(
        [RatingLine(club_id=club_id, member_id=ln.member, table_id=ln.table, date=ln.date,
                    season_id=ln.season, seq=ln.seq, players=ln.players, beaten=ln.beaten,
                    actual=ln.actual, others_mean=ln.others_mean, old=ln.old, par=ln.par,
                    weight=ln.weight, new=ln.new, provisional=ln.provisional)
         for ln in lines], batch_size=batch)


def live_from(club) -> dt.date | None:
    """The first date of a night still open in the last ``LIVE_DAYS`` days, if any."""
    from clubs.models import ClubSession
    from clubs.models.choices import SessionStatus

    today = timezone.localdate()
    return (ClubSession.objects.filter(club=club, status=SessionStatus.OPEN,
                                       date__gte=today - dt.timedelta(days=LIVE_DAYS),
                                       date__lte=today)
            .order_by("date").values_list("date", flat=True).first())


def live_mark(club_id: int, live: dt.date | None) -> str:
    """What the club's results from its first open night ``live`` on are now, in a few
    characters: that date, their rows and their hands (one aggregate over the (club, date)
    index, tonight's rows only). Recording a hand at the end of a table (the hot path, which
    marks nothing) adds one to the hands of each seat that played it, so the mark changes with
    every hand; anything else that changes a night's results (a table's first hand, a
    correction, a void, a swap, a night saved, a delete, players moved) marks the rating stale
    (``mark_stale``). Blank when no night is open."""
    from league.models import NightResult

    if live is None:
        return ""
    seen = NightResult.objects.filter(club_id=club_id, date__gte=live).aggregate(
        rows=Count("pk"), hands=Sum("hands"))
    return f"{live.isoformat()}:{seen['rows']}:{seen['hands'] or 0}"


def _current(settings: RatingSettings, live: dt.date | None, mark: str) -> bool:
    return settings.stale_from is None and (live is None or mark == settings.live_seen)


def ensure_fresh(club) -> RatingSettings | None:
    """The club's rating settings, its lines brought up to date first (None: not turned on).

    A read that finds them current (nothing marked stale, and the open nights' results as
    they were at the last rebuild: ``live_mark``) writes nothing and locks nothing: a few
    plain reads. Otherwise it locks the settings row, looks again (another read may have
    rebuilt while this one waited), and rebuilds from the earliest of ``stale_from`` and the
    first open night. The mark stored is the one read before the rebuild read the results: a
    hand committed in between changes the mark again, and the next read rebuilds (never a
    hand missed)."""
    settings = settings_of(club)
    if settings is None or not settings.enabled:
        return settings
    live = live_from(club)
    if _current(settings, live, live_mark(club.pk, live)):
        return settings
    with transaction.atomic():
        settings = RatingSettings.objects.select_for_update().filter(pk=settings.pk).first()
        if settings is None:
            return None  # the club was deleted while this read waited for it
        live = live_from(club)
        mark = live_mark(club.pk, live)
        if _current(settings, live, mark):
            return settings  # rebuilt by another read while this one waited
        starts = [d for d in (settings.stale_from, live) if d is not None]
        recompute(club, min(starts), settings)
        RatingSettings.objects.filter(pk=settings.pk).update(stale_from=None, live_seen=mark)
        settings.stale_from, settings.live_seen = None, mark
    return settings


def turn_on(club, **params) -> RatingSettings:
    """Enable the club's rating (or change its parameters): the whole history is recomputed."""
    with transaction.atomic():
        settings, _ = RatingSettings.objects.select_for_update().get_or_create(club=club)
        for name, value in params.items():
            setattr(settings, name, value)
        settings.enabled = True
        settings.stale_from = None
        settings.live_seen = live_mark(club.pk, live_from(club))  # read before the results
        settings.save()
        recompute(club, None, settings)
    return settings


def hidden_members(club) -> set[int]:
    return set(RatingPrivacy.objects.filter(member__club=club, hidden=True)
               .values_list("member_id", flat=True))


def table_as_of(club, as_of: dt.date | None, viewer_member_id: int | None = None) -> list[dict]:
    """The rating table: each member's last line on or before ``as_of`` (all of them when
    None), highest grade first; members who hide theirs left out (except to themselves)."""
    from clubs.models import Member

    found = last_lines(club.pk, as_of, False)
    names = dict(Member.objects.filter(pk__in=[m for m, *_ in found])
                 .values_list("pk", "display_name"))
    hidden = hidden_members(club) - {viewer_member_id}
    rows = [
        {"member_id": m, "name": names.get(m, "?"), "grade": round(new, 1), "nights": seq,
         "provisional": bool(provisional), "last": _as_date(date)}
        for m, new, seq, provisional, date in found if m not in hidden
    ]
    rows.sort(key=lambda r: (r["provisional"], -r["grade"], r["name"]))
    place = 0
    for row in rows:
        if not row["provisional"]:
            place += 1
            row["place"] = place
    return rows


def _as_date(value) -> dt.date:
    # SQLite hands a raw query's dates back as text.
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


class SnapshotRefused(Exception):
    """Why a snapshot was not taken, in a sentence (``field``: the field it is about)."""

    def __init__(self, message: str, field: str = "non_field_errors"):
        super().__init__(message)
        self.field = field


def take_snapshot(club, as_of: dt.date | None, user=None):
    """Freeze the rating table as of ``as_of`` (today when None): the page's and the API's
    one way of keeping a dated snapshot. Hidden ratings are kept in it (a member may show
    theirs again) and left out when it is read (``snapshot_rows``)."""
    from history.models import RatingSnapshot

    settings = ensure_fresh(club)
    if not settings or not settings.enabled:
        raise SnapshotRefused("Turn the rating on first.")
    as_of = as_of or timezone.localdate()
    if as_of > timezone.localdate():
        raise SnapshotRefused("A snapshot is of a day that has happened.", "as_of")
    rows = table_as_of(club, as_of)
    return RatingSnapshot.objects.create(
        club=club, as_of=as_of, taken_by=user if user is not None and user.pk else None,
        data={"rows": [{**r, "last": r["last"].isoformat()} for r in rows],
              "params": {"provisional_nights": settings.provisional_nights,
                         "min_weight": settings.min_weight, "guest_grade": settings.guest_grade}})


def snapshot_rows(snapshot, viewer_member_id: int | None = None) -> list[dict]:
    """A snapshot's rows as shown: members who hide their rating now are left out, except to
    themselves."""
    hidden = hidden_members(snapshot.club) - {viewer_member_id}
    return [r for r in snapshot.data["rows"] if r["member_id"] not in hidden]
