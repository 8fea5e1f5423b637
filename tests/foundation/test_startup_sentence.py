"""A setting that cannot be used stops the service with one sentence saying what to write and
exit status 1 (the README's promise), not Django's 52-line traceback (#21)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("SECRET_KEY", "DEBUG", "DATABASE_URL", "CONN_MAX_AGE",
                            "DJANGO_SETTINGS_MODULE")}
    return subprocess.run([sys.executable, *args], cwd=REPO, env={**environ, **env},
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("entry", [["manage.py", "check"], ["-c", "import config.wsgi"],
                                   ["-c", "import config.asgi"]])
def test_a_missing_secret_key_is_one_sentence_and_a_failure(entry):
    done = run(entry, DEBUG="0")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("Cannot start: SECRET_KEY must be set when DEBUG is off")
    assert "token_urlsafe(50)" in lines[0]


def test_any_unusable_setting_is_one_sentence():
    done = run(["manage.py", "check"], DATABASE_URL="postgres://u@host/db",
               CONN_MAX_AGE="ten minutes")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert "CONN_MAX_AGE='ten minutes': give whole seconds" in done.stderr
