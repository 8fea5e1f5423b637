"""Production settings pass `check --deploy` but for what the README justifies; the quick start."""

import os
import re
import secrets
import subprocess
import sys

from tests.conftest import REPO

README = (REPO / "README.md").read_text()


def _deploy_check(tmp_path, **extra):
    # DJANGO_ALLOW_ASYNC_UNSAFE is the browser tests' switch for their own process; a
    # deployment never has it.
    dropped = {"DATABASE_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="scores.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'deploy.sqlite3'}",
        **extra,
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )
    return result, set(re.findall(r"\(([a-z_]+\.[EW]\d{3})\)", result.stdout + result.stderr))


def test_check_deploy_reports_only_what_the_readme_justifies(tmp_path):
    result, issues = _deploy_check(tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    section = README.split("## Production and `check --deploy`")[1].split("\n## ")[0]
    unexplained = {issue for issue in issues if issue not in section}
    assert not unexplained, f"justify in README or fix: {unexplained}"


def test_turning_off_the_redirect_is_reported(tmp_path):
    """The check really runs with these settings: a weaker one shows up."""
    _, issues = _deploy_check(tmp_path, SECURE_SSL_REDIRECT="0")
    assert "security.W008" in issues


def test_quick_start_is_two_commands_that_exist():
    block = README.split("## Quick start")[1].split("```")[1]
    lines = [line for line in block.strip("\n").splitlines()]
    assert lines == ["./scripts/serve", "./scripts/test"]
    for line in lines:
        script = REPO / line.removeprefix("./")
        assert script.is_file() and os.access(script, os.X_OK), line
