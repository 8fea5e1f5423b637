"""The rating is recomputed on a read (``rating_store.ensure_fresh``): two app processes
reading at once, or a read while an import is undone, each get their answer, with every line
once and none of a night that is gone (no duplicate, no deadlock, no IntegrityError).

Real threads with their own database connections, as tests/web/test_recording_concurrency.py."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.db.models import Count
from django.db.models.signals import post_delete
from django.test.utils import CaptureQueriesContext

from clubs.models import ClubSession, Member
from history import import_run, rating_store
from history.import_write import apply_plan, undo
from history.models import ImportBatch, RatingLine
from tests.history.test_rating import independent
from tests.web.test_recording_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)

SHEET = ("Season,Date,Player,Net\n"
         + "".join(f"Old,{day} Nov 2022,{name},{net}\n"
                   for day in (3, 10, 17)
                   for name, net in (("Alice", 30), ("Bob", -10), ("Carol", -5), ("David", -15)))
         + "".join(f"Old,24 Nov 2022,{name},{net}\n"
                   for name, net in (("Alice", -6), ("Bob", 4), ("Carol", 2))))


@pytest.fixture
def imported(club):
    for name in ("Alice", "Bob", "Carol", "David"):
        Member.objects.create(club=club, display_name=name)
    rating_store.turn_on(club)
    batch = import_run.start(club, SHEET.encode(), "old.csv")
    assert apply_plan(batch, import_run.plan_of(batch))["sessions"] == 4
    rating_store.ensure_fresh(club)
    return ImportBatch.objects.get(pk=batch.pk)


def lines_of(club) -> list[tuple]:
    return sorted(RatingLine.objects.filter(club=club).values_list(
        "member_id", "table_id", "date", "new"))


def assert_lines_are_the_formulas(club):
    doubled = (RatingLine.objects.filter(club=club).values("member", "table")
               .annotate(n=Count("id")).filter(n__gt=1))
    assert not doubled.exists()
    want = {m: [(d, round(g, 6)) for d, g in rows] for m, rows in independent(club.pk).items()}
    got: dict = {}
    for member, _table, date, new in sorted(lines_of(club), key=lambda r: (r[2], r[0])):
        got.setdefault(member, []).append((date, round(new, 6)))
    assert got == want


@pytest.mark.skipif("connection.vendor == 'sqlite' and connection.is_in_memory_db()",
                    reason="an in-memory SQLite database shares one cache between connections, "
                    "whose table locks fail at once ('database table is locked') where a file's "
                    "wait: run with SQLITE_TEST_NAME=/tmp/some.sqlite3")
def test_two_reads_at_once_recompute_once_each_without_doubling(club, imported):
    before = lines_of(club)
    assert len(before) == 15
    rating_store.mark_stale(club.pk, before[0][2])

    outcomes = run_together([lambda: rating_store.ensure_fresh(club)] * 3)
    assert all(o is not None and not isinstance(o, Exception) for o in outcomes), outcomes
    assert lines_of(club) == before
    assert_lines_are_the_formulas(club)


@pytest.mark.skipif("connection.vendor != 'postgresql'",
                    reason="SQLite's IMMEDIATE transactions run one write at a time")
def test_a_read_while_an_import_is_undone(club, imported):
    """The read starts after the undo has deleted the nights (and their lines) and before it
    commits: it waits for the undo instead of locking the rating first and then waiting for
    the deleted lines while the undo waits for the rating (a deadlock), or rewriting the lines
    of the nights just deleted (an IntegrityError at its commit)."""
    rating_store.mark_stale(club.pk, imported.sessions.order_by("date").first().date)
    deleted = threading.Event()

    def hold_until_the_read_waits(sender, **kwargs):
        if deleted.is_set():
            return
        deleted.set()
        with connection.cursor() as cursor:
            for _ in range(200):  # at most 10 s: the read is queued behind a lock
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND wait_event_type = 'Lock'")
                if cursor.fetchone()[0]:
                    return
                time.sleep(0.05)

    def read():
        assert deleted.wait(30)
        return rating_store.ensure_fresh(club)

    post_delete.connect(hold_until_the_read_waits, sender=ClubSession,
                        dispatch_uid="test-hold-undo")
    try:
        outcomes = run_together([lambda: undo(imported), read])
    finally:
        post_delete.disconnect(sender=ClubSession, dispatch_uid="test-hold-undo")
    assert outcomes[0] == {"sessions": 4, "members": 0, "seasons": 1}, outcomes
    assert not isinstance(outcomes[1], Exception), outcomes
    rating_store.ensure_fresh(club)
    assert lines_of(club) == []


@pytest.mark.skipif("connection.vendor != 'postgresql'",
                    reason="SQLite's IMMEDIATE transactions run one write at a time: no hand "
                    "commits while a read rebuilds")
def test_a_hand_committed_while_a_read_rebuilds_is_in_the_next_read(club, users, bmja_version,
                                                                     monkeypatch):
    """A read compares tonight's results with the mark stored at the last rebuild. A hand
    recorded at another table's phone and committed after the rebuilding read has read the
    results (so its lines lack it) must not be taken as seen: the mark stored is the one read
    before the results, and the next read rebuilds."""
    from tests.growth.test_rating_open_night_growth import a_hand, lines, open_night, writes_in

    session = open_night(club, users, bmja_version)
    rating_store.turn_on(club)
    a_hand(session, users["scorer"], "S")  # the next read rebuilds

    rate = rating_store.rate

    def a_hand_comes_in_then_rate(*args, **kwargs):
        # The results are read (rate's arguments); another connection records a hand.
        done = run_together([lambda: a_hand(session, users["scorer"], "W")])
        assert done == [None], done
        return rate(*args, **kwargs)

    monkeypatch.setattr(rating_store, "rate", a_hand_comes_in_then_rate)
    rating_store.ensure_fresh(club)
    monkeypatch.undo()
    behind = lines(club)

    with CaptureQueriesContext(connection) as queries:
        rating_store.ensure_fresh(club)
    assert writes_in(queries), "the read after it took the hand as seen"
    shown = lines(club)
    assert shown != behind
    rating_store.recompute(club, None)
    assert lines(club) == shown
