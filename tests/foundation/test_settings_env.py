"""Settings from the environment: every DATABASE_URL form, and clear errors for bad values."""

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_list
from tests.conftest import REPO

DEFAULT = REPO / "db.sqlite3"


def test_no_database_url_means_the_project_sqlite_file():
    db = database_from_url("", default_sqlite=DEFAULT)
    assert db["ENGINE"] == "config.sqlite3"
    assert db["NAME"] == str(DEFAULT)


@pytest.mark.parametrize(
    ("url", "name"),
    [("sqlite:///data/club.sqlite3", "data/club.sqlite3"), ("sqlite:////srv/club.db", "/srv/club.db")],
)
def test_sqlite_urls_relative_and_absolute(url, name):
    db = database_from_url(url, default_sqlite=DEFAULT)
    assert (db["ENGINE"], db["NAME"]) == ("config.sqlite3", name)
    assert db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_postgres_url_with_persistent_connections(monkeypatch):
    monkeypatch.delenv("CONN_MAX_AGE", raising=False)
    monkeypatch.delenv("CONN_HEALTH_CHECKS", raising=False)
    db = database_from_url(
        "postgres://club:s%40cret@db.example.org:5433/mahjong?sslmode=require", default_sqlite=DEFAULT
    )
    # Django's own backend and its own health check (SELECT 1 before a request reuses one).
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "club", "s@cret", "db.example.org", "5433", "mahjong",
    )
    assert db["CONN_MAX_AGE"] == 600 and db["CONN_HEALTH_CHECKS"] is True
    assert db["OPTIONS"] == {
        "sslmode": "require", "server_side_binding": True, "prepare_threshold": 5,
    }


@pytest.mark.parametrize(("query", "options"), [
    ("", {"server_side_binding": True, "prepare_threshold": 5}),
    ("?prepare_threshold=0", {"server_side_binding": True, "prepare_threshold": 0}),
    ("?prepare_threshold=none", {"server_side_binding": False, "prepare_threshold": None}),
])
def test_prepared_statements_on_unless_turned_off_for_a_pooler(query, options):
    db = database_from_url(f"postgres://club@db/mahjong{query}", default_sqlite=DEFAULT)
    assert db["OPTIONS"] == options


@pytest.mark.parametrize("value", ["often", "-1"])
def test_a_bad_prepare_threshold_is_a_sentence(value):
    with pytest.raises(ImproperlyConfigured, match=f"prepare_threshold='{value}': give a whole"):
        database_from_url(f"postgres://club@db/mahjong?prepare_threshold={value}",
                          default_sqlite=DEFAULT)


def test_health_checks_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("CONN_HEALTH_CHECKS", "off")
    db = database_from_url("postgres://club@db/mahjong", default_sqlite=DEFAULT)
    assert db["CONN_HEALTH_CHECKS"] is False
    monkeypatch.setenv("CONN_HEALTH_CHECKS", "sometimes")
    with pytest.raises(ImproperlyConfigured, match="CONN_HEALTH_CHECKS='sometimes': use 1/0"):
        database_from_url("postgres://club@db/mahjong", default_sqlite=DEFAULT)


def test_server_side_cursors_can_be_turned_off_for_a_pooler(monkeypatch):
    url = "postgres://u@db/club"
    assert database_from_url(url, default_sqlite="x")["DISABLE_SERVER_SIDE_CURSORS"] is False
    monkeypatch.setenv("DISABLE_SERVER_SIDE_CURSORS", "1")
    assert database_from_url(url, default_sqlite="x")["DISABLE_SERVER_SIDE_CURSORS"] is True


def test_conn_max_age_from_url_or_environment(monkeypatch):
    monkeypatch.setenv("CONN_MAX_AGE", "none")
    assert database_from_url("postgresql://h/db", default_sqlite=DEFAULT)["CONN_MAX_AGE"] is None
    db = database_from_url("postgresql://h/db?conn_max_age=0", default_sqlite=DEFAULT)
    assert db["CONN_MAX_AGE"] == 0 and "conn_max_age" not in db["OPTIONS"]


@pytest.mark.parametrize(
    ("url", "env", "words"),
    [
        ("mysql://root@localhost/club", {}, "not supported"),
        ("postgres://u@host:notaport/db", {}, "port"),
        ("postgres://u@host/db", {"CONN_MAX_AGE": "ten minutes"}, "CONN_MAX_AGE"),
        ("postgres://u@host/db?conn_max_age=-5", {}, "whole seconds"),
    ],
)
def test_bad_database_settings_say_what_to_write(monkeypatch, url, env, words):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=words):
        database_from_url(url, default_sqlite=DEFAULT)


def test_bad_port_message_hides_the_password():
    with pytest.raises(ImproperlyConfigured) as err:
        database_from_url("postgres://u:topsecret@host:99999/db", default_sqlite=DEFAULT)
    assert "topsecret" not in str(err.value)


def test_env_bool_and_list(monkeypatch):
    monkeypatch.setenv("FLAG", "Yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="true/false"):
        env_bool("FLAG", False)
    monkeypatch.setenv("HOSTS", " a.example.org, ,b.example.org ")
    assert env_list("HOSTS", []) == ["a.example.org", "b.example.org"]
    assert env_list("UNSET_LIST_VARIABLE", ["x"]) == ["x"]


def test_production_without_secret_key_refuses_to_start():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DEBUG="0", DJANGO_SETTINGS_MODULE="config.settings")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
