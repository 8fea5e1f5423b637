"""An import of past seasons, and its undo, each leave one record in the operator's log."""

from __future__ import annotations

import logging

from history import import_run
from history.import_write import apply_plan, undo
from tests.history.test_import_sheet import people  # noqa: F401  (a fixture)


def test_an_import_and_its_undo_are_logged(club, people, caplog):  # noqa: F811
    caplog.set_level(logging.INFO, logger="history")
    sheet = "Season,Date,Player,Net\nWinter 2022,3 Nov 2022,Alice,10\nWinter 2022,3 Nov 2022,Bob,-10\n"
    batch = import_run.start(club, sheet.encode(), "old.csv")
    apply_plan(batch, import_run.plan_of(batch))
    undo(batch)
    said = [r.getMessage() for r in caplog.records if r.name == "history.import_write"]
    assert said[0].startswith(f"club {club.pk}: import {batch.pk} (old.csv) written: ")
    assert said[0].endswith("; 0 rows refused")
    assert said[1] == (f"club {club.pk}: import {batch.pk} undone: "
                       "{'sessions': 1, 'members': 0, 'seasons': 1}")
