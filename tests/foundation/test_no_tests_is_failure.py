"""A test run in which nothing ran fails (.ci/run must not pass on an empty or skipped suite)."""

import os
import subprocess
import sys

from tests.conftest import REPO


def _pytest(folder, body):
    (folder / "conftest.py").write_text("from tests.conftest import pytest_configure  # noqa: F401\n")
    (folder / "test_probe.py").write_text(body)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:django",
         "--rootdir", str(folder), str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120,
    )


def test_all_skipped_is_a_failure(tmp_path):
    result = _pytest(tmp_path, "import pytest\n\n@pytest.mark.skip('x')\ndef test_a():\n    pass\n")
    assert result.returncode == 5, result.stdout


def test_one_passing_test_is_a_pass(tmp_path):
    result = _pytest(tmp_path, "def test_a():\n    assert 1 + 1 == 2\n")
    assert result.returncode == 0, result.stdout
