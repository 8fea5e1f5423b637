"""Kajongg databases built by the tests with Kajongg's own schema (restated from its
``query.py``: the tables and columns it creates), filled with games whose hands are Kajongg's
own test hands (``../shared/reference/kajongg-bmja-cases.json``)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from tests.conftest import REPO

CASES = json.loads((REPO.parent / "shared" / "reference" / "kajongg-bmja-cases.json").read_text())

SCHEMA = {
    "player": "id INTEGER PRIMARY KEY, name TEXT unique",
    "game": ("id integer primary key, seed text, autoplay integer default 0, starttime text "
             "default current_timestamp, endtime text, ruleset integer references ruleset(id), "
             "p0 integer, p1 integer, p2 integer, p3 integer"),
    "score": ("game integer, hand integer, data text, manualrules text, rotated integer, "
              "notrotated integer, player integer, scoretime text, won integer, penalty integer "
              "default 0, prevailing text, wind text, points integer, payments integer, "
              "balance integer"),
    "ruleset": "id integer primary key, name text, hash text, description text",
    "rule": ("ruleset integer, list integer, position integer, name text, definition text, "
             "points text, doubles text, limits text, parameter text, "
             "primary key(ruleset,list,position), unique (ruleset,name)"),
    "general": "ident text",
}

WINNERS = [c for c in CASES if c["contract_hand"]["mahjong"]
           and c["contract_hand"]["seat_wind"] == "E" and c["contract_hand"]["prevailing_wind"] == "E"]
LOSERS = [c for c in CASES if not c["contract_hand"]["mahjong"]]


def build(path: Path, games: list[dict]) -> Path:
    """``games``: dicts with ``date``, ``players`` (names), ``hands`` (each a list per player of
    (data, won, points, payments)), ``seed`` (0 for a manual game), ``ruleset``."""
    db = sqlite3.connect(path)
    for table, columns in SCHEMA.items():
        db.execute(f"create table {table}({columns})")
    db.execute("create index idxgame on score(game)")
    names = sorted({n for g in games for n in g["players"]})
    db.executemany("insert into player(id, name) values (?, ?)", list(enumerate(names, 1)))
    ids = {n: i for i, n in enumerate(names, 1)}
    db.execute("insert into ruleset(id, name, hash) values (1, 'Classical Chinese BMJA', 'x')")
    for gid, game in enumerate(games, 1):
        seats = [ids[n] for n in game["players"]] + [None] * (4 - len(game["players"]))
        db.execute("insert into game(id, seed, autoplay, starttime, ruleset, p0, p1, p2, p3) "
                   "values (?, ?, 0, ?, 1, ?, ?, ?, ?)",
                   (gid, game.get("seed", "0"), f"{game['date']}T19:30:00", *seats))
        balance = dict.fromkeys(game["players"], 0)
        for number, rows in enumerate(game["hands"], 1):
            for (name, wind), (data, won, points, payments) in zip(
                    zip(game["players"], "ESWN", strict=False), rows, strict=True):
                balance[name] += payments
                db.execute(
                    "insert into score(game, hand, data, player, won, prevailing, wind, points, "
                    "payments, balance, rotated, notrotated) values (?,?,?,?,?,?,?,?,?,?,0,0)",
                    (gid, number, data, ids[name], int(won), "E", wind, points, payments,
                     game.get("balances", {}).get((number, name), balance[name])))
    db.commit()
    db.close()
    return path


def points_here(data: str, wind: str, won: bool) -> int:
    """What this project scores a Kajongg string at under BMJA (0 when it cannot)."""
    from history.kajongg.notation import Untranslatable, translate
    from scoring.engine import HandError, get_house_rule, parse_hand, score_hand

    try:
        hand = translate(data, wind, "E", won)
        return score_hand(parse_hand(hand), get_house_rule("bmja")).score
    except (Untranslatable, HandError, ValueError):
        return 0


def random_game(rng: random.Random, date: str, players: list[str], hands: int) -> dict:
    """A BMJA-style game: East (the first player) wins each hand with one of Kajongg's winning
    test hands; the others hold losing test hands; everyone pays the winner and the losers
    settle their differences (East doubled), so each hand sums to zero."""
    rows = []
    for _ in range(hands):
        win = rng.choice(WINNERS)
        data = [(win["kajongg_hand"], True)]
        for _wind in "SWN"[:len(players) - 1]:
            data.append((rng.choice(LOSERS)["kajongg_hand"], False))
        scores = [points_here(d, w, won) for (d, won), w in zip(data, "ESWN", strict=False)]
        if not scores[0]:
            scores[0] = 20
        nets = [0] * len(players)
        for i in range(1, len(players)):
            nets[0] += 2 * scores[0]
            nets[i] -= 2 * scores[0]
        for i in range(1, len(players)):
            for j in range(i + 1, len(players)):
                diff = scores[i] - scores[j]
                nets[i] += diff
                nets[j] -= diff
        rows.append([(d, won, s, n) for (d, won), s, n in zip(data, scores, nets, strict=True)])
    return {"date": date, "players": players, "hands": rows}
