"""The demo club (a night of twelve hands under bmja, tiles and agreed scores, wall games and
goulash hands), its members' logins, and an outsider from another club with a private rule."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from clubs.house_rule_copies import create_copy
from clubs.models import Club, ClubSession, Member, MemberRole, Table
from tests.web.conftest import chromium  # noqa: F401  (the browser tests' fixture)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def demo(db):
    call_command("load_demo", allow_production=True, verbosity=0)
    club = Club.objects.get(slug="demo")
    session = ClubSession.objects.get(club=club)
    return {"club": club, "session": session, "season": session.season,
            "table": Table.objects.get(session=session)}


@pytest.fixture
def outsider_club(db, demo):
    """A private club whose admin made a private copy of bmja with a 500 limit."""
    user = get_user_model().objects.create_user("far-admin", password="x")
    club = Club.objects.create(name="Far Away Club", slug="far")
    Member.objects.create(club=club, user=user, display_name="Far", role=MemberRole.ADMIN)
    create_copy(club=club, base_slug="bmja", new_slug="far-secret", name="Far's secret rule",
                overrides={"scoring": {"limit": 500}})
    return {"club": club, "user": user}


@pytest.fixture
def demo_scorer(demo):
    return get_user_model().objects.get(username="demo-scorer")


@pytest.fixture
def demo_member_api(demo):
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username="demo-scorer"))
    return client
