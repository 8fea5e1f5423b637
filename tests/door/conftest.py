"""The club, its roles and a session from the web tests, and a night's members."""

from __future__ import annotations

import pytest

from clubs.models import Member
from tests.web.conftest import (  # noqa: F401  (fixtures)
    PASSWORD,
    bmja_version,
    chromium,
    client_as,
    club,
    club_session,
    fast_password_hashing,
    house_rule_versions,
    other_club,
    users,
)

NAMES = ("Ann", "Bea", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
         "Mo", "Ned", "Oz", "Pat")


@pytest.fixture
def members(club, users):  # noqa: F811 (the web tests' fixtures)
    return [Member.objects.create(club=club, display_name=name) for name in NAMES]
