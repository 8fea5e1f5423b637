"""The web tests' club and roles, shared here, and a club night recorded for real."""

import datetime as dt

import pytest

from clubs.models import ClubSession, Member, Season
from tests.growth.history import record_night
from tests.web import conftest as web

bmja_version, club, house_rule_versions = web.bmja_version, web.club, web.house_rule_versions
fast_password_hashing, other_club, users = web.fast_password_hashing, web.other_club, web.users


@pytest.fixture
def night(club, users, bmja_version):
    members = [Member.objects.create(club=club, display_name=f"Player {i}") for i in range(8)]
    season = Season.objects.create(club=club, name="2030", start=dt.date(2030, 1, 1),
                                   end=dt.date(2030, 12, 31))
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2030, 11, 20),
                                         house_rule_version=bmja_version)
    record_night(session, members, users["scorer"])
    return session
