"""Reading settings from the environment, with clear errors for values that cannot be used."""

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: use 1/0, true/false, yes/no or on/off.")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: give a whole number, e.g. {default}.") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: give a number, e.g. {default}.") from None


def env_choice(name: str, default: str, allowed: tuple[str, ...]) -> str:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    value = raw.strip().lower()
    if value not in allowed:
        raise ImproperlyConfigured(f"{name}={raw!r}: use one of " + ", ".join(allowed) + ".")
    return value


_RATE = re.compile(r"^\s*(\d+)\s*/\s*(s|sec|second|m|min|minute|h|hour|d|day)\s*$")


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate such as "120/min"; "none" (or "0") for no limit."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    if raw.strip().lower() in ("none", "0", "off"):
        return None
    match = _RATE.match(raw)
    if not match:
        raise ImproperlyConfigured(f"{name}={raw!r}: give requests per period, e.g. "
                                   f"{default!r} (periods: s, min, hour, day), or none.")
    return f"{match[1]}/{match[2]}"


def load_env_file(path: Path) -> None:
    """Read KEY=value lines from a .env file; the real environment wins over the file.

    Enough for a developer's settings; a deployment sets real environment variables.
    """
    if not path.is_file():
        return
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.removeprefix("export ").partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key.isidentifier():
            raise ImproperlyConfigured(
                f"{path.name} line {number}: write NAME=value (got {line[:40]!r})."
            )
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        os.environ.setdefault(key, value)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [part.strip() for part in raw.split(",") if part.strip()]


def sqlite_database(path: Path | str) -> dict:
    # WAL lets readers carry on during a write; IMMEDIATE takes the write lock at BEGIN so two
    # writers queue (config.sqlite3: on a lock file) instead of failing with "database is
    # locked" half-way.
    return {
        "ENGINE": "config.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": (
                "PRAGMA journal_mode=WAL;"
                "PRAGMA synchronous=NORMAL;"
                "PRAGMA busy_timeout=20000;"
                "PRAGMA foreign_keys=ON;"
            ),
        },
        "TEST": {"NAME": os.environ.get("SQLITE_TEST_NAME") or None},
    }


def database_from_url(url: str, *, default_sqlite: Path) -> dict:
    """A Django DATABASES entry from DATABASE_URL (postgres://… or sqlite:///path)."""
    if not url:
        return sqlite_database(default_sqlite)
    parsed = urlparse(url)
    scheme = parsed.scheme.lower()
    if scheme in {"sqlite", "sqlite3"}:
        path = unquote(parsed.path)
        if path.startswith("//"):  # sqlite:////abs/path
            path = path[1:]
        elif path.startswith("/"):  # sqlite:///relative/path
            path = path[1:]
        return sqlite_database(path or default_sqlite)
    if scheme in {"postgres", "postgresql", "pgsql"}:
        options = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        conn_max_age = _conn_max_age(options.pop("conn_max_age", None))
        options.update(_prepared_statements(options))
        try:
            port = parsed.port
        except ValueError:
            raise ImproperlyConfigured(
                f"DATABASE_URL has a port that is not a number 1-65535: {_redacted(url)}"
            ) from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parsed.path.lstrip("/")) or "postgres",
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(port or ""),
            # Persistent connections: without them every request pays a new authenticated
            # connection, which caps writes at a few hundred a second.
            "CONN_MAX_AGE": conn_max_age,
            "CONN_HEALTH_CHECKS": env_bool("CONN_HEALTH_CHECKS", True),
            # Behind PgBouncer in transaction mode a server-side cursor (Django's .iterator())
            # outlives the transaction its server connection was lent for: set it to read
            # such results whole on the client instead (league.summary.refresh_all and
            # compare.runs.finish read so).
            "DISABLE_SERVER_SIDE_CURSORS": env_bool("DISABLE_SERVER_SIDE_CURSORS", False),
            "OPTIONS": options,
            # A run of the tests creates and drops this database; give concurrent runs
            # (CI jobs, several checkouts) their own name.
            "TEST": {"NAME": os.environ.get("TEST_DATABASE_NAME") or None},
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {scheme!r} is not supported: use postgres://user@host:5432/name "
        "or sqlite:///path/to/file.sqlite3."
    )


def _prepared_statements(options: dict) -> dict:
    """Parameters bound by the server, and a statement prepared once a connection has run it
    ``prepare_threshold`` times (5 by default): recording a hand is the same few statements
    every time, and measured here a prepared one cost PostgreSQL about a third of the CPU of
    the same statement parsed and planned anew (PostgreSQL's CPU per recorded hand fell from
    1.2-1.4 ms to 0.6-0.8 ms). Django leaves both off by default for the sake of connection
    poolers in transaction mode, which cannot keep a prepared statement:
    ``?prepare_threshold=none`` in DATABASE_URL turns preparing off for such a pooler."""
    raw = options.get("prepare_threshold", "5")
    if raw.strip().lower() in {"none", "off", "false"}:
        threshold = None
    else:
        try:
            threshold = int(raw)
        except ValueError:
            threshold = -1
        if threshold < 0:
            raise ImproperlyConfigured(
                f"DATABASE_URL has prepare_threshold={raw!r}: give a whole number of runs "
                "before a statement is prepared (5 is the default), or none to never prepare."
            )
    return {"server_side_binding": threshold is not None, "prepare_threshold": threshold}


def _conn_max_age(from_url: str | None) -> int | None:
    """Seconds to keep a database connection open; "none" keeps it for the process's life."""
    raw = from_url if from_url is not None else os.environ.get("CONN_MAX_AGE", "600")
    if raw.strip().lower() in {"none", "forever"}:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise ImproperlyConfigured(
            f"CONN_MAX_AGE={raw!r}: give whole seconds (0 closes after each request, 600 is the "
            "default) or 'none' to keep connections open."
        )
    return value


def _redacted(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@", 1)
    return url
