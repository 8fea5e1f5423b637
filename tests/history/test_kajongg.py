"""Importing a Kajongg database: the notation read into the contract's terms (held to
Kajongg's own 195 test hands), and generated databases with Kajongg's schema coming in with
their totals equal to Kajongg's balances, then undone."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from django.core.management import CommandError, call_command

from clubs.models import ClubSession, Member
from history.kajongg.database import KajonggError, read_games
from history.kajongg.notation import Untranslatable, translate
from history.models import ImportBatch, ImportedHand
from league.models import NightResult
from tests.history.kajongg_db import CASES, build, random_game

# Where the string alone cannot say what the reference's translation says: no last tile named
# for a Mah Jong that has no pair exposed (K175 was won on a discard).
NOT_IN_THE_STRING = {"K175"}


def _same(hand: dict) -> str:
    hand = {k: v for k, v in hand.items() if k not in ("rules", "fishing")}
    hand["concealed"] = sorted(hand["concealed"])
    hand["bonus"] = sorted(hand["bonus"])
    hand["melds"] = sorted(json.dumps(m, sort_keys=True) for m in hand["melds"])
    return json.dumps(hand, sort_keys=True)


def test_the_notation_reads_kajonggs_own_test_hands():
    """Every one of the 195 translated hands, but for the fishing flag (Kajongg's scoring
    decides it; the importer tries both) and the one case the string cannot decide."""
    differ = []
    for case in CASES:
        want = case["contract_hand"]
        got = translate(case["kajongg_hand"], want["seat_wind"], want["prevailing_wind"],
                        want["mahjong"])
        if _same(got) != _same(want):
            differ.append(case["id"])
    assert differ == sorted(NOT_IN_THE_STRING)
    with pytest.raises(Untranslatable, match="not a Kajongg tile"):
        translate("x9x9x9", "E", "E")


@pytest.fixture
def people(club):
    return {n: Member.objects.create(club=club, display_name=n) for n in ("Anna", "Bert", "Cleo")}


def two_games(tmp_path, **extra):
    rng = random.Random(26)
    games = [random_game(rng, "2019-03-06", ["Anna", "Bert", "Cleo", "Dirk"], 8),
             random_game(rng, "2019-03-13", ["Bert", "Anna", "Cleo"], 6),
             {**random_game(rng, "2019-03-20", ["Anna", "Bert", "Cleo", "Dirk"], 3),
              "seed": "48213"}]  # played against the computer: not imported
    for game in games:
        game.update(extra.get(game["date"], {}))
    return build(tmp_path / "kajongg3.db", games), games


def test_a_generated_database_comes_in_with_kajonggs_balances(club, people, tmp_path, capsys):
    path, games = two_games(tmp_path)
    assert [g.id for g in read_games(path)] == [1, 2]
    call_command("import_kajongg", str(path), "--club", club.slug, "--dry-run")
    out = capsys.readouterr().out
    assert "Dirk: CHOOSE: new member or guest" in out and "Dry run" in out
    assert "2 manually scored games, 14 hands" in out
    call_command("import_kajongg", str(path), "--club", club.slug, "--name", "Dirk=guest")
    out = capsys.readouterr().out
    batch = ImportBatch.objects.get(kind="kajongg", status="applied")
    for number, game in enumerate(games[:2], 1):
        balances = {}
        for rows in game["hands"]:
            for name, (_d, _w, _p, payments) in zip(game["players"], rows, strict=True):
                balances[name] = balances.get(name, 0) + payments
        session = ClubSession.objects.get(club=club, date=game["date"])
        stored = {(n.member.display_name if n.member else n.guest_name): n.net
                  for n in NightResult.objects.filter(session=session)}
        assert stored == balances, number
        assert all(n.hands == len(game["hands"]) for n in NightResult.objects.filter(session=session))
    hands = ImportedHand.objects.filter(table__session__club=club)
    assert hands.count() == 8 * 4 + 6 * 3
    tiles = hands.filter(scored_alike=True).count()
    discards = hands.filter(from_discard=True).count()
    assert tiles > 0 and f"{tiles} players' hands are kept as tiles" in out
    assert f"{discards} hands were won on a discard" in out
    assert all(h.contract["win"]["from"] in ("discard", "robbed_kong")
               for h in hands.filter(from_discard=True))
    call_command("import_results", "--undo", str(batch.pk))
    assert not ClubSession.objects.filter(club=club).exists()
    assert not ImportedHand.objects.exists()


def test_a_game_that_does_not_add_up_is_refused(club, people, tmp_path, capsys):
    path, games = two_games(tmp_path, **{"2019-03-13": {"balances": {(2, "Cleo"): 999}}})
    db = sqlite3.connect(path)
    db.execute("update score set payments = payments + 5 where game = 1 and hand = 3 and player = 1")
    db.commit()
    db.close()
    call_command("import_kajongg", str(path), "--club", club.slug, "--unmatched", "guest",
                 "--dry-run")
    out = capsys.readouterr().out
    assert "game 1: REFUSED: hand 3 of game 1 pays +5 in all, not 0" in out
    assert "game 2: REFUSED: Cleo's balance after hand 2 of game 2 is 999" in out
    with pytest.raises(CommandError, match="No night of the file|refused"):
        call_command("import_kajongg", str(path), "--club", club.slug, "--unmatched", "guest")


def test_not_a_kajongg_database(club, tmp_path):
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("create table x(y)").connection.close()
    with pytest.raises(KajonggError, match="no table 'player'"):
        read_games(other)
    text = tmp_path / "text.db"
    text.write_text("hello, this is not SQLite at all" * 40)
    with pytest.raises(CommandError, match="not an SQLite database"):
        call_command("import_kajongg", str(text), "--club", club.slug)


def test_the_import_page_takes_a_kajongg_database(client_as, club, people, tmp_path):
    import io

    path, games = two_games(tmp_path)
    client = client_as("admin")
    upload = io.BytesIO(path.read_bytes())
    upload.name = "kajongg3.db"
    answer = client.post(f"/clubs/{club.slug}/history/imports/", {"file": upload})
    batch = ImportBatch.objects.get(kind="kajongg")
    page = client.get(answer.url).content.decode()
    assert "2 manually scored games, 14 hands" in page and "Dirk" in page
    form = {"house_rule": "bmja", "name:Dirk": "new", "action": "import",
            **{f"name:{n}": f"member:{m.pk}" for n, m in people.items()}}
    answer = client.post(f"/clubs/{club.slug}/history/imports/{batch.pk}/", form, follow=True)
    assert "Imported 2 nights (2 Kajongg games)" in answer.content.decode()
    assert Member.objects.filter(club=club, display_name="Dirk").exists()
    assert ClubSession.objects.filter(club=club).count() == 2
