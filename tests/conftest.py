import json
import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# CI is a gate, so its property tests are reproducible: the same examples on every run, chosen
# by hypothesis from the test itself. Locally they keep exploring new examples.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    if not EXAMPLES.is_dir():
        pytest.fail(f"The worked examples are missing: expected {EXAMPLES} beside the repository.")
    return EXAMPLES


def load_example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The production hasher is slow on purpose; tests only need logins that work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_throttling_or_lockout(settings):
    # The suite makes hundreds of requests and logins a second: throttles and lockout would
    # answer them 429. tests/hardening/test_abuse.py and tests/accounts/test_limits.py turn
    # them on to check them.
    settings.API_THROTTLE_RATES = {}
    settings.ACCOUNT_RATE_LIMITS = {}
    settings.AXES_ENABLED = False


class _RequireSomeTestRan:
    """A run in which no test ran (all skipped or deselected) is a failure, not a pass."""

    def __init__(self):
        self.ran = 0

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and not report.skipped:
            self.ran += 1

    def pytest_sessionfinish(self, session, exitstatus):
        if exitstatus == 0 and self.ran == 0:
            session.exitstatus = pytest.ExitCode.NO_TESTS_COLLECTED


# pytest reads one pytest_configure per conftest: add further set-up to this function.
def pytest_configure(config):
    config.pluginmanager.register(_RequireSomeTestRan(), "require-some-test-ran")
