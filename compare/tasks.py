"""Background work through Django's Tasks API (the django-tasks backport, database backend):
a task per few tables (each stored as soon as it is replayed), so any number of workers, on any machines sharing the database, share one
comparison. A task is safe to run twice or after a worker was killed half-way: the table's
answer is stored in one transaction only if it is not there yet, and the report is written
once, whole, in the transaction that finds every table stored."""

from __future__ import annotations

from django_tasks import task

from compare import runs


@task()
def compare_table_task(comparison_id: str, table_ids: list[int]) -> int:
    """A few tables of a comparison (``runs.TABLES_PER_TASK``), each stored in its own
    transaction as soon as it is replayed; then the report, if these were the last."""
    stored = runs.run_parts(comparison_id, table_ids)
    runs.finish(comparison_id)
    return stored
