"""The .env file and .env.example: every variable documented, bad lines named."""

import os
import re

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_int, load_env_file
from tests.conftest import REPO

READS = re.compile(r"""(?:os\.environ\.get|env_bool|env_int|env_float|env_rate|env_list|env_choice)\(\s*["']([A-Z_]+)["']""")


def test_env_example_lists_every_variable_the_settings_read():
    read = set()
    for path in (REPO / "config").glob("*.py"):
        read |= set(READS.findall(path.read_text()))
    example = (REPO / ".env.example").read_text()
    listed = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))
    assert {"DATABASE_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"} <= read
    assert read - listed == set(), "add these to .env.example"


def test_env_file_fills_gaps_but_the_environment_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("MJ_ALREADY_SET", "from the environment")
    monkeypatch.delenv("MJ_FROM_FILE", raising=False)
    env = tmp_path / ".env"
    env.write_text('# comment\n\nMJ_ALREADY_SET=file\nexport MJ_FROM_FILE="quoted value"\n')
    try:
        load_env_file(env)
        assert os.environ["MJ_ALREADY_SET"] == "from the environment"
        assert os.environ["MJ_FROM_FILE"] == "quoted value"
    finally:
        os.environ.pop("MJ_FROM_FILE", None)


def test_a_bad_env_line_is_named(tmp_path):
    env = tmp_path / ".env"
    env.write_text("DEBUG=1\nthis is not a setting\n")
    with pytest.raises(ImproperlyConfigured, match="line 2: write NAME=value"):
        load_env_file(env)


def test_env_int_explains_a_bad_number(monkeypatch):
    monkeypatch.setenv("SECURE_HSTS_SECONDS", "one year")
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("SECURE_HSTS_SECONDS", 31536000)
