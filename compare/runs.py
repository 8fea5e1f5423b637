"""Running a comparison: started in one transaction (the comparison and one part per table),
its tables replayed inline or by background workers (``compare.tasks``), each table's answer
written in its own transaction, and the report written once, whole, by whoever stores the last
table. Replaying a table writes nothing else: no hand, result or total changes. Once the report
is written the parts are deleted with it (about 10 KiB a table: kept, they were most of what
comparisons stored, for nothing the report does not hold)."""

from __future__ import annotations

import datetime as dt
import logging
from functools import lru_cache

from django.db import transaction
from django.utils import timezone

from clubs.models import Hand
from compare.models import Comparison, ComparisonPart
from compare.replay_compare import compare_table, merge_parts
from compare.scope import Scope, load_table, load_tables
from play import SessionRules
from scoring.engine import HouseRule, HouseRuleError, UnknownHouseRule
from scoring.resolve import resolve_house_rule

# A comparison started, queued again, and written: an operator sees the background work come
# and go (the workers' own log says which task ran).
log = logging.getLogger(__name__)

# Above this many hand-replays (hands x rules) a comparison goes to the background workers:
# about two seconds of one core (a replay runs near 2,500 hands a second per rule and core).
INLINE_LIMIT = 5000
# A running comparison with no table stored for this long is offered a restart of its
# unfinished tables (a worker was killed, or none is running).
STALE_AFTER = dt.timedelta(minutes=2)
# Tables a background task replays one after another (each stored as soon as it is done): a
# task costs a worker a few commits and a reconnection to SQLite, several times one table's
# replay, and a season of 800 tables in tasks of 8 still spreads over any number of workers.
TABLES_PER_TASK = 8


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
    prepared plan of each rule (``scoring.engine.score.plan_for``, by identity) from one table
    to the next: parsing and preparing five rules again for every table cost a worker more
    than replaying the table."""
    data = Comparison.objects.values_list("rule_data", flat=True).get(pk=comparison_id)
    return tuple(session_rules(data))


def start(scope: Scope, rules: list[HouseRule], user, background: bool | None = None) -> Comparison:
    """A new comparison of ``scope`` under ``rules``. ``background=None`` decides by size."""
    hands = Hand.objects.filter(table_id__in=scope.tables).count()
    with transaction.atomic():
        comparison = Comparison.objects.create(
            club=scope.club, created_by=user if user and user.is_authenticated else None,
            title=scope.title, scope=scope.spec, rules=[r.slug for r in rules],
            rule_data=frozen_rules(rules), tables_total=len(scope.tables), hands_total=hands)
        ComparisonPart.objects.bulk_create(
            ComparisonPart(comparison=comparison, table_id=t, position=i)
            for i, t in enumerate(scope.tables))
    if background is None:
        background = hands * len(rules) > INLINE_LIMIT
    log.info("comparison %s started (club %s, %s): %d tables, %d hands, rules %s, %s",
             comparison.pk, scope.club.pk, scope.title, len(scope.tables), hands,
             ", ".join(comparison.rules), "in the background" if background else "inline")
    if background:
        enqueue(comparison)
    else:
        run_all(comparison)
    comparison.refresh_from_db()
    return comparison


def enqueue(comparison: Comparison) -> int:
    """A background task for every table not yet stored; safe to repeat (a table stored twice
    is stored once). Returns how many were queued."""
    from compare.tasks import compare_table_task

    pending = list(comparison.parts.filter(result__isnull=True).order_by("position")
                   .values_list("table_id", flat=True))
    for start_at in range(0, len(pending), TABLES_PER_TASK):
        compare_table_task.enqueue(str(comparison.pk), pending[start_at:start_at + TABLES_PER_TASK])
    if pending:
        log.info("comparison %s: %d tables queued", comparison.pk, len(pending))
    if not pending:
        finish(comparison.pk)
    return len(pending)


def run_all(comparison: Comparison) -> None:
    """Every unfinished table in this process, one at a time (a command, a small request)."""
    for table_id in comparison.parts.filter(result__isnull=True).values_list("table_id", flat=True):
        run_part(comparison.pk, table_id)
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


def _store(comparison_id, table_id: int, result: dict) -> bool:
    """A table's answer, stored in one transaction unless another worker stored it first."""
    with transaction.atomic():
        stored = ComparisonPart.objects.filter(
            comparison_id=comparison_id, table_id=table_id, result__isnull=True,
        ).update(result=result, done_at=timezone.now())
        if stored:
            Comparison.objects.filter(pk=comparison_id).update(updated=timezone.now())
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
