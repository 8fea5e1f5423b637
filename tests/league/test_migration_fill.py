"""Nights recorded before the league app existed get their per-night summary when it is
installed (league migration 0002), equal to what the signal keeps."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from league.models import NightResult
from tests.league.test_pages import played  # noqa: F401  two nights, a guest


def summary():
    return sorted(NightResult.objects.values_list(
        "seat_id", "session_id", "date", "hands", "net", "mahjongs", "given", "place", "tied",
        "points_zero", "points_half", "counted"))


@pytest.mark.django_db(transaction=True)
def test_installing_the_league_fills_the_summary_of_earlier_nights(played):  # noqa: F811
    before = summary()
    assert before
    executor = MigrationExecutor(connection)
    executor.migrate([("league", None)])  # as before the app: no league tables
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert summary() == before
