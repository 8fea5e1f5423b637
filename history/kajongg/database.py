"""Reading a KDE Kajongg database (``kajongg3.db``, SQLite) read-only: its manually scored games
(``game.seed`` 0: games scored at a real table, not played against the computer), each with
its players, ruleset, start time and every player's row of every hand (``score``: the hand
string, wind, prevailing wind, won, points, payments, balance).

Kajongg's schema, as its ``query.py`` creates it (restated, not copied): ``player(id, name)``,
``game(id, seed, autoplay, starttime, endtime, ruleset, p0, p1, p2, p3)``, ``score(game,
hand, data, manualrules, rotated, notrotated, player, scoretime, won, penalty, prevailing,
wind, points, payments, balance)``, ``ruleset(id, name, hash, description)``."""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from history.names import clean

NEEDED = {"player": {"id", "name"},
          "game": {"id", "seed", "starttime", "ruleset", "p0", "p1", "p2", "p3"},
          "score": {"game", "hand", "data", "player", "won", "prevailing", "wind", "points",
                    "payments", "balance"},
          "ruleset": {"id", "name"}}


class KajonggError(ValueError):
    """The file is not a Kajongg database this import reads; the message says why."""


@dataclass(frozen=True)
class ScoreRow:
    hand: int
    player: str
    wind: str
    prevailing: str
    data: str
    won: bool
    points: int
    payments: int
    balance: int
    # A row Kajongg wrote for a penalty given during the hand (its ``penalty`` column).
    penalty: bool = False


@dataclass
class Game:
    id: int
    date: dt.date | None
    ruleset: str
    players: list[str]
    rows: list[ScoreRow] = field(default_factory=list)


def _wind(value) -> str:
    text = str(value or "").strip().upper()[:1]
    return text if text in ("E", "S", "W", "N") else ""


def _date(value) -> dt.date | None:
    try:
        return dt.datetime.fromisoformat(str(value).strip().replace("T", " ")[:19]).date()
    except ValueError:
        try:
            return dt.date.fromisoformat(str(value).strip()[:10])
        except ValueError:
            return None


def read_games(path: str | Path, name: str = "") -> list[Game]:
    """``name``: the file's name as the club knows it (an upload is read from a temporary
    file, whose name the sentences must not give)."""
    path = Path(path)
    if not path.is_file():
        raise KajonggError(f"There is no file {path}.")
    named = name or path.name
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            for table, columns in NEEDED.items():
                if table not in tables:
                    raise KajonggError(f"{named} has no table {table!r}: it is not a Kajongg database.")
                have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}  # noqa: S608  fixed names
                if columns - have:
                    raise KajonggError(f"{named}'s table {table} lacks "
                                       f"{', '.join(sorted(columns - have))}: not a Kajongg database this import reads.")
            names = {pid: clean(name) for pid, name in db.execute("SELECT id, name FROM player")}
            rulesets = dict(db.execute("SELECT id, name FROM ruleset"))
            games = {}
            for gid, start, ruleset, *seats in db.execute(
                    "SELECT id, starttime, ruleset, p0, p1, p2, p3 FROM game "
                    "WHERE CAST(seed AS TEXT) IN ('0', '') OR seed IS NULL OR seed = 0 ORDER BY id"):
                games[gid] = Game(gid, _date(start), str(rulesets.get(ruleset, ruleset) or ""),
                                  [str(names.get(p, p)) for p in seats if p is not None])
            # Kajongg's penalty column (0 for a hand's own rows), where the schema has it.
            score_columns = {r[1] for r in db.execute("PRAGMA table_info(score)")}
            penalty = "penalty" if "penalty" in score_columns else "0"
            for (gid, hand, player, wind, prevailing, data, won, points, payments, balance,
                 fined) in db.execute(
                    "SELECT game, hand, player, wind, prevailing, data, won, points, payments, "
                    f"balance, {penalty} FROM score ORDER BY game, hand, player"):  # noqa: S608
                if gid in games:
                    games[gid].rows.append(ScoreRow(
                        int(hand), str(names.get(player, player)), _wind(wind), _wind(prevailing),
                        str(data or ""), bool(won), int(points or 0), int(payments or 0),
                        int(balance or 0), bool(int(fined or 0))))
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise KajonggError(f"{named} is not an SQLite database ({exc}).") from exc
    except (ValueError, TypeError) as exc:
        # A hand number or a score that is not a number: not as Kajongg writes them.
        raise KajonggError(f"{named}'s score table holds a value Kajongg does not write "
                           f"({exc}): not a Kajongg database this import reads.") from exc
    return list(games.values())
