"""The benchmarks' bulk builder (bench/bulk_league.py), run small as both of its users run it
(bench/league_build.py: one club made through the ORM, nights every day; bench_db_growth.py:
clubs made by it after the rows already there, weekly nights, guests), writes rows the service
would have written: every key points at a row, every hand sums to zero, and the night summary
and the stored standings are what league.summary and league.standings_store make again from
the hand results. A schema change that breaks the build (league/0007's NOT NULL columns did,
silently) fails here."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from bench.bulk_league import Shape, build
from clubs.models import Club, Hand, HandResult, Table
from league.models import NightResult, Standing
from league.summary import HISTORY, refresh_all

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="the builder's SQL is PostgreSQL's (generate_series, FILTER)")

SMALL = dict(members=8, seasons=2, nights=2, tables=2, hands=3)
# The summary's columns the builder leaves at zero on purpose (bench/bulk_league.py says why).
NOT_SUMMED = set(HISTORY)


def summary_rows() -> dict[int, dict]:
    return {r["seat_id"]: r for r in NightResult.objects.values()}


def standing_rows() -> dict[tuple, dict]:
    rows = Standing.objects.values("scope__club_id", "scope__season_id", "scope__nights",
                                   "member_id", "guest_name", *(
                                       f.name for f in Standing._meta.concrete_fields
                                       if f.name not in ("id", "scope", "member", "guest_name")))
    return {(r["scope__club_id"], r["scope__season_id"], r["member_id"], r["guest_name"]): r
            for r in rows}


def scalar(sql: str):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


@pytest.fixture
def built(club, bmja_version):
    steps = []
    build(Shape(clubs=1, **SMALL, start=dt.date(2000, 1, 1)), bmja_version.pk,
          first_club=club.pk, keys_checked=True, report=lambda *step: steps.append(step))
    build(Shape(clubs=2, **SMALL, start=dt.date(2020, 1, 1), every=7, guests=3),
          bmja_version.pk, keys_checked=True, report=lambda *step: steps.append(step))
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the deferred foreign keys checked now
    return club, steps


@on_postgresql
@pytest.mark.django_db
def test_the_rows_made_are_counted_and_every_key_points_at_a_row(built):
    club, steps = built
    tables = 2 * 2 * 2  # a club's: seasons x nights x tables
    assert [(name, rows) for name, rows, _ in steps] == [
        ("members", 8), ("seasons", 2), ("nights", 4), ("tables", tables),
        ("seats", 4 * tables), ("hands", 3 * tables), ("hand results", 12 * tables),
        ("night summary", 4 * tables),
        ("clubs", 2), ("members", 16), ("seasons", 4), ("nights", 8), ("tables", 2 * tables),
        ("seats", 8 * tables), ("hands", 6 * tables), ("hand results", 24 * tables),
        ("night summary", 8 * tables)]
    assert Hand.objects.filter(table__session__club=club).count() == 3 * tables
    assert Club.objects.filter(slug__startswith="other-").count() == 2
    # No one at two tables of a night; each seat's member is of the night's club; each night
    # in its season.
    assert scalar("""SELECT count(*) FROM (SELECT t.session_id, s.member_id FROM clubs_seat s
                     JOIN clubs_table t ON t.id = s.table_id WHERE s.member_id IS NOT NULL
                     GROUP BY 1, 2 HAVING count(*) > 1) x""") == 0
    assert scalar("""SELECT count(*) FROM clubs_seat s JOIN clubs_table t ON t.id = s.table_id
                     JOIN clubs_clubsession n ON n.id = t.session_id
                     JOIN clubs_member m ON m.id = s.member_id
                     WHERE m.club_id <> n.club_id""") == 0
    assert scalar("""SELECT count(*) FROM clubs_clubsession n JOIN clubs_season s
                     ON s.id = n.season_id WHERE n.date NOT BETWEEN s.start AND s."end"
                     OR s.club_id <> n.club_id""") == 0
    # A guest at every third of the second build's 16 tables: 3, 6, 9, 12, 15.
    assert NightResult.objects.exclude(guest_name="").count() == 5


@on_postgresql
@pytest.mark.django_db
def test_every_hand_sums_to_zero_and_the_running_totals_end_at_the_night(built):
    assert scalar("""SELECT count(*) FROM (SELECT hand_id FROM clubs_handresult GROUP BY hand_id
                     HAVING sum(net) <> 0 OR count(*) <> 4) x""") == 0
    assert HandResult.objects.filter(won=True).count() > 0
    assert scalar("""SELECT count(*) FROM league_nightresult n
                     JOIN LATERAL (SELECT running_total FROM clubs_handresult r
                                   JOIN clubs_hand h ON h.id = r.hand_id
                                   WHERE r.seat_id = n.seat_id ORDER BY h.number DESC LIMIT 1) r
                     ON true
                     WHERE r.running_total <> n.net OR n.net <> (
                         SELECT sum(net) FROM clubs_handresult WHERE seat_id = n.seat_id)""") == 0


@on_postgresql
@pytest.mark.django_db
def test_the_summary_and_standings_are_the_services_own(built):
    """The night summary is what league.summary makes again from the hand results, and the
    standings rebuilt from it (as league_build.py does) what standings_store makes again after
    that; all but the player history's columns, left at zero by the builder."""
    from league import standings_store

    standings_store.rebuild()
    ours, our_standings = summary_rows(), standing_rows()
    assert len(ours) == Table.objects.count() * 4 == 96
    assert all(row[c] == 0 for row in ours.values() for c in NOT_SUMMED)
    refresh_all(Table.objects.all())
    theirs, their_standings = summary_rows(), standing_rows()
    assert ours.keys() == theirs.keys()
    for seat, row in ours.items():
        expected = theirs[seat]
        for column in row.keys() - NOT_SUMMED - {"id"}:
            assert row[column] == expected[column], (seat, column)
    assert our_standings.keys() == their_standings.keys() and len(our_standings) > 0
    for key, row in our_standings.items():
        for column in row.keys() - NOT_SUMMED:
            assert row[column] == their_standings[key][column], (key, column)


def test_a_club_too_small_for_its_tables_is_refused():
    with pytest.raises(ValueError, match="8 members cannot fill 3 tables"):
        Shape(clubs=1, members=8, seasons=1, nights=1, tables=3, hands=1,
              start=dt.date(2000, 1, 1))
