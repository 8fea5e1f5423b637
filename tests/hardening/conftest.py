"""The web tests' club (a user per role, an outsider club's admin, a session with a table),
plus a second club that keeps a private house rule: what an outsider must never reach."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from houserules.copies import create_copy
from tests.web.conftest import *  # noqa: F403  (the web tests' fixtures)

# The private rule: a guide copy whose melded dragon pung is worth 40 (20 built in).
PRIVATE = "jade-secret"


@pytest.fixture
def private_rule(club, users):
    return create_copy(club, "guide", PRIVATE, "Jade's secret guide",
                       {"items": {"dragon_pung_melded": {"points": 40}}}, users["admin"])


@pytest.fixture
def api_as(users):
    """api_as(role) -> a DRF client authenticated as that role (anonymous: nobody)."""

    def client(role: str) -> APIClient:
        made = APIClient()
        if users[role] is not None:
            made.force_authenticate(users[role])
        return made

    return client
