"""The club rating read while a night is open (a read that finds tonight's hands newer than
the lines rebuilds them, ``history.rating_store.ensure_fresh``): it rebuilds tonight's lines
only, never the club's history, so it costs the same queries after 10 nights and after 1,000,
leaves every earlier line as it was, and gives the lines a whole rebuild gives. The time is
measured by ``bench/bench_rating_reads.py`` (bench/README.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import ClubSession, Member, Season, Table
from clubs.recording import record_hand
from history import rating_store
from history.models import RatingLine
from tests.growth.history import copy_nights, record_night

pytestmark = pytest.mark.django_db

VALUES = ("member_id", "table_id", "date", "seq", "players", "beaten", "actual", "others_mean",
          "old", "par", "weight", "new", "provisional")


@pytest.fixture
def tonight(club, users, bmja_version):
    return open_night(club, users, bmja_version)


def open_night(club, users, bmja_version) -> ClubSession:
    """Tonight's night, open, two tables of four hands each."""
    members = [Member.objects.create(club=club, display_name=f"Player {i}") for i in range(8)]
    today = timezone.localdate()
    season = Season.objects.create(club=club, name=f"{today.year}",
                                   start=dt.date(today.year, 1, 1),
                                   end=dt.date(today.year, 12, 31))
    session = ClubSession.objects.create(club=club, season=season, date=today,
                                         house_rule_version=bmja_version)
    record_night(session, members, users["scorer"])
    return session


def a_hand(session, user, winner: str) -> None:
    table = Table.objects.get(session=session, number=1)
    seats = {w: {"score": 4 * (j + 1)} for j, w in enumerate("ESWN")}
    seats[winner] = {"score": 200}
    record_hand(table, {"winner": winner, "win_from": "wall", "seats": seats}, user)


def lines(club) -> list[tuple]:
    return sorted(RatingLine.objects.filter(club=club).values_list(*VALUES))


def read_after_a_hand(api, club, session, user, winner) -> tuple[int, set[int]]:
    """A hand recorded tonight, then the rating read: (its queries, the ids of the lines
    before tonight)."""
    earlier = set(RatingLine.objects.filter(club=club, date__lt=session.date)
                  .values_list("pk", flat=True))
    a_hand(session, user, winner)
    with CaptureQueriesContext(connection) as queries:
        answer = api.get(f"/api/v1/clubs/{club.slug}/rating/")
    assert answer.status_code == 200
    after = set(RatingLine.objects.filter(club=club, date__lt=session.date)
                .values_list("pk", flat=True))
    assert after == earlier  # no earlier line rewritten
    return len(queries), earlier


def test_a_read_during_an_open_night_rebuilds_tonight_only(club, users, tonight):
    api = APIClient()
    api.force_authenticate(users["admin"])
    copy_nights(tonight, 9)
    rating_store.turn_on(club)
    api.get(f"/api/v1/clubs/{club.slug}/rating/")  # a first read: a role looked up once
    at_10, earlier = read_after_a_hand(api, club, tonight, users["scorer"], "S")
    assert len(earlier) == 9 * 8
    # Tonight's lines follow the hand just recorded, as a whole rebuild has them.
    shown = lines(club)
    rating_store.recompute(club, None)
    assert lines(club) == shown

    copy_nights(ClubSession.objects.filter(club=club).order_by("date").first(), 990)
    rating_store.turn_on(club)
    at_1000, earlier = read_after_a_hand(api, club, tonight, users["scorer"], "W")
    assert len(earlier) == 999 * 8
    assert at_1000 == at_10, f"queries of a read at 10 nights {at_10}, at 1,000 {at_1000}"
    shown = lines(club)
    rating_store.recompute(club, None)
    assert lines(club) == shown


def writes_in(queries) -> list[str]:
    """The statements of ``queries`` that write or lock: INSERT, UPDATE, DELETE, a
    SELECT ... FOR UPDATE (and a savepoint, which only a write needs)."""
    found = []
    for query in queries.captured_queries:
        sql = query["sql"].lstrip().upper()
        if sql.startswith(("INSERT", "UPDATE", "DELETE", "COPY", "SAVEPOINT")) or "FOR UPDATE" in sql:
            found.append(query["sql"])
    return found


def test_a_read_with_no_new_hand_writes_nothing(client, club, users, tonight):
    """A read during an open night rebuilds tonight's lines when a hand came in since the last
    rebuild, and otherwise writes nothing and locks nothing (members reading the league on
    their phones at once used to queue behind each other's rewrite of the same lines)."""
    api = APIClient()
    api.force_authenticate(users["admin"])
    client.force_login(users["admin"])
    copy_nights(tonight, 4)
    rating_store.turn_on(club)
    a_hand(tonight, users["scorer"], "S")
    assert api.get(f"/api/v1/clubs/{club.slug}/rating/").status_code == 200  # rebuilds
    shown = sorted(RatingLine.objects.filter(club=club).values_list("pk", *VALUES))

    reads = {
        "API": lambda: api.get(f"/api/v1/clubs/{club.slug}/rating/"),
        "page": lambda: client.get(f"/clubs/{club.slug}/history/rating/", secure=True),
        "ensure_fresh": lambda: rating_store.ensure_fresh(club),
    }
    for name, read in reads.items():
        with CaptureQueriesContext(connection) as queries:
            answer = read()
        assert getattr(answer, "status_code", 200) == 200, name
        assert writes_in(queries) == [], name
    with CaptureQueriesContext(connection) as queries:
        rating_store.ensure_fresh(club)
    assert len(queries) == 3, [q["sql"] for q in queries.captured_queries]
    # Not a line rewritten: the same rows, the same ids.
    assert sorted(RatingLine.objects.filter(club=club).values_list("pk", *VALUES)) == shown

    # A hand recorded: the next read rebuilds tonight's lines, as a whole rebuild has them;
    # the read after it writes nothing again.
    a_hand(tonight, users["scorer"], "W")
    with CaptureQueriesContext(connection) as queries:
        assert api.get(f"/api/v1/clubs/{club.slug}/rating/").status_code == 200
    assert writes_in(queries)
    with CaptureQueriesContext(connection) as queries:
        assert api.get(f"/api/v1/clubs/{club.slug}/rating/").status_code == 200
    assert writes_in(queries) == []
    after_the_hand = lines(club)
    assert after_the_hand != [row[1:] for row in shown]
    rating_store.recompute(club, None)
    assert lines(club) == after_the_hand
