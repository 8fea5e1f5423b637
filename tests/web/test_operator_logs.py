"""What an operator follows in the service's log (issue #27): each hand recorded, each
correction, void and seat swap, an entry sent twice, comparisons started and written, backups.
One record each, said once the change is committed."""

from __future__ import annotations

import logging
import uuid

import pytest
from django.db import connections

from clubs.recording import correct_hand, record_hand, void_hand

pytestmark = pytest.mark.django_db

ENTRY = {"winner": "S", "win_from": "wall",
         "seats": {"E": {"score": 4}, "S": {"score": 120}, "W": {"score": 8}, "N": {"score": 0}}}


def messages(caplog, logger: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == logger]


def test_a_hand_recorded_is_logged_after_its_commit(table, users, caplog,
                                                    django_capture_on_commit_callbacks):
    caplog.set_level(logging.INFO, logger="clubs")
    with django_capture_on_commit_callbacks(execute=False) as pending:
        record_hand(table, ENTRY, users["scorer"])
    # Nothing is said before the commit: a rolled-back hand is never logged as recorded.
    assert messages(caplog, "clubs.recording.append") == []
    for callback in pending:
        callback()
    club = table.session.club_id
    assert messages(caplog, "clubs.recording.append") == [
        f"club {club}: hand 1 recorded at table {table.pk} (night 2026-11-20) by user "
        f"{users['scorer'].pk}"]


def test_corrections_voids_and_resends_are_logged(table, users, caplog,
                                                  django_capture_on_commit_callbacks):
    caplog.set_level(logging.INFO, logger="clubs")
    client_id = uuid.uuid4()
    with django_capture_on_commit_callbacks(execute=True):
        hand = record_hand(table, ENTRY, users["scorer"], client_id=client_id)
        record_hand(table, ENTRY, users["scorer"], client_id=client_id)  # the phone resends
        correct_hand(hand, {"seats": {"W": {"score": 16}}}, users["scorer"], note="typo")
        void_hand(hand, users["admin"], "recorded twice")
    said = messages(caplog, "clubs.recording.corrections")
    assert said == [f"club {table.session.club_id}: update hand {hand.pk} by user "
                    f"{users['scorer'].pk} ('typo')",
                    f"club {table.session.club_id}: void hand {hand.pk} by user "
                    f"{users['admin'].pk} ('recorded twice')"]
    assert f"entry {client_id} sent again; answered with hand 1 saved before" in " ".join(
        messages(caplog, "clubs.recording.append"))


def test_a_comparison_is_logged_when_started_and_written(table, users, caplog):
    from compare import runs
    from compare.rule_choice import chosen_rules
    from compare.scope import resolve_scope

    record_hand(table, ENTRY, users["scorer"])
    caplog.set_level(logging.INFO, logger="compare")
    scope = resolve_scope({"session": table.session_id}, users["admin"])
    comparison = runs.start(scope, chosen_rules(["bmja", "guide"], users["admin"]),
                            users["admin"], background=False)
    said = messages(caplog, "compare.runs")
    assert said[0].startswith(f"comparison {comparison.pk} started (club ")
    assert "1 tables, 1 hands, rules bmja, guide, inline" in said[0]
    assert said[-1] == f"comparison {comparison.pk} written: 1 tables, 1 hands"


@pytest.mark.skipif(connections["default"].vendor != "sqlite", reason="SQLite's own backup")
@pytest.mark.django_db(transaction=True)
def test_a_backup_is_logged(tmp_path, caplog):
    from safekeeping.database_backup import backup

    caplog.set_level(logging.INFO, logger="safekeeping")
    size = backup(tmp_path / "club.sqlite3")
    assert messages(caplog, "safekeeping.database_backup") == [
        f"database backed up to {tmp_path / 'club.sqlite3'} ({size} bytes)"]
