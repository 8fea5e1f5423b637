"""Behind PgBouncer in transaction mode a server-side cursor breaks: the cursor lives in one
server connection, and the next fetch may be lent another. The two reads that use one
(``.iterator()`` in ``league.summary.refresh_all`` and ``compare.runs.finish``) are run here on
PostgreSQL with ``DISABLE_SERVER_SIDE_CURSORS`` set, as the README tells a pooled deployment
to: they give the same answers and open no named cursor."""

from __future__ import annotations

import pytest
from django.db import connection

from compare import runs
from compare.rule_choice import chosen_rules
from compare.scope import resolve_scope
from league.models import NightResult
from league.summary import refresh_all

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql",
                                reason="server-side cursors are PostgreSQL's")


@pytest.fixture
def named_cursors(monkeypatch):
    """The names of the server-side cursors opened while the test runs."""
    opened = []
    real = connection.create_cursor

    def create_cursor(name=None):
        if name:
            opened.append(name)
        return real(name)

    monkeypatch.setattr(connection, "create_cursor", create_cursor)
    return opened


@pytest.mark.parametrize("disabled", [False, True], ids=["cursors", "pooled"])
@pytest.mark.django_db(transaction=True)  # autocommit, as a request or a worker reads
def test_the_iterator_reads_work_with_server_side_cursors_disabled(
        demo, demo_scorer, monkeypatch, named_cursors, disabled):
    monkeypatch.setitem(connection.settings_dict, "DISABLE_SERVER_SIDE_CURSORS", disabled)
    before = sorted(NightResult.objects.values_list("seat_id", "net", "place"))
    assert refresh_all() == 1  # the demo night's one table
    assert sorted(NightResult.objects.values_list("seat_id", "net", "place")) == before

    scope = resolve_scope({"session": demo["session"].pk}, demo_scorer)
    comparison = runs.start(scope, chosen_rules(["bmja", "guide"], demo_scorer), demo_scorer,
                            background=False)
    assert comparison.report["counts"]["tables"] == 1
    # Without the setting Django reads both through named cursors; with it, through none.
    assert bool(named_cursors) is not disabled, named_cursors
