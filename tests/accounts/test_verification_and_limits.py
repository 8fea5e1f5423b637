"""A sign-up confirms its email (Django's token machinery, as the password reset) before it
starts a club or makes API tokens; sign-up, login, password reset and the confirmation email
are rate limited with counts kept in the database (every process sees the same counts)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from accounts import limits
from accounts.models import RateCount, UnverifiedEmail
from clubs.models import Club

pytestmark = pytest.mark.django_db

GOOD = {"name": "Margaret Chan", "email": "margaret@example.org", "password1": "pung-of-dragons-7",
        "password2": "pung-of-dragons-7"}
CLUB = {"name": "Jade Hall", "slug": "jade-hall", "time_zone": "Europe/London",
        "display_name": "Margaret"}


@pytest.fixture(autouse=True)
def _club_form(house_rule_versions):
    CLUB["house_rule"] = house_rule_versions["bmja"].record.pk


def _link() -> str:
    return re.search(r"https?://[^/\s]+(/accounts/verify/\S+/)", mail.outbox[-1].body)[1]


def test_a_sign_up_confirms_its_email_before_starting_a_club(client):
    answer = client.post("/accounts/signup/", GOOD, follow=True)
    assert "We sent a link to margaret@example.org" in answer.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["margaret@example.org"]
    user = get_user_model().objects.get()
    assert UnverifiedEmail.objects.filter(user=user).exists()
    # Waiting: the start page says so before the form, a POST starts nothing, nor the API.
    page = client.get("/start-a-club/")
    assert page.status_code == 200 and "Confirm your email first" in page.content.decode()
    assert client.post("/start-a-club/", CLUB).status_code == 403
    api = APIClient()
    api.force_authenticate(user)
    refused = api.post("/api/v1/clubs/", {"name": "Jade Hall", "slug": "jade-hall"},
                       format="json")
    assert refused.status_code == 403 and "Confirm your email" in refused.json()["detail"]
    tokens = client.post("/accounts/tokens/", {"name": "Spreadsheet"})
    assert tokens.status_code == 400 and "Confirm your email" in tokens.content.decode()
    assert not Club.objects.exists()
    # The link confirms it, once.
    link = _link()
    answer = client.get(link)
    assert answer.status_code == 302 and answer["Location"] == "/start-a-club/"
    assert not UnverifiedEmail.objects.exists()
    assert client.post("/start-a-club/", CLUB).status_code == 302
    assert Club.objects.filter(slug="jade-hall").exists()
    again = client.get(link)
    assert again.status_code == 400 and "used already" in again.content.decode()


def test_a_wrong_link_confirms_nothing(client):
    client.post("/accounts/signup/", GOOD)
    link = _link()
    for bad in (link[:-3] + "xx/", "/accounts/verify/Zm9v/abc-def/", "/accounts/verify/!!/x/"):
        assert client.get(bad).status_code == 400
    assert UnverifiedEmail.objects.count() == 1


def test_logins_from_before_or_an_invitation_have_nothing_to_confirm(client, users):
    client.force_login(users["member"])
    assert client.post("/start-a-club/", CLUB).status_code == 302


def test_the_link_is_sent_again_within_the_limit(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {"verify_resend": (2, 3600)}
    client.post("/accounts/signup/", GOOD)
    assert "Send the link again" in client.get("/accounts/verify/").content.decode()
    for _ in range(2):
        assert client.post("/accounts/verify/").status_code == 302
    assert len(mail.outbox) == 3
    limited = client.post("/accounts/verify/")
    assert limited.status_code == 429 and "try again in" in limited.content.decode()
    assert len(mail.outbox) == 3
    client.get(_link())  # any link sent still works
    assert not UnverifiedEmail.objects.exists()


def test_sign_up_is_limited_per_address(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {"signup": (2, 3600)}
    for n in range(2):
        client.post("/accounts/signup/", {**GOOD, "email": f"p{n}@example.org"})
        client.post("/accounts/logout/")
    answer = client.post("/accounts/signup/", {**GOOD, "email": "p9@example.org"})
    assert answer.status_code == 429
    assert "Too many sign-ups from here" in answer.content.decode()
    assert not get_user_model().objects.filter(email="p9@example.org").exists()
    other = client.post("/accounts/signup/", {**GOOD, "email": "p9@example.org"},
                        REMOTE_ADDR="10.1.2.3")
    assert other.status_code == 302  # another address has its own count


def test_login_is_limited_per_address_even_with_the_right_password(client, settings, users):
    settings.ACCOUNT_RATE_LIMITS = {"login": (3, 600)}
    for _ in range(3):
        assert client.post("/accounts/login/", {"username": "member-user",
                                                "password": "wrong"}).status_code == 200
    answer = client.post("/accounts/login/", {"username": "member-user",
                                              "password": "tiles-and-winds-42"})
    assert answer.status_code == 429
    assert "Too many attempts to log in from here" in answer.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_reset_is_limited_per_email(client, settings, users):
    settings.ACCOUNT_RATE_LIMITS = {"password_reset_email": (2, 3600), "password_reset": (50, 60)}
    get_user_model().objects.filter(username="member-user").update(email="m@example.org")
    for n in range(2):
        answer = client.post("/accounts/password_reset/", {"email": "m@example.org"},
                             REMOTE_ADDR=f"10.0.0.{n}")
        assert answer.status_code == 302
    answer = client.post("/accounts/password_reset/", {"email": "M@example.org "},
                         REMOTE_ADDR="10.0.0.9")
    assert answer.status_code == 429
    assert "Too many password reset emails" in answer.content.decode()
    assert len(mail.outbox) == 2


def test_the_counts_are_in_the_database_not_a_process(client, settings):
    """Another app process's attempts count here: a count written to the database by anyone
    is the count this process goes by."""
    settings.ACCOUNT_RATE_LIMITS = {"signup": (5, 3600)}
    epoch = int(datetime.now(UTC).timestamp())
    start = datetime.fromtimestamp(epoch - epoch % 3600, tz=UTC)
    RateCount.objects.create(key=limits._key("signup", "127.0.0.1"), window=start, count=5)
    answer = client.post("/accounts/signup/", GOOD)
    assert answer.status_code == 429
    assert RateCount.objects.get().count == 6
    assert "127.0.0.1" not in RateCount.objects.get().key  # a digest, not the address


def test_limits_can_be_turned_off(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {}
    for n in range(8):
        assert client.post("/accounts/signup/", {**GOOD, "email": f"q{n}@example.org"}
                           ).status_code == 302
        client.post("/accounts/logout/")
    assert not RateCount.objects.exists()
