"""Issue #13: ``manage.py export_club`` / ``import_club`` move a club between databases.

The round trip runs the real commands in separate processes: the demo club and a generated
season are made on SQLite, exported, imported into PostgreSQL (every result recomputed there),
exported again, imported into a fresh SQLite database and exported a third time. All three
documents must be identical: every hand, entry, result, running total and pot, every member,
season, house-rule version and audit entry, each season's league rules and published
standings, and the club's comparisons with their reports; and the standings each database
ranks are the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from clubs.demo import load_demo_club
from safekeeping.club_export import FORMAT
from tests.conftest import REPO
from tests.hardening.season_maker import SLUG, make_season

PG = "postgres://postgres@127.0.0.1:5432/"
PG_NAME = f"mahjong_roundtrip_{os.getpid()}"  # its own per run: runs may overlap
MAKE = ("from clubs.demo import load_demo_club; from tests.hardening.season_maker import "
        "make_season, add_league_and_comparison; load_demo_club(); make_season(); "
        "add_league_and_comparison()")
STANDINGS = ("import json; from tests.hardening.season_maker import standings_by_name; "
             "print(json.dumps(standings_by_name()))")


def _manage(url: str, *args: str, stdin: str | None = None) -> str:
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1", "API_THROTTLE": "0"}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _last_line(text: str) -> str:
    return text.strip().splitlines()[-1]  # the shell's own notices come first


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG + "postgres", autocommit=True, connect_timeout=3) as db:
        db.execute(sql)


@pytest.fixture
def postgres_database():
    try:
        _admin(f"DROP DATABASE IF EXISTS {PG_NAME}")
        _admin(f"CREATE DATABASE {PG_NAME}")
    except Exception as error:  # no server here: the SQLite half alone proves little
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is needed for the round trip ({error})")
    yield PG + PG_NAME
    _admin(f"DROP DATABASE IF EXISTS {PG_NAME} WITH (FORCE)")


def _comparable(text: str) -> dict:
    doc = json.loads(text)
    for rule in doc["house_rules"]:
        if rule["builtin"]:  # each database froze its built-in rules when it was made
            for version in rule["versions"]:
                version.pop("created")
    return doc


def test_demo_club_and_a_generated_season_round_trip_sqlite_postgresql_sqlite(
        tmp_path, postgres_database):
    first, last = f"sqlite:///{tmp_path / 'laptop.sqlite3'}", f"sqlite:///{tmp_path / 'back.sqlite3'}"
    pg = postgres_database
    for url in (first, pg, last):
        _manage(url, "migrate", "-v", "0")
    _manage(first, "shell", "-c", MAKE)
    documents, ranked = {}, [json.loads(_last_line(_manage(first, "shell", "-c", STANDINGS)))]
    for slug in ("demo", SLUG):
        on_laptop = _manage(first, "export_club", slug)
        imported = _manage(pg, "import_club", "-", stdin=on_laptop)
        assert "Every recomputed result matches the export." in imported
        on_server = _manage(pg, "export_club", slug)
        assert "Every recomputed result matches" in _manage(last, "import_club", "-",
                                                             stdin=on_server)
        back = _manage(last, "export_club", slug)
        documents[slug] = [_comparable(t) for t in (on_laptop, on_server, back)]
        if slug == SLUG:
            ranked += [json.loads(_last_line(_manage(url, "shell", "-c", STANDINGS)))
                       for url in (pg, last)]
    for slug, (laptop, server, back) in documents.items():
        assert laptop == server == back, slug
    generated = documents[SLUG][0]
    hands = [h for s in generated["sessions"] for t in s["tables"] for h in t["hands"]]
    assert len(hands) >= 50 and any(h["voided"] for h in hands)
    assert all(len(h["results"]) == 4 for h in hands if not h["voided"])
    assert len(generated["audit"]) > 0 and any(r["own"] for r in generated["house_rules"])
    # The league moves with the club: its rules (not re-ranked by net points), its published
    # standings and its comparisons' reports, the same in all three databases.
    assert ranked[0] == ranked[1] == ranked[2]
    assert ranked[0][0]["rules"]["measure"] == "table_points"
    league = generated["seasons"][0]["league"]
    assert league["rules"]["points"] == "4-2-1-0.5" and league["rules"]["best_n"] == 2
    assert [s["note"] for s in league["snapshots"]] == ["After two nights", "After three"]
    assert all(r["member_id"].startswith("m") for s in league["snapshots"]
               for r in s["data"]["rows"] if r["member_id"] is not None)
    comparisons = generated["comparisons"]
    assert len(comparisons) == 2 and all(c["report"]["players"] for c in comparisons)
    assert comparisons[0]["scope"] == {"season": "y1"}
    assert comparisons[1]["scope"]["table"].startswith("n3.")
    assert all(c["report"]["changes"][0]["hand"].startswith("n") for c in comparisons)


@pytest.mark.django_db
def test_import_refuses_a_club_that_exists(tmp_path):
    load_demo_club()
    target = tmp_path / "demo.json"
    call_command("export_club", "demo", "--output", str(target))
    with pytest.raises(CommandError, match="exists here already"):
        call_command("import_club", str(target))


@pytest.mark.django_db
@pytest.mark.parametrize("content", ["not json", json.dumps({"format": "other"}),
                                     json.dumps({"format": FORMAT, "version": 99}),
                                     json.dumps({"format": FORMAT, "version": 1})])
def test_import_refuses_what_is_not_an_export(tmp_path, content):
    source = tmp_path / "x.json"
    source.write_text(content)
    with pytest.raises(CommandError):
        call_command("import_club", str(source))


@pytest.mark.django_db
def test_export_names_the_clubs_there_are_for_an_unknown_slug():
    make_season()
    with pytest.raises(CommandError, match=SLUG):
        call_command("export_club", "nope")
