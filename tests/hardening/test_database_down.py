"""While the database is down every request is answered 503 with Retry-After and a sentence,
a page for the pages and JSON for the API, never a 500 (#21). Run in a fresh interpreter whose
DATABASE_URL points at a PostgreSQL port nothing listens on, or an SQLite file that cannot be
opened: what a club sees while its database restarts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.db.utils import OperationalError, ProgrammingError

from config.unavailable import database_unavailable
from tests.conftest import REPO

SCRIPT = """
import json, django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
out = {}
for path in ("/", "/clubs/demo/", "/api/v1/clubs/", "/api/v1/hands/"):
    answer = client.get(path)
    out[path] = [answer.status_code, answer.get("Retry-After"), answer.get("Content-Type"),
                 answer.content.decode()]
answer = client.post("/api/v1/hands/", {"table": 1}, content_type="application/json",
                     HTTP_AUTHORIZATION="Token 0123456789abcdef")
out["POST /api/v1/hands/"] = [answer.status_code, answer.get("Retry-After"),
                              answer.get("Content-Type"), answer.content.decode()]
answer = client.post("/accounts/login/", {"username": "a", "password": "b"})
out["POST /accounts/login/"] = [answer.status_code, answer.get("Retry-After"),
                                answer.get("Content-Type"), answer.content.decode()]
print(json.dumps(out))
"""


@pytest.mark.parametrize("url", ["postgres://postgres@127.0.0.1:9/nothing",
                                 "sqlite:////nonexistent-folder/for-sure/db.sqlite3"])
def test_every_request_is_a_503_with_retry_after_and_a_sentence(url, tmp_path):
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "DJANGO"))}
    environ.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=url, DEBUG="0",
                   SECRET_KEY="x" * 60, ALLOWED_HOSTS="testserver", SECURE_SSL_REDIRECT="0",
                   CONN_MAX_AGE="0", CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=environ,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    answers = json.loads(done.stdout.strip().splitlines()[-1])
    for path, (status, retry, content_type, body) in answers.items():
        assert status == 503, (path, status, body[:300])
        assert retry == "30", path
        assert "The database is not answering just now" in body, path
        if "/api/" in path:
            assert content_type == "application/json"
            assert json.loads(body)["detail"].startswith("The database is not answering")
        else:
            assert content_type.startswith("text/html") and "Traceback" not in body


def test_only_an_unreachable_database_is_a_503():
    """A broken query (a missing table) is our bug: still a 500."""
    import sqlite3

    def wrapped(cls, cause):
        error = cls(str(cause))
        error.__cause__ = cause
        return error

    assert database_unavailable(wrapped(OperationalError,
                                        sqlite3.OperationalError("database is locked")))
    assert not database_unavailable(wrapped(OperationalError,
                                            sqlite3.OperationalError("no such table: x")))
    assert not database_unavailable(ProgrammingError("syntax error"))
    assert not database_unavailable(ValueError("no"))
