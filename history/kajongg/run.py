"""The steps of a Kajongg import shared by ``manage.py import_kajongg`` and the import page:
read the database, plan (the dry run), write, with the house rule each game is filed under:
its Kajongg ruleset's nearest built-in rule (``history.kajongg.rulesets``), in its variation
for the game's number of players, unless one house rule is chosen for them all.
The page's draft keeps the games read from the file in the batch (the database), not the file."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import tempfile
from pathlib import Path

from history.import_write import house_rule_version_for, members_of, seasons_of, taken_dates
from history.kajongg.database import Game, ScoreRow, read_games
from history.kajongg.plan import DISCARDER_PAYS_MORE, make_plan
from history.kajongg.rulesets import house_rule_for
from history.models import ImportBatch
from houserules.resolve import rule_of

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
        games = read_games(tmp.name, Path(filename).name[:80] or "The file")
    return ImportBatch.objects.create(
        club=club, kind=ImportBatch.Kind.KAJONGG, filename=filename[:200],
        digest=hashlib.sha256(data).hexdigest(), created_by=user if user and user.pk else None,
        rows=games_to_json(games), mapping={"house_rule": ""})


def _players_in(version) -> int:
    return int((version.data.get("scoring") or {}).get("players") or 4)


def _for_players(club, version, players: int):
    """The version's variation for that many players (001: the club's copy first, then the
    built-in one, e.g. "BMJA, 3 players"), else the version itself."""
    from django.db.models import Q

    from houserules.models import HouseRuleRecord

    if _players_in(version) == players:
        return version
    records = HouseRuleRecord.objects.filter(Q(club__isnull=True) | Q(club=club),
                                             based_on_id=version.record_id)
    for record in sorted(records, key=lambda r: (r.club_id is None, r.slug)):
        latest = record.latest_version()
        if latest is not None and _players_in(latest) == players:
            return latest
    return version


def game_rules(club, games: list[Game], house_rule: str | None = None):
    """({game id: (version id, HouseRule)}, {version id: version}, notes on why each ruleset is
    filed where it is). ``house_rule``: one house rule (slug) for every game instead."""
    from houserules.sync import ensure_builtin_house_rules

    if not house_rule:
        ensure_builtin_house_rules()
    chosen = house_rule_version_for(club, house_rule) if house_rule else None
    rules: dict[int, tuple] = {}
    versions: dict[int, object] = {}
    notes: dict[str, str] = {}
    for game in games:
        if chosen is not None:
            base = chosen
        else:
            slug, why = house_rule_for(game.ruleset)
            base = house_rule_version_for(club, slug)
            notes.setdefault(game.ruleset, why)
        version = _for_players(club, base, len(game.players))
        versions[version.pk] = version
        rules[game.id] = (version.pk, rule_of(version.pk, version.data))
    return rules, versions, list(notes.values())


def plan_games(club, games: list[Game], *, house_rule: str | None = None, choices=None,
               accept_suggestions=False, unmatched=""):
    """(plan, counts, notes, versions) for the games, each under its house rule."""
    rules, versions, why = game_rules(club, games, house_rule)
    plan, counts = make_plan(games, members_of(club), rules, choices=choices,
                             seasons=seasons_of(club), taken_dates=taken_dates(club),
                             accept_suggestions=accept_suggestions, unmatched=unmatched)

    def n(key: str, word: str) -> str:
        count = counts.get(key, 0)
        return f"{count} {word}{'' if count == 1 else 's'}"

    names = sorted({v.record.name for v in versions.values()}) or ["no house rule"]
    pays_more = sorted({v.record.name for v in versions.values()
                        if rule_of(v.pk, v.data).payment.scheme in DISCARDER_PAYS_MORE})
    notes = [
        f"{n('games', 'manually scored game')}, {n('hands', 'hand')} "
        f"({n('wall_games', 'wall game')}), filed under {', '.join(names)}.",
        *(f"Ruleset {w}." for w in why),
        f"{counts.get('seat_hands_tiles', 0)} players' hands come in as tiles (this project "
        f"scores them as Kajongg did); {counts.get('seat_hands_agreed', 0)} as agreed scores "
        "(Kajongg's points: not in the contract's notation, or scored differently here).",
        f"{n('discarder_unknown', 'hand')} "
        f"{'was' if counts.get('discarder_unknown', 0) == 1 else 'were'} won on a discard: "
        "Kajongg does not store who "
        "discarded, so they come in with the discarder unknown (every loser pays the winner, "
        "as Kajongg paid)"
        + (f"; under {', '.join(pays_more)}, where the discarder pays more, they are entered "
           "as agreed scores." if pays_more else "."),
        *([plan.no_season_words()] if plan.no_season_words() else []),
    ]
    return plan, counts, notes, versions


def plan_file(club, path: str | Path, *, house_rule: str | None = None, choices=None,
              accept_suggestions=False, unmatched=""):
    """(batch, plan, counts, versions) for a file on disk; ``KajonggError`` if unreadable."""
    path = Path(path)
    games = read_games(path)
    plan, counts, notes, versions = plan_games(
        club, games, house_rule=house_rule, choices=choices,
        accept_suggestions=accept_suggestions, unmatched=unmatched)
    batch = ImportBatch(club=club, kind=ImportBatch.Kind.KAJONGG, filename=path.name[:200],
                        digest=hashlib.sha256(path.read_bytes()).hexdigest(),
                        mapping={"house_rule": house_rule or ""}, choices=choices or {},
                        report={"counts": counts, "notes": notes})
    return batch, plan, counts, versions
