"""A database made by the release before ``Hand.computed`` migrates with every session, hand,
entry, result and house-rule version intact, and its stored rows filled in by one replay
(clubs migration 0005)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clubs.models import ClubSession, Hand, HandEntry, HandResult, HouseRuleVersion
from tests.web.test_stored_results import night

BEFORE = ("clubs", "0004_drop_indexes_covered_by_composites")


def snapshot():
    return {
        "sessions": list(ClubSession.objects.values_list("id", "date", "house_rule_version_id")),
        "versions": list(HouseRuleVersion.objects.values_list("id", "number", "data")),
        "hands": list(Hand.objects.order_by("id").values_list(
            "id", "number", "winner_id", "discarder_id", "voided", "facts", "computed")),
        "entries": list(HandEntry.objects.order_by("id").values_list("id", "seat_id", "data")),
        "results": list(HandResult.objects.order_by("hand_id", "seat_id").values_list(
            "hand_id", "seat_id", "score", "net", "running_total", "won", "gave", "limit")),
    }


@pytest.mark.django_db(transaction=True)
def test_the_previous_release_migrates_with_everything_intact(table, users):
    night(table, users["scorer"], hands=8)
    Hand.objects.filter(table=table, number=4).update(voided=True)
    from clubs.recording import recompute_table

    recompute_table(table)
    before = snapshot()
    assert any(r[5] for r in before["results"]) and any(r[6] for r in before["results"])

    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])  # the previous release's schema: no computed rows, no won/gave
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert snapshot() == before
