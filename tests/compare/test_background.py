"""Long comparisons on the background workers (issue #16 part 4): split by table, run by
Django's Tasks API through the database backend, restarted cleanly after a worker is killed,
and the report written once, whole."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from compare import runs
from compare.models import Comparison, ComparisonPart
from compare.rule_choice import chosen_rules
from compare.scope import resolve_scope
from compare.tasks import SWEEP_PATH, TASK_PATHS
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


def _work_tasks():
    return DBTaskResult.objects.filter(task_path__in=TASK_PATHS)


@pytest.mark.django_db(transaction=True)
def test_the_workers_give_the_same_report_as_one_process(season, demo_scorer):
    inline = _start(season, demo_scorer, background=False)
    queued = _start(season, demo_scorer)
    assert queued.report is None and queued.tables_total == 6
    assert _work_tasks().count() == 3  # two tables a task
    # and a sweep, a few seconds later, while anything is unfinished
    assert DBTaskResult.objects.filter(task_path=SWEEP_PATH, status="READY").count() == 1
    _worker()
    queued.refresh_from_db()
    assert queued.status == Comparison.DONE
    assert queued.report == inline.report


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_half_way_is_recovered_without_anyone(season, demo_scorer, settings):
    comparison = _start(season, demo_scorer)
    tables = list(comparison.parts.values_list("table_id", flat=True))
    _worker(max_tasks=1)  # two tables stored
    # The next task is taken by a worker that claims its tables and is then killed (kill -9):
    # its task stays RUNNING in the queue and its tables unstored, with a lease it never renews.
    killed = DBTaskResult.objects.ready().filter(task_path__in=TASK_PATHS).first()
    killed.claim("killed-worker")
    assert runs.claim(str(killed.pk)) is not None
    comparison.refresh_from_db()
    assert runs.progress(comparison) == (2, 6)
    # Nothing is lost or stored twice while the lease runs: the other worker takes the rest.
    _worker()
    comparison.refresh_from_db()
    assert runs.progress(comparison) == (4, 6) and comparison.report is None
    # The lease runs out (the worker stopped renewing it); the sweep, queued by the start and
    # by every sweep while anything is unfinished, gives the tables back and queues a worker.
    ComparisonPart.objects.filter(claimed_by=str(killed.pk)).update(
        lease_until=timezone.now() - dt.timedelta(seconds=1))
    swept = runs.sweep()
    assert swept == {"released": 2, "abandoned_tasks": 1, "failed": 0, "queued": 1}
    killed.refresh_from_db()
    assert killed.status == "FAILED" and "lease" in killed.traceback  # not RUNNING for ever
    _worker()
    comparison.refresh_from_db()
    assert comparison.status == Comparison.DONE
    assert comparison.report == _start(season, demo_scorer, background=False).report
    # The killed worker's task, if it ever ran now, would store nothing twice.
    assert runs.run_part(comparison.pk, tables[0]) is False
    assert not comparison.parts.exists()  # deleted with the report written


@pytest.mark.django_db(transaction=True)
def test_the_sweep_runs_itself_from_the_queue(season, demo_scorer):
    """No person and no timer outside the database: the sweep is a deferred task that queues
    the next one while anything is unfinished, and none once everything is."""
    comparison = _start(season, demo_scorer)
    killed = DBTaskResult.objects.ready().filter(task_path__in=TASK_PATHS).first()
    killed.claim("killed-worker")
    runs.claim(str(killed.pk))
    _worker()  # the live tasks replay the four other tables; the dead one's two wait
    comparison.refresh_from_db()
    assert runs.progress(comparison) == (4, 6)

    def time_passes():  # the lease, then the sweep's delay, run out
        ComparisonPart.objects.filter(claimed_by=str(killed.pk)).update(
            lease_until=timezone.now() - dt.timedelta(seconds=1))
        sweeps = DBTaskResult.objects.filter(task_path=SWEEP_PATH, status="READY")
        assert sweeps.count() == 1
        sweeps.update(run_after=timezone.now())

    time_passes()
    _worker()  # the sweep, which queues the next sweep and a worker for the dead one's tables
    comparison.refresh_from_db()
    assert comparison.status == Comparison.DONE
    assert DBTaskResult.objects.filter(task_path=SWEEP_PATH, status="SUCCESSFUL").count() == 1
    DBTaskResult.objects.filter(task_path=SWEEP_PATH, status="READY").update(
        run_after=timezone.now())
    _worker()
    assert not DBTaskResult.objects.ready().exists()  # nothing left to sweep: the chain stops
    assert not DBTaskResult.objects.filter(status="READY").exists()


@pytest.mark.django_db(transaction=True)
def test_a_worker_taking_over_a_dead_ones_tables_marks_its_task_failed(season, demo_scorer):
    """The next worker may reach the tables before the sweep does: the dead task is not left
    RUNNING either way."""
    comparison = _start(season, demo_scorer)
    killed = DBTaskResult.objects.ready().filter(task_path__in=TASK_PATHS).first()
    killed.claim("killed-worker")
    runs.claim(str(killed.pk))
    ComparisonPart.objects.filter(claimed_by=str(killed.pk)).update(
        lease_until=timezone.now() - dt.timedelta(seconds=1))
    _worker()  # the two live tasks take the dead one's tables first, then two more
    killed.refresh_from_db()
    assert killed.status == "FAILED"
    DBTaskResult.objects.filter(task_path=SWEEP_PATH, status="READY").update(
        run_after=timezone.now())
    _worker()  # the sweep queues a worker for the last two
    comparison.refresh_from_db()
    assert comparison.status == Comparison.DONE
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()


@pytest.mark.django_db(transaction=True)
def test_resume_queues_nothing_already_queued_or_running(season, demo_scorer):
    comparison = _start(season, demo_scorer)
    assert _work_tasks().count() == 3
    assert runs.enqueue(comparison) == 0  # each unfinished table already has a worker queued
    assert runs.enqueue(comparison) == 0
    running = DBTaskResult.objects.ready().filter(task_path__in=TASK_PATHS).first()
    running.claim("a-live-worker")
    assert runs.claim(str(running.pk)) is not None  # replaying two tables under its lease
    assert runs.enqueue(comparison) == 0
    assert _work_tasks().count() == 3
    _worker()
    running.refresh_from_db()
    assert running.status == "RUNNING"  # still its own: nobody took its tables
    comparison.refresh_from_db()
    assert runs.progress(comparison) == (4, 6)


@pytest.mark.django_db(transaction=True)
def test_a_table_that_never_replays_fails_its_comparison_with_a_sentence(
        client, season, demo_scorer, monkeypatch):
    comparison = _start(season, demo_scorer)

    def broken(table, rules):
        raise RuntimeError("a bug")

    monkeypatch.setattr(runs, "compare_table", broken)
    for _ in range(runs.MAX_ATTEMPTS):
        runs.top_up()
        _worker()
    runs.sweep()
    comparison.refresh_from_db()
    assert comparison.status == Comparison.FAILED
    assert "could not be replayed after 3 tries" in comparison.problem
    assert runs.top_up() == 0  # not retried for ever
    client.force_login(demo_scorer)
    page = client.get(f"/compare/{comparison.pk}/").content.decode()
    assert "This comparison stopped: Table" in page and 'http-equiv="refresh"' not in page


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
