"""Background work through Django's Tasks API (the django-tasks backport, database backend).

A worker task is a turn, not a fixed piece of work: it claims the fairest few tables of any
comparison (``runs.claim``: the person and club with least work being done go first), under a
lease it renews after each table it stores, so a flood from one person takes turns with
everyone else's comparisons and any number of workers, on any machines sharing the database,
share the queue. Nothing is kept in a worker's memory between tasks but a cache of frozen rules.

A worker killed mid-task stops renewing its lease; the sweep (a task queued to run a few
seconds later while comparisons are unfinished, queued again by each sweep) gives its tables
back and queues workers for them, and marks the dead task failed, without anyone pressing
anything. A table is stored once, in one transaction, whoever replays it."""

from __future__ import annotations

from django_tasks import task

from compare import runs


@task(takes_context=True)
def compare_work_task(context) -> int:
    """One worker's turn: the fairest few tables, each stored as soon as it is replayed; then
    the report, if these were the last. How many tables it stored."""
    return runs.work(str(context.task_result.id))


@task(takes_context=True)
def compare_table_task(context, comparison_id: str | None = None,
                       table_ids: list[int] | None = None) -> int:
    """The task the queue held before turns (one comparison's tables): such a task, still
    queued after an upgrade, takes a turn like any other."""
    return runs.work(str(context.task_result.id))


@task()
def sweep_task() -> dict:
    """Recover what dead workers left (``runs.sweep``); the next sweep is queued first, so a
    worker killed during this one does not end the chain."""
    runs.ensure_sweep()
    return runs.sweep()


TASK_PATHS = (compare_work_task.module_path, compare_table_task.module_path)
SWEEP_PATH = sweep_task.module_path
