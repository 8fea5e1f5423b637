"""Issue #13: ``manage.py backup`` copies the SQLite database while it is in use, ``restore``
puts a copy back (refusing a database with data unless --force), and on PostgreSQL both say
to use pg_dump and exit non-zero."""

from __future__ import annotations

import sqlite3

import pytest
from django.core.management import CommandError, call_command
from django.db import connections

from clubs.demo import load_demo_club
from clubs.models import Club, Hand

sqlite_only = pytest.mark.skipif(connections["default"].vendor != "sqlite",
                                 reason="backup and restore copy SQLite databases")


def _hands_in(path) -> int:
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT count(*) FROM clubs_hand").fetchone()
    return count


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_backup_then_restore_brings_every_hand_back(tmp_path, capsys):
    load_demo_club()
    hands = Hand.objects.count()
    target = tmp_path / "club.sqlite3"
    call_command("backup", str(target))
    assert "Backed up" in capsys.readouterr().out
    assert _hands_in(target) == hands > 0

    Hand.objects.all().delete()
    with pytest.raises(CommandError, match="--force"):
        call_command("restore", str(target))
    assert Hand.objects.count() == 0
    call_command("restore", str(target), "--force")
    assert Hand.objects.count() == hands
    assert Club.objects.filter(slug="demo").exists() or Club.objects.exists()


@sqlite_only
@pytest.mark.django_db
def test_backup_refuses_to_overwrite_a_file_without_force(tmp_path):
    target = tmp_path / "club.sqlite3"
    target.write_text("precious")
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(target))
    assert target.read_text() == "precious"


@sqlite_only
@pytest.mark.django_db
@pytest.mark.parametrize("content", [b"not a database at all", None])
def test_restore_refuses_what_is_not_a_backup(tmp_path, content):
    source = tmp_path / "other.sqlite3"
    if content is None:
        with sqlite3.connect(source) as db:
            db.execute("CREATE TABLE notes (text)")
        db.close()
    else:
        source.write_bytes(content)
    with pytest.raises(CommandError, match="not"):
        call_command("restore", str(source), "--force")


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["backup", "restore"])
def test_on_postgresql_the_commands_say_to_use_pg_dump(tmp_path, monkeypatch, command):
    monkeypatch.setattr(connections["default"], "vendor", "postgresql")
    with pytest.raises(CommandError, match="pg_dump"):
        call_command(command, str(tmp_path / "club.sqlite3"))
