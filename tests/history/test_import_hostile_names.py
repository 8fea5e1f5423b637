"""Names a file may hold that no form would let through: a right-to-left override, a name
longer than a member's or a guest's name may be. Found importing a sheet on a phone (QA of
issue #26): the override name could never be chosen (the page's form is URL-encoded, and the
direction controls are taken out of its body, key and all), so the sheet could not go in; an
81-character name reached the 80-character columns unchecked."""

from __future__ import annotations

import random
from urllib.parse import urlencode

from django.core.management import call_command

from clubs.models import ClubSession, Member
from history import import_run
from history.kajongg.database import read_games
from history.models import ImportBatch
from league.models import NightResult
from tests.history.kajongg_db import build, random_game
from tests.history.test_import_sheet import people  # noqa: F401  (a fixture)

RLO = "Mallory\u202e evil\u202c"
LONG = "X" * 81


def sheet(*names) -> bytes:
    rows = "Date,Table,Player,Net\n" + "".join(
        f"2024-03-06,1,{name},{net}\n" for name, net in zip(
            ("Alice", "Bob", "Carol", *names), (10, -5, -5, 0, 0), strict=False))
    return rows.encode()


def test_a_name_with_a_direction_override_is_chosen_on_the_page_and_kept_without_it(
        client_as, club, people):  # noqa: F811
    client = client_as("admin")
    batch = import_run.start(club, sheet(RLO), "rlo.csv")
    url = f"/clubs/{club.slug}/history/imports/{batch.pk}/"
    page = client.get(url).content.decode()
    assert "\u202e" not in page and "Mallory evil" in page
    form = {"map-date": "Date", "map-table": "Table", "map-player": "Player", "map-net": "Net",
            "map-day_first": "on", "name:Mallory evil": "guest", "action": "import"}
    # As the browser posts the form: URL-encoded, so the name in the field's key is the name
    # the dry run shows.
    answer = client.post(url, urlencode(form), content_type="application/x-www-form-urlencoded",
                         follow=True)
    assert "Imported 1 night" in answer.content.decode(), answer.content.decode()[:3000]
    assert set(NightResult.objects.filter(club=club).values_list("guest_name", flat=True)) == {
        "", "Mallory evil"}


def test_a_name_longer_than_a_member_may_have_is_refused_with_its_line(club, people, capsys):  # noqa: F811
    batch = import_run.start(club, sheet(LONG), "long.csv")
    plan = import_run.plan_of(batch)
    assert dict(plan.refusals)["line 5"] == (
        "the name 'XXXXXXXXXXXXXXXXXXXXXXXX'... is 81 characters long; a name may have at most 80")
    assert LONG not in plan.needs_choice and LONG not in [n.name for n in plan.names]
    batch.delete()
    path = club.slug + "-long.csv"
    from pathlib import Path

    Path(path).write_bytes(sheet(LONG))
    try:
        call_command("import_results", path, "--club", club.slug, "--dry-run")
    finally:
        Path(path).unlink()
    assert "81 characters long; a name may have at most 80" in capsys.readouterr().out
    assert not Member.objects.filter(display_name=LONG).exists()


def test_a_kajongg_database_with_such_names(club, people, tmp_path, capsys):  # noqa: F811
    rng = random.Random(26)
    path = build(tmp_path / "kajongg3.db", [
        random_game(rng, "2019-03-06", ["Alice", "Bob", "Carol", RLO], 3),
        random_game(rng, "2019-03-13", ["Alice", "Bob", LONG], 3)])
    assert [g.players for g in read_games(path)] == [["Alice", "Bob", "Carol", "Mallory evil"],
                                                     ["Alice", "Bob", LONG]]
    call_command("import_kajongg", str(path), "--club", club.slug, "--name", "Mallory evil=guest",
                 "--skip-refused")
    out = capsys.readouterr().out
    assert "REFUSED: the name 'XXXXXXXXXXXXXXXXXXXXXXXX'... in game 2 is 81 characters long" in out
    assert "game 2: game 2" not in out
    assert "1 hand was won on a discard" in out or " hands were won on a discard" in out
    assert "1 hand were" not in out
    assert ClubSession.objects.filter(club=club).count() == 1
    assert ImportBatch.objects.get(kind="kajongg").status == "applied"
    assert NightResult.objects.filter(guest_name="Mallory evil").count() == 1


def test_a_season_named_with_a_direction_override_is_made_without_it(club, people):  # noqa: F811
    sheet = ("Season,Date,Player,Net\n" + "".join(
        f"Winter\u202e 2022,3 Nov 2022,{name},{net}\n" for name, net in (("Alice", 5), ("Bob", -5))))
    batch = import_run.start(club, sheet.encode(), "season.csv")
    from history.import_write import apply_plan

    apply_plan(batch, import_run.plan_of(batch))
    from clubs.models import Season

    assert list(Season.objects.filter(club=club).values_list("name", flat=True)) == ["Winter 2022"]


def test_a_bad_upload_is_named_as_the_club_named_it_and_an_empty_date_is_said(client_as, club,
                                                                             people):  # noqa: F811
    # Found in QA (issue #26): "tmps1drbqpo.db is not an SQLite database" for an upload named
    # fake.db; "'' is not a date format this import reads" for a row with no date.
    import io

    client = client_as("admin")
    upload = io.BytesIO(b"SQLite format 3\x00" + b"garbage" * 20)
    upload.name = "fake.db"
    answer = client.post(f"/clubs/{club.slug}/history/imports/", {"file": upload})
    assert answer.status_code == 400
    assert "fake.db is not an SQLite database" in answer.content.decode()
    batch = import_run.start(club, b"Date,Player,Net\n,Alice,5\n,Bob,-5\n", "no-date.csv")
    assert dict(import_run.plan_of(batch).refusals)["line 2"] == "no date"
