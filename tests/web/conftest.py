"""A club with one user per role, an outsider from another club, and a session with a table."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.models import Club, ClubSession, Member, MemberRole, Seat, Table
from houserules.sync import ensure_builtin_house_rules

PASSWORD = "tiles-and-winds-42"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
ROLES = ("admin", "scorer", "member", "outsider", "anonymous")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Logins are what these tests check, not password strength: hash in microseconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def house_rule_versions(db):
    """The scoring engine's built-in house rules, frozen as versions sessions can use."""
    return ensure_builtin_house_rules()


@pytest.fixture
def bmja_version(house_rule_versions):
    return house_rule_versions["bmja"]


def _user(username: str):
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def club(db, house_rule_versions):
    club = Club.objects.create(name="Jade Dragon Club", slug="jade")
    club.default_house_rule = house_rule_versions["bmja"].record
    club.save()
    return club


@pytest.fixture
def other_club(db):
    return Club.objects.create(name="Far Away Club", slug="far")


@pytest.fixture
def users(club, other_club):
    made = {}
    for role in ("admin", "scorer", "member"):
        made[role] = _user(f"{role}-user")
        Member.objects.create(club=club, user=made[role], display_name=role.title(), role=role)
    made["outsider"] = _user("outsider-user")
    Member.objects.create(
        club=other_club, user=made["outsider"], display_name="Outsider", role=MemberRole.ADMIN
    )
    made["anonymous"] = None
    return made


@pytest.fixture
def players(club, users):
    """Four players without logins, as most club members are."""
    return [
        Member.objects.create(club=club, display_name=name)
        for name in ("Alice", "Bob", "Carol", "David")
    ]


@pytest.fixture
def club_session(club, bmja_version):
    return ClubSession.objects.create(
        club=club, date=dt.date(2026, 11, 20), house_rule_version=bmja_version
    )


@pytest.fixture
def table(club_session, players):
    table = Table.objects.create(session=club_session, number=1)
    for position, (member, wind) in enumerate(zip(players, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    return table


@pytest.fixture
def client_as(client, users):
    """client_as(role) -> a test client logged in with that role (anonymous: not logged in)."""

    def login(role: str):
        if users[role] is not None:
            client.force_login(users[role])
        return client

    return login


@pytest.fixture
def scorer_api(users):
    """A DRF test client authenticated as the club's scorer."""
    client = APIClient()
    client.force_authenticate(users["scorer"])
    return client


@pytest.fixture
def admin_api(users):
    """A DRF test client authenticated as the club's admin."""
    client = APIClient()
    client.force_authenticate(users["admin"])
    return client


def _no_browser(reason: str) -> None:
    """Skip a browser test on a developer's machine without Chromium; under CI (``CI`` set, as
    .ci/run sets it after installing Chromium) a missing browser is a failure, never a quiet
    skip."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} CI runs the browser tests: install Chromium first.")
    pytest.skip(reason)


@pytest.fixture
def chromium(monkeypatch):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("The playwright package is not installed.")
    if not CHROMIUM.exists():
        _no_browser(f"No browser at {CHROMIUM} (apt-get install chromium).")
    # Sync Playwright runs an event loop in this thread; the ORM calls it makes are ours.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SCREENSHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-gpu",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        try:
            yield browser
        finally:
            browser.close()
            # ORM calls made while Playwright's event loop runs in this thread get their own
            # connection (Django keys connections by context): close it, or PostgreSQL keeps a
            # session open and the test database cannot be dropped.
            from django.db import connections

            connections.close_all()
