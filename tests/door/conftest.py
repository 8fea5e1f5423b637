"""The club, its roles and a session from the web tests, and a night's members."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from clubs.models import ClubSession, Member, Seat, Table
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


@pytest.fixture
def tonight(club, bmja_version):  # noqa: F811
    return ClubSession.objects.create(club=club, date=timezone.localdate(),
                                      house_rule_version=bmja_version)


@pytest.fixture
def last_week(club, bmja_version, members, tonight):  # noqa: F811
    """Ann, Bea, Cal and Dot played together a week ago (a night of no season, as tonight), and
    Ivy, Jo, Kit and Lou at the other table: the four met more than a random draw would have
    had them meet, so the draw keeps them apart as far as it can."""
    night = ClubSession.objects.create(club=club, date=tonight.date - dt.timedelta(days=7),
                                       house_rule_version=bmja_version)
    for number, people in ((1, members[:4]), (2, members[8:12])):
        table = Table.objects.create(session=night, number=number)
        for position, (member, wind) in enumerate(zip(people, "ESWN", strict=True)):
            Seat.objects.create(table=table, position=position, member=member,
                                starting_wind=wind)
    return members[:4]
