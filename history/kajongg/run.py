"""The steps of a Kajongg import shared by ``manage.py import_kajongg`` and the import page:
read the database, plan (the dry run), write, with the house rule the nights are filed under.
The page's draft keeps the games read from the file in the batch (the database), not the file."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import tempfile
from pathlib import Path

from history.import_write import house_rule_version_for, members_of, seasons_of, taken_dates
from history.kajongg.database import Game, ScoreRow, read_games
from history.kajongg.plan import make_plan
from history.models import ImportBatch
from houserules.resolve import rule_of

# Payment schemes under which the discarder pays more than the others: a hand won on a
# discard could not be settled again without knowing who discarded.
DISCARDER_PAYS_MORE = ("winner_table", "discarder_pays")
SQLITE_HEADER = b"SQLite format 3\x00"


def games_to_json(games: list[Game]) -> list[dict]:
    return [{**dataclasses.asdict(g), "date": g.date.isoformat() if g.date else None}
            for g in games]


def games_from_json(rows: list[dict]) -> list[Game]:
    return [Game(g["id"], dt.date.fromisoformat(g["date"]) if g["date"] else None, g["ruleset"],
                 g["players"], [ScoreRow(**r) for r in g["rows"]]) for g in rows]


def start(club, data: bytes, filename: str, user=None) -> ImportBatch:
    """A draft batch holding the games of an uploaded Kajongg database (``KajonggError``)."""
    with tempfile.NamedTemporaryFile(suffix=".db") as tmp:
        tmp.write(data)
        tmp.flush()
        games = read_games(tmp.name)
    return ImportBatch.objects.create(
        club=club, kind=ImportBatch.Kind.KAJONGG, filename=filename[:200],
        digest=hashlib.sha256(data).hexdigest(), created_by=user if user and user.pk else None,
        rows=games_to_json(games), mapping={"house_rule": ""})


def plan_games(club, games: list[Game], *, house_rule: str | None = None, choices=None,
               accept_suggestions=False, unmatched=""):
    """(plan, counts, notes, version) for the games under the house rule chosen."""
    version = house_rule_version_for(club, house_rule or None)
    rule = rule_of(version.pk, version.data)
    plan, counts = make_plan(games, members_of(club), rule, choices=choices,
                             seasons=seasons_of(club), taken_dates=taken_dates(club),
                             accept_suggestions=accept_suggestions, unmatched=unmatched)
    def n(key: str, word: str) -> str:
        count = counts.get(key, 0)
        return f"{count} {word}{'' if count == 1 else 's'}"

    notes = [
        f"{n('games', 'manually scored game')}, {n('hands', 'hand')} "
        f"({n('wall_games', 'wall game')}), filed under {version.record.name}.",
        f"{counts.get('seat_hands_tiles', 0)} players' hands are kept as tiles (this project "
        f"scores them as Kajongg did); {counts.get('seat_hands_agreed', 0)} keep Kajongg's "
        "points only (not in the contract's notation, or scored differently here).",
        f"{counts.get('discard_wins', 0)} hands were won on a discard: Kajongg does not store "
        "who discarded, so their discarder is unknown"
        + (f" ({version.record.name} makes the discarder pay more: the nets are Kajongg's as "
           "recorded)." if rule.payment.scheme in DISCARDER_PAYS_MORE else "."),
    ]
    return plan, counts, notes, version


def plan_file(club, path: str | Path, *, house_rule: str | None = None, choices=None,
              accept_suggestions=False, unmatched=""):
    """(batch, plan, counts, version) for a file on disk; ``KajonggError`` if unreadable."""
    path = Path(path)
    games = read_games(path)
    plan, counts, notes, version = plan_games(
        club, games, house_rule=house_rule, choices=choices,
        accept_suggestions=accept_suggestions, unmatched=unmatched)
    batch = ImportBatch(club=club, kind=ImportBatch.Kind.KAJONGG, filename=path.name[:200],
                        digest=hashlib.sha256(path.read_bytes()).hexdigest(),
                        mapping={"house_rule": version.record.slug}, choices=choices or {},
                        report={"counts": counts, "notes": notes})
    return batch, plan, counts, version
