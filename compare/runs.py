"""Running a comparison: started in one transaction (the comparison and one part per table),
its tables replayed inline or by background workers (``compare.tasks``), each table's answer
written in its own transaction, and the report written once, whole, by whoever stores the last
table. Replaying a table writes nothing else: no hand, result or total changes. Once the report
is written the parts are deleted with it (about 10 KiB a table: kept, they were most of what
comparisons stored, for nothing the report does not hold)."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from clubs.models import Club, Hand
from compare.models import Comparison, ComparisonPart
from compare.replay_compare import compare_table, merge_parts
from compare.scope import Scope, load_table, load_tables
from play import SessionRules
from scoring.engine import HouseRule, HouseRuleError, UnknownHouseRule
from scoring.resolve import resolve_house_rule

# A comparison started, queued again, and written: an operator sees the background work come
# and go (the workers' own log says which task ran).
log = logging.getLogger(__name__)

# A running comparison with no table stored for this long is offered a restart of its
# unfinished tables on its page (the sweep restarts them anyway: this is for the impatient).
STALE_AFTER = dt.timedelta(minutes=2)
# Tables a background task replays one after another (each stored as soon as it is done): a
# task costs a worker a few commits and a reconnection to SQLite, several times one table's
# replay, and a season of 800 tables in tasks of 8 still spreads over any number of workers.
TABLES_PER_TASK = 8
# A table claimed this many times and never stored (its replay raised, or the worker died each
# time) fails its comparison with a sentence instead of being retried for ever.
MAX_ATTEMPTS = 3
# How far back the queue remembers whom it served (the turns of the last hour decide).
SERVED_MEMORY = dt.timedelta(hours=1)


class ShareUsedUp(Exception):
    """The user or the club already has as many comparisons running or queued as allowed."""


class TooLargeToWait(Exception):
    """A comparison asked to run inside the request that only the background workers run."""


def inline_limit() -> int:
    """Hand-replays (hands x rules) a request may run itself: about two seconds of one core (a
    replay runs near 2,500 hands a second per rule and core). Above it, background only."""
    return settings.COMPARE_INLINE_LIMIT


def lease() -> dt.timedelta:
    return dt.timedelta(seconds=settings.COMPARE_LEASE_SECONDS)


def frozen_rules(rules: list[HouseRule]) -> list[dict]:
    """Each rule and the rule that scores its goulash hands, as data."""
    out = []
    for rule in rules:
        goulash = None
        if rule.goulash_rule:
            try:
                goulash = resolve_house_rule(rule.goulash_rule).to_dict()
            except (UnknownHouseRule, HouseRuleError):
                goulash = None  # scored under the rule itself with goulash set
        out.append({"rule": rule.to_dict(), "goulash": goulash})
    return out


def session_rules(rule_data: list[dict]) -> list[SessionRules]:
    return [SessionRules(HouseRule.from_dict(d["rule"]),
                         HouseRule.from_dict(d["goulash"]) if d["goulash"] else None)
            for d in rule_data]


@lru_cache(maxsize=8)
def comparison_rules(comparison_id) -> tuple[SessionRules, ...]:
    """A comparison's frozen rules, parsed once per process: its ``rule_data`` never changes
    (a pure function's cache). Keeping the same rule objects also keeps the scoring engine's
    prepared plan of each rule (``scoring.engine.score.plan_for``, by the rule) from one table
    to the next: parsing and preparing five rules again for every table cost a worker more
    than replaying the table."""
    data = Comparison.objects.values_list("rule_data", flat=True).get(pk=comparison_id)
    return tuple(session_rules(data))


def _limited(user) -> bool:
    """Signed-in people have a share; the server's operator (``manage.py``) has none."""
    return getattr(user, "pk", None) is not None


def check_share(club: Club, user) -> None:
    """Raise ``ShareUsedUp`` with a sentence if ``user`` or ``club`` already has its share of
    comparisons running or queued. Called inside the transaction that creates the comparison,
    holding the user's and the club's rows, so two requests at once cannot both take the
    last place."""
    if not _limited(user):
        return
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
    Club.objects.select_for_update().filter(pk=club.pk).exists()
    running = Comparison.objects.filter(status=Comparison.RUNNING)
    mine, limit = running.filter(created_by_id=user.pk).count(), settings.COMPARE_USER_LIMIT
    if mine >= limit:
        raise ShareUsedUp(
            f"You already have {mine} comparison{'s' if mine != 1 else ''} running or queued, "
            f"the most one person may have at once ({limit}): start this one when one of "
            "them has finished.")
    theirs, limit = running.filter(club=club).count(), settings.COMPARE_CLUB_LIMIT
    if theirs >= limit:
        raise ShareUsedUp(
            f"{club.name} already has {theirs} comparison{'s' if theirs != 1 else ''} running "
            f"or queued, the most one club may have at once ({limit}): start this one when one "
            "of them has finished.")


def start(scope: Scope, rules: list[HouseRule], user, background: bool | None = None,
          shared: bool = False) -> Comparison:
    """A new comparison of ``scope`` under ``rules``. ``background=None`` decides by size;
    ``False`` above the inline limit is refused for a signed-in user (``TooLargeToWait``), and
    so is a comparison beyond the user's or club's share (``ShareUsedUp``)."""
    hands = Hand.objects.filter(table_id__in=scope.tables).count()
    work = hands * len(rules)
    if background is False and work > inline_limit() and _limited(user):
        raise TooLargeToWait(
            f"This comparison is {work:,} hand-replays ({hands:,} hands under {len(rules)} "
            f"rules); above {inline_limit():,} a comparison runs only on the background "
            "workers, so leave background out (or send true) and follow its progress.")
    if background is None:
        background = work > inline_limit()
    with transaction.atomic():
        check_share(scope.club, user)
        comparison = Comparison.objects.create(
            club=scope.club, created_by=user if _limited(user) else None,
            title=scope.title, scope=scope.spec, rules=[r.slug for r in rules],
            rule_data=frozen_rules(rules), tables_total=len(scope.tables), hands_total=hands,
            shared=shared)
        ComparisonPart.objects.bulk_create(
            ComparisonPart(comparison=comparison, table_id=t, position=i)
            for i, t in enumerate(scope.tables))
    log.info("comparison %s started (club %s, %s): %d tables, %d hands, rules %s, %s",
             comparison.pk, scope.club.pk, scope.title, len(scope.tables), hands,
             ", ".join(comparison.rules), "in the background" if background else "inline")
    if background:
        if not scope.tables:
            finish(comparison.pk)
        top_up()
    else:
        run_all(comparison)
    comparison.refresh_from_db()
    return comparison


# -- the queue: tables not yet stored, claimed fairly, under a lease ---------------------------

def _claimable(now) -> Q:
    """A table not yet stored, of a running comparison, that no live worker holds."""
    return (Q(done_at__isnull=True, comparison__status=Comparison.RUNNING,
              attempts__lt=MAX_ATTEMPTS)
            & (Q(lease_until__isnull=True) | Q(lease_until__lt=now)))


def _order(now) -> list:
    """The comparisons with claimable tables, fairest first: the owner (then the club) with
    the fewest tables being replayed now, then the one served longest ago, then the oldest
    comparison. A flood from one person therefore takes turns with everyone else's work
    instead of queueing ahead of it."""
    waiting = list(ComparisonPart.objects.filter(_claimable(now))
                   .values("comparison_id", "comparison__created_by_id", "comparison__club_id",
                           "comparison__created").annotate(n=Count("id")))
    if not waiting:
        return []
    active = ComparisonPart.objects.filter(comparison__status=Comparison.RUNNING)
    busy_user, busy_club, last_user, last_club = {}, {}, {}, {}
    for row in (active.filter(done_at__isnull=True, lease_until__gte=now)
                .values("comparison__created_by_id", "comparison__club_id")
                .annotate(n=Count("id"))):
        user, club = row["comparison__created_by_id"], row["comparison__club_id"]
        busy_user[user] = busy_user.get(user, 0) + row["n"]
        busy_club[club] = busy_club.get(club, 0) + row["n"]
    for row in (Comparison.objects.filter(served_at__gte=now - SERVED_MEMORY)
                .values("created_by_id", "club_id").annotate(last=Max("served_at"))):
        user, club, last = row["created_by_id"], row["club_id"], row["last"]
        last_user[user] = max(last_user.get(user, last), last)
        last_club[club] = max(last_club.get(club, last), last)
    never = dt.datetime.min.replace(tzinfo=dt.UTC)

    def key(row):
        user, club = row["comparison__created_by_id"], row["comparison__club_id"]
        return (busy_user.get(user, 0), busy_club.get(club, 0), last_user.get(user, never),
                last_club.get(club, never), row["comparison__created"])

    return [row["comparison_id"] for row in sorted(waiting, key=key)]


def claim(worker: str, only=None) -> tuple[str, list[int]] | None:
    """Take up to ``TABLES_PER_TASK`` claimable tables of the fairest comparison (or of
    ``only``) under a lease held by ``worker``: (comparison id, table ids), or None when there
    is nothing to do. On PostgreSQL the rows are locked and skipped by other workers; on
    SQLite the transaction holds the write lock from its start."""
    now = timezone.now()
    order = [only] if only is not None else _order(now)
    for comparison_id in order:
        with transaction.atomic():
            found = list(ComparisonPart.objects.filter(_claimable(now), comparison_id=comparison_id)
                         .order_by("position").select_for_update(skip_locked=True, of=("self",))
                         .values_list("pk", "table_id", "claimed_by", "lease_until")[
                             :TABLES_PER_TASK])
            if not found:
                continue
            ComparisonPart.objects.filter(pk__in=[row[0] for row in found]).update(
                claimed_by=worker, claimed_at=now, lease_until=now + lease(),
                attempts=models.F("attempts") + 1)
            Comparison.objects.filter(pk=comparison_id).update(served_at=now)
            # Tables taken over from a worker whose lease ran out: its task is dead.
            _bury({by for _, _, by, until in found if until is not None and by}, now)
        return str(comparison_id), [row[1] for row in found]
    return None


def work(worker: str) -> int:
    """One turn of a background worker: claim the fairest few tables, replay and store each
    (renewing the lease on the rest as each is stored), then the report if they were the last.
    How many tables it stored."""
    claimed = claim(worker)
    if claimed is None:
        return 0
    comparison_id, table_ids = claimed
    stored = _replay(comparison_id, table_ids, worker)
    finish(comparison_id)
    return stored


def _replay(comparison_id, table_ids: list[int], worker: str) -> int:
    try:
        rules = list(comparison_rules(str(comparison_id)))
        return sum(_store(comparison_id, table.table_id, compare_table(table, rules), worker)
                   for table in load_tables(table_ids))
    except BaseException:
        # Give the tables back at once (their attempts are counted), rather than after the
        # lease, so the next worker tries them now.
        ComparisonPart.objects.filter(comparison_id=comparison_id, claimed_by=worker,
                                      done_at__isnull=True).update(lease_until=None)
        raise


def top_up() -> int:
    """Queue as many worker tasks as the claimable tables need (one per ``TABLES_PER_TASK`` of
    a comparison), less those already queued, and make sure a sweep will follow. Safe to call
    any number of times: a second call queues nothing the first did (an extra task finds
    nothing to claim and ends). How many tasks it queued."""
    from django_tasks_db.models import DBTaskResult

    from compare.tasks import TASK_PATHS, compare_work_task

    now = timezone.now()
    wanted = sum(-(-row["n"] // TABLES_PER_TASK) for row in
                 ComparisonPart.objects.filter(_claimable(now)).values("comparison_id")
                 .annotate(n=Count("id")))
    queued = DBTaskResult.objects.ready().filter(task_path__in=TASK_PATHS).count()
    missing = max(0, wanted - queued)
    for _ in range(missing):
        compare_work_task.enqueue()
    if missing:
        log.info("%d worker task(s) queued for %d waiting tables", missing, wanted)
    ensure_sweep()
    return missing


def enqueue(comparison: Comparison) -> int:
    """Resume: the unfinished tables of every comparison get the workers they need; what is
    already queued or being replayed is not queued again. How many tasks were queued."""
    if not comparison.parts.filter(done_at__isnull=True).exists():
        finish(comparison.pk)
        return 0
    return top_up()


def ensure_sweep() -> bool:
    """A sweep queued to run ``COMPARE_SWEEP_SECONDS`` from now, unless one is queued already
    or nothing is unfinished. True if this call queued one."""
    from django_tasks_db.models import DBTaskResult

    from compare.tasks import SWEEP_PATH, sweep_task

    if not Comparison.objects.filter(status=Comparison.RUNNING).exists():
        return False
    if DBTaskResult.objects.filter(status="READY", task_path=SWEEP_PATH).exists():
        return False
    # At least a second apart: a sweep due at once would follow itself in a busy loop.
    sweep_task.using(run_after=timezone.now() + dt.timedelta(
        seconds=max(1, settings.COMPARE_SWEEP_SECONDS))).enqueue()
    return True


def sweep() -> dict:
    """What no person needs to do: tables whose worker's lease ran out (a worker killed
    mid-task) are given back and queued again, that worker's task is marked failed rather than
    running for ever, a table that failed ``MAX_ATTEMPTS`` times fails its comparison with a
    sentence, and the next sweep is queued while anything is unfinished."""

    now = timezone.now()
    expired = ComparisonPart.objects.filter(done_at__isnull=True, lease_until__lt=now)
    abandoned = _bury(set(expired.values_list("claimed_by", flat=True)), now)
    released = expired.update(lease_until=None)
    failed = 0
    for comparison_id, table_id in (ComparisonPart.objects.filter(
            done_at__isnull=True, attempts__gte=MAX_ATTEMPTS, lease_until__isnull=True,
            comparison__status=Comparison.RUNNING).values_list("comparison_id", "table_id")):
        failed += Comparison.objects.filter(pk=comparison_id, status=Comparison.RUNNING).update(
            status=Comparison.FAILED, updated=now,
            problem=f"Table {table_id} could not be replayed after {MAX_ATTEMPTS} tries; the "
                    "other tables' results are kept. Tell whoever runs the service.")
    queued = top_up()
    if released or failed:
        log.warning("sweep: %d table(s) of dead workers queued again, %d task(s) marked failed, "
                    "%d comparison(s) failed", released, abandoned, failed)
    return {"released": released, "abandoned_tasks": abandoned, "failed": failed,
            "queued": queued}


def _bury(workers: set[str], now) -> int:
    """Mark failed the queue's RUNNING tasks of workers whose lease ran out (killed, or cut
    off from the database): otherwise they read "running" for ever. How many."""
    from django_tasks_db.models import DBTaskResult

    ids = [w for w in workers if _is_uuid(w)]
    if not ids:
        return 0
    return DBTaskResult.objects.filter(pk__in=ids, status="RUNNING").update(
        status="FAILED", finished_at=now, exception_class_path="compare.runs.LeaseExpired",
        traceback="The worker stopped renewing its lease on its tables (it was killed or "
                  "lost the database); they were queued again.")


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def run_all(comparison: Comparison) -> None:
    """Every unfinished table in this process (a command, a small request), under the same
    lease as a worker's, so the sweep leaves them alone while this runs."""
    worker = f"inline-{uuid.uuid4().hex[:16]}"
    while (claimed := claim(worker, only=comparison.pk)) is not None:
        _replay(*claimed, worker)
    finish(comparison.pk)


def run_parts(comparison_id, table_ids: list[int]) -> int:
    """Replay these tables of a comparison (those not yet stored), loaded together, each stored
    in its own transaction as soon as it is replayed. How many this call stored."""
    pending = set(ComparisonPart.objects.filter(
        comparison_id=comparison_id, table_id__in=table_ids, result__isnull=True,
    ).values_list("table_id", flat=True))
    if not pending:
        return 0
    rules = list(comparison_rules(str(comparison_id)))
    tables = load_tables([t for t in table_ids if t in pending])
    return sum(_store(comparison_id, table.table_id, compare_table(table, rules))
               for table in tables)


def run_part(comparison_id, table_id: int) -> bool:
    """Replay one table under the comparison's rules and store its answer, unless it already
    is. True if this call stored it."""
    if not ComparisonPart.objects.filter(comparison_id=comparison_id, table_id=table_id,
                                         result__isnull=True).exists():
        return False  # no such part (or comparison), or already stored
    result = compare_table(load_table(table_id), list(comparison_rules(str(comparison_id))))
    return _store(comparison_id, table_id, result)


def _store(comparison_id, table_id: int, result: dict, worker: str | None = None) -> bool:
    """A table's answer, stored in one transaction unless another worker stored it first; the
    worker's lease on its other tables is renewed with it (the heartbeat)."""
    now = timezone.now()
    with transaction.atomic():
        stored = ComparisonPart.objects.filter(
            comparison_id=comparison_id, table_id=table_id, result__isnull=True,
        ).update(result=result, done_at=now, lease_until=None)
        if worker:
            ComparisonPart.objects.filter(
                comparison_id=comparison_id, claimed_by=worker, done_at__isnull=True,
            ).update(lease_until=now + lease())
        if stored:
            Comparison.objects.filter(pk=comparison_id).update(updated=now)
    return bool(stored)


def finish(comparison_id) -> bool:
    """Write the report if every table is in and nobody has yet: in one transaction holding the
    comparison's row, so two workers storing the last two tables write it once."""
    with transaction.atomic():
        comparison = Comparison.objects.select_for_update().filter(pk=comparison_id).first()
        if comparison is None or comparison.report is not None:
            return False
        parts = comparison.parts.order_by("position")
        if parts.filter(result__isnull=True).exists():
            return False
        results = parts.values_list("result", flat=True).iterator(chunk_size=50)
        comparison.report = merge_parts(results, comparison.rules)
        comparison.status = Comparison.DONE
        comparison.finished = timezone.now()
        comparison.save(update_fields=["report", "status", "finished", "updated"])
        comparison.parts.all().delete()  # everything they held is in the report now
    log.info("comparison %s written: %d tables, %d hands", comparison_id,
             comparison.tables_total, comparison.hands_total)
    return True


def progress(comparison: Comparison) -> tuple[int, int]:
    """(tables stored, tables in all)."""
    if comparison.report is not None:
        return comparison.tables_total, comparison.tables_total
    done = comparison.parts.filter(result__isnull=False).count()
    return done, comparison.tables_total


def is_stale(comparison: Comparison) -> bool:
    return comparison.report is None and timezone.now() - comparison.updated > STALE_AFTER
