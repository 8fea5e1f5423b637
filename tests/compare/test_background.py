"""Long comparisons on the background workers (issue #16 part 4): split by table, run by
Django's Tasks API through the database backend, restarted cleanly after a worker is killed,
and the report written once, whole."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_tasks_db.models import DBTaskResult

from compare import runs
from compare.models import Comparison
from compare.rule_choice import chosen_rules
from compare.scope import resolve_scope
from tests.compare.factory import make_nights

RULES = ["bmja", "guide", "west-wind-goulash"]


def _worker(max_tasks=None):
    call_command("db_worker", batch=True, startup_delay=False, interval=0.01,
                 max_tasks=max_tasks, verbosity=0)


@pytest.fixture(autouse=True)
def two_tables_a_task(monkeypatch):
    monkeypatch.setattr(runs, "TABLES_PER_TASK", 2)


@pytest.fixture
def season(demo):
    return make_nights(demo["club"], nights=3, tables=2, hands=24)


def _start(season, user, background=True):
    scope = resolve_scope({"season": season.pk}, user)
    return runs.start(scope, chosen_rules(RULES, user), user, background=background)


@pytest.mark.django_db(transaction=True)
def test_the_workers_give_the_same_report_as_one_process(season, demo_scorer):
    inline = _start(season, demo_scorer, background=False)
    queued = _start(season, demo_scorer)
    assert queued.report is None and queued.tables_total == 6
    assert DBTaskResult.objects.count() == 3  # two tables a task
    _worker()
    queued.refresh_from_db()
    assert queued.status == Comparison.DONE
    assert queued.report == inline.report


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_half_way_is_restarted_cleanly(season, demo_scorer):
    comparison = _start(season, demo_scorer)
    tables = list(comparison.parts.values_list("table_id", flat=True))
    _worker(max_tasks=1)  # two tables stored, then the worker stops
    # The second task was claimed by a worker that was then killed: it stays "running" in the
    # queue with nothing stored, as after kill -9.
    killed = DBTaskResult.objects.ready().first()
    killed.claim("killed-worker")
    comparison.refresh_from_db()
    assert runs.progress(comparison) == (2, 6)
    assert comparison.report is None  # never half-written
    # The unfinished tables are queued again (the page's button, the API's resume,
    # manage.py compare_rules --resume); the tables already stored are not replayed.
    assert runs.enqueue(comparison) == 4
    _worker()
    comparison.refresh_from_db()
    assert comparison.status == Comparison.DONE
    assert comparison.report == _start(season, demo_scorer, background=False).report
    # The killed worker's task, if it ever ran now, would store nothing twice.
    assert runs.run_part(comparison.pk, tables[0]) is False
    assert not comparison.parts.exists()  # deleted with the report written


@pytest.mark.django_db(transaction=True)
def test_the_report_is_written_once_when_the_last_table_is_in(season, demo_scorer):
    comparison = _start(season, demo_scorer)
    parts = list(comparison.parts.values_list("table_id", flat=True))
    for table_id in parts[:-1]:
        runs.run_part(comparison.pk, table_id)
        assert runs.finish(comparison.pk) is False
    runs.run_part(comparison.pk, parts[-1])
    assert runs.finish(comparison.pk) is True
    assert runs.finish(comparison.pk) is False  # a second worker finds it written
    comparison.refresh_from_db()
    assert comparison.report["counts"]["tables"] == 6
