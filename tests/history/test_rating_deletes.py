"""A delete that takes results with it (a club, a season, a night, a table: the Django admin,
the API, the mending pages) marks the club's rating out of date before it deletes anything,
in its own transaction, as undoing an import does (found in QA: the admin's deletes did not,
so a night deleted there left the later nights' grades counting it, and a read recomputing
the rating meanwhile could deadlock with the delete or rewrite lines of nights just gone).

The concurrent cases run on PostgreSQL with real threads, as tests/history/
test_rating_concurrency.py."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.models import Club, ClubSession, Season
from history import rating_store
from history.models import RatingLine, RatingSettings
from league.models import NightResult
from tests.history.test_rating_concurrency import assert_lines_are_the_formulas
from tests.league.conftest import play_hands, seat_table
from tests.web.test_recording_concurrency import run_together

RATING_LINES = RatingLine._meta.db_table
RATING_SETTINGS = RatingSettings._meta.db_table


@pytest.fixture
def rated(club, make_season, bmja_version):
    season = make_season(bmja_version, seed=5, nights=3, hands=4)
    rating_store.turn_on(club)
    assert RatingLine.objects.filter(club=club).exists()
    return season


def nights(club) -> list[ClubSession]:
    return list(ClubSession.objects.filter(club=club).order_by("date"))


def marked_before_deleted(queries, results=RatingLine) -> bool:
    """The rating's settings row is written (``mark_stale``) before the first DELETE of the
    results (``results``: the rating's lines, or the league's nights it is computed from)."""
    sqls = [q["sql"] for q in queries]
    marked = next((i for i, sql in enumerate(sqls)
                   if sql.startswith("UPDATE") and RATING_SETTINGS in sql), None)
    deleted = next((i for i, sql in enumerate(sqls)
                    if sql.startswith("DELETE") and results._meta.db_table in sql), None)
    assert deleted is not None, f"the delete took no {results._meta.verbose_name}"
    return marked is not None and marked < deleted


def read_is_the_formula(club) -> None:
    assert rating_store.ensure_fresh(club).stale_from is None
    assert_lines_are_the_formulas(club)


# -- each delete path --------------------------------------------------------------------------
# The Django admin refuses to delete a club or a night with results (their league rows are
# read-only there) and Django refuses a club whose members sat at a table or whose nights are
# in a season (PROTECT): the deletes below are the ones that do take results with them.


@pytest.fixture
def moved_away(club, rated):
    """The season's nights moved to another season (the rating marked out of date, and not read
    since): its rating lines still name it, and go with it."""
    later = Season.objects.create(club=club, name="Autumn", start=dt.date(2026, 2, 1))
    for night in nights(club):
        night.season = later
        night.save()
    assert RatingLine.objects.filter(season=rated).exists()
    return rated


@pytest.mark.django_db
def test_the_admin_deleting_a_season(admin_client, club, moved_away):
    with CaptureQueriesContext(connection) as done:
        answer = admin_client.post(f"/admin/clubs/season/{moved_away.pk}/delete/",
                                   {"post": "yes"})
    assert answer.status_code == 302
    assert not Season.objects.filter(pk=moved_away.pk).exists()
    assert marked_before_deleted(done.captured_queries)
    assert RatingSettings.objects.get(club=club).stale_from == nights(club)[0].date
    read_is_the_formula(club)
    assert not RatingLine.objects.filter(club=club, season__name="2026").exists()


@pytest.mark.django_db
def test_the_admin_deleting_seasons_from_the_list(admin_client, club, moved_away):
    with CaptureQueriesContext(connection) as done:
        answer = admin_client.post("/admin/clubs/season/", {
            "action": "delete_selected", "_selected_action": [moved_away.pk], "post": "yes"})
    assert answer.status_code == 302
    assert not Season.objects.filter(pk=moved_away.pk).exists()
    assert marked_before_deleted(done.captured_queries)
    read_is_the_formula(club)


@pytest.mark.django_db
def test_the_api_deleting_a_season(club, moved_away, users):
    api = APIClient()
    api.force_authenticate(users["admin"])
    with CaptureQueriesContext(connection) as done:
        answer = api.delete(f"/api/v1/seasons/{moved_away.pk}/")
    assert answer.status_code == 204, answer.content
    assert marked_before_deleted(done.captured_queries)
    read_is_the_formula(club)


@pytest.fixture
def guests_only(club, users):
    """A club whose nights were played by guests, in no season: one that can be deleted."""
    night = ClubSession.objects.create(club=club, date=dt.date(2026, 3, 5),
                                       house_rule_version=club.default_house_rule.versions
                                       .order_by("-pk").first())
    for number in (1, 2):
        table = seat_table(night, number, [f"Guest {number}{c}" for c in "ABCD"])
        assert play_hands(table, users["scorer"], random.Random(number), 4)
    rating_store.turn_on(club)
    assert NightResult.objects.filter(club=club).exists()
    return night


@pytest.mark.django_db
def test_a_superuser_deleting_a_club_through_the_api(club, guests_only, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    api = APIClient()
    api.force_authenticate(root)
    with CaptureQueriesContext(connection) as done:
        answer = api.delete(f"/api/v1/clubs/{club.slug}/")
    assert answer.status_code == 204, answer.content
    assert not Club.objects.filter(pk=club.pk).exists()
    assert marked_before_deleted(done.captured_queries, NightResult)
    # Once for the club, not once more for each of its nights and tables.
    assert len([q for q in done.captured_queries if q["sql"].startswith("UPDATE")
                and RATING_SETTINGS in q["sql"]]) == 1


@pytest.mark.django_db
def test_deleting_a_night_or_a_table_in_code(club, guests_only):
    """Any other delete (a script, the shell, a future page) marks it too."""
    table = guests_only.tables.order_by("number").first()
    with CaptureQueriesContext(connection) as done:
        table.delete()
    assert marked_before_deleted(done.captured_queries, NightResult)
    assert RatingSettings.objects.get(club=club).stale_from == guests_only.date
    RatingSettings.objects.filter(club=club).update(stale_from=None)
    with CaptureQueriesContext(connection) as done:
        ClubSession.objects.filter(pk=guests_only.pk).delete()
    assert marked_before_deleted(done.captured_queries, NightResult)
    assert RatingSettings.objects.get(club=club).stale_from == guests_only.date


# -- a read at the same moment (PostgreSQL) ----------------------------------------------------


def hold_until_someone_waits(seconds: float = 10) -> None:
    """Keep this transaction open until another connection waits for one of its locks."""
    with connection.cursor() as cursor:
        for _ in range(int(seconds / 0.05)):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return
            time.sleep(0.05)


needs_postgresql = pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="SQLite's IMMEDIATE transactions run one write "
    "at a time")


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_read_while_the_admin_deletes_a_season(club, moved_away, django_user_model):
    """The read starts once the delete has taken the season's rating lines and before it
    commits: it waits for the delete (the rating marked first), then rates every night once,
    without a deadlock or a line of the season just gone."""
    from django.test import Client

    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    deleted = threading.Event()

    def hold_after_the_lines(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.startswith("DELETE") and RATING_LINES in sql and not deleted.is_set():
            deleted.set()
            hold_until_someone_waits()
        return result

    def delete():
        client = Client()
        client.force_login(admin)
        with connection.execute_wrapper(hold_after_the_lines):
            return client.post(f"/admin/clubs/season/{moved_away.pk}/delete/", {"post": "yes"})

    def read():
        assert deleted.wait(30)
        return rating_store.ensure_fresh(club)

    outcomes = run_together([delete, read])
    assert getattr(outcomes[0], "status_code", None) == 302, outcomes
    assert not isinstance(outcomes[1], Exception), outcomes
    read_is_the_formula(club)
    assert not RatingLine.objects.filter(club=club, season__name="2026").exists()


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_read_while_a_club_is_deleted(club, guests_only, django_user_model):
    """A read waiting for the rating while its club is deleted finds no rating (not an
    error)."""
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    rating_store.mark_stale(club.pk, guests_only.date)
    deleted = threading.Event()

    def hold_after_the_results(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if (sql.startswith("DELETE") and NightResult._meta.db_table in sql
                and not deleted.is_set()):
            deleted.set()
            hold_until_someone_waits()
        return result

    def delete():
        api = APIClient()
        api.force_authenticate(root)
        with connection.execute_wrapper(hold_after_the_results):
            return api.delete(f"/api/v1/clubs/{club.slug}/")

    def read():
        assert deleted.wait(30)
        return rating_store.ensure_fresh(club)

    outcomes = run_together([delete, read])
    assert getattr(outcomes[0], "status_code", None) == 204, outcomes
    assert outcomes[1] is None, outcomes
    assert not Club.objects.filter(pk=club.pk).exists()
