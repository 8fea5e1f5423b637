"""Reports stored before issue #25 (tables named by database id; a rule that does not fit a
table giving its players 0, place 1 and arrows) are upgraded by compare migration 0002."""

from __future__ import annotations

import copy

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clubs.models import Table
from compare import runs
from compare.models import Comparison, ComparisonPart
from compare.replay_compare import merge_parts
from compare.rule_choice import chosen_rules
from compare.scope import resolve_scope


@pytest.mark.django_db(transaction=True)
def test_old_reports_name_table_numbers_and_give_unfit_rules_no_place(demo, demo_scorer):
    Table.objects.filter(pk=demo["table"].pk).update(number=4)
    scope = resolve_scope({"session": demo["session"].pk}, demo_scorer)
    rules = chosen_rules(["bmja", "bmja-3-players", "west-wind-goulash"], demo_scorer)
    # Queued, its one table stored and the report not yet written: the parts as an earlier
    # release kept them beside its report.
    comparison = runs.start(scope, rules, demo_scorer, background=True)
    assert runs.run_part(comparison.pk, demo["table"].pk)
    part = ComparisonPart.objects.get(comparison=comparison)
    upgraded = copy.deepcopy(merge_parts([part.result], comparison.rules))
    # As an earlier release stored them: no table numbers, 0 for the unfit rule.
    old = part.result
    del old["table_number"]
    for bad in old["invalid"]:
        del bad["table_number"]
    for player in old["players"].values():
        player["totals"][1] = 0
    part.result = old
    part.save()
    report = dict(upgraded, refused=[{k: v for k, v in r.items() if k != "table_number"}
                                     for r in upgraded["refused"]])
    report["players"] = [dict(p, totals=[p["totals"][0], 0, p["totals"][2]],
                              places=[p["places"][0], 1, p["places"][2]]) for p in
                         upgraded["players"]]
    Comparison.objects.filter(pk=comparison.pk).update(report=report)

    executor = MigrationExecutor(connection)
    executor.migrate([("compare", "0001_initial")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    comparison.refresh_from_db()
    assert comparison.report == upgraded
    assert not ComparisonPart.objects.filter(comparison=comparison).exists()  # 0003
    assert comparison.report["refused"][0]["table_number"] == 4
