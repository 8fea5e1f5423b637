"""Issue #22: sign-up by email and a password (SIGNUP=open), refused with a sentence under
SIGNUP=invite-only; password reset by email with Django's own views."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ImproperlyConfigured

from config.env import env_choice

pytestmark = pytest.mark.django_db

GOOD = {"name": "Margaret  Chan ", "email": "Margaret@Example.org", "password1": "pung-of-dragons-7",
        "password2": "pung-of-dragons-7"}


def test_sign_up_logs_in_with_the_email(client):
    assert "Sign up" in client.get("/accounts/login/").content.decode()
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    answer = client.post("/accounts/signup/", {**GOOD, "next": "/start-a-club/"})
    assert answer.status_code == 302 and answer["Location"] == "/start-a-club/"
    user = get_user_model().objects.get()
    assert (user.username, user.email) == ("margaret@example.org", "Margaret@example.org")
    assert client.get("/start-a-club/").status_code == 200  # logged in
    client.post("/accounts/logout/")
    assert client.login(username="margaret@example.org", password=GOOD["password1"])


def test_sign_up_says_what_to_mend(client, users):
    get_user_model().objects.create_user("ann", email="ann@example.org", password="x")
    taken = client.post("/accounts/signup/", {**GOOD, "email": "ANN@example.org"})
    assert taken.status_code == 400
    assert "There is already a login for this email" in taken.content.decode()
    differ = client.post("/accounts/signup/", {**GOOD, "password2": "something-else-9"})
    assert "The two passwords differ" in differ.content.decode()
    weak = client.post("/accounts/signup/", {**GOOD, "password1": "12345678",
                                             "password2": "12345678"})
    assert weak.status_code == 400 and "too common" in weak.content.decode()
    foreign = client.post("/accounts/signup/", {**GOOD, "next": "https://evil.example/"})
    assert foreign["Location"] == "/"
    assert get_user_model().objects.filter(email__iexact=GOOD["email"]).count() == 1


def test_invite_only_refuses_sign_up_with_a_sentence(client, settings):
    settings.SIGNUP = "invite-only"
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and "invitation link" in page.content.decode()
    refused = client.post("/accounts/signup/", GOOD)
    assert refused.status_code == 403 and "invitation link" in refused.content.decode()
    assert not get_user_model().objects.exists()
    login = client.get("/accounts/login/").content.decode()
    assert "Sign up" not in login and "invitation link" in login


def test_a_bad_signup_setting_stops_the_service_with_a_sentence(monkeypatch):
    monkeypatch.setenv("SIGNUP", "everyone")
    with pytest.raises(ImproperlyConfigured, match="use one of open, invite-only"):
        env_choice("SIGNUP", "open", ("open", "invite-only"))


def test_password_reset_by_email(client, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    get_user_model().objects.create_user("bob@example.org", email="bob@example.org",
                                         password="old-password-42")
    sent = client.post("/accounts/password_reset/", {"email": "bob@example.org"})
    assert sent.status_code == 302
    assert "Check your email" in client.get(sent["Location"]).content.decode()
    (message,) = mail.outbox
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", message.body)[1]
    form = client.get(link, follow=True)
    assert "Set a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "new-password-43",
                                                    "new_password2": "new-password-43"})
    assert done.status_code == 302
    assert client.login(username="bob@example.org", password="new-password-43")
    unknown = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert unknown.status_code == 302 and len(mail.outbox) == 1  # nothing leaked, nothing sent


def test_mail_goes_to_the_console_unless_smtp_is_configured():
    from django.conf import settings

    assert settings.EMAIL_BACKEND.endswith(("console.EmailBackend", "locmem.EmailBackend"))


def test_login_and_sign_up_links_keep_one_next_without_nesting(client):
    """Going back and forth between the two pages keeps where the visitor was going."""
    signup = client.get("/accounts/signup/?next=/clubs/jade/").content.decode()
    assert 'href="/accounts/login/?next=/clubs/jade/"' in signup
    assert "next=/accounts/signup/" not in signup and "%3Fnext" not in signup
    login = client.get("/accounts/login/?next=/clubs/jade/").content.decode()
    assert "next=/accounts/login/" not in login and "%3Fnext" not in login


def test_sign_up_asks_for_a_name_and_a_new_club_calls_its_founder_by_it(client, settings):
    """A secretary signing up as sec@club.org is called by the name typed, not "sec"."""
    missing = client.post("/accounts/signup/", {**GOOD, "name": "  "})
    assert missing.status_code == 400 and "Type your name." in missing.content.decode()
    control = client.post("/accounts/signup/", {**GOOD, "name": "Ann\x07"})
    assert control.status_code == 400 and "control characters" in control.content.decode()
    assert not get_user_model().objects.exists()
    answer = client.post("/accounts/signup/", {**GOOD, "email": "sec@club.org"})
    assert answer.status_code == 302
    user = get_user_model().objects.get()
    assert user.get_full_name() == "Margaret Chan"  # spaces tidied as every name's are
    from clubs.starting import founder_name, start_club
    assert founder_name(user) == "Margaret Chan"
    settings.CLUB_START_CHECK = ""  # the email confirmed
    club = start_club(user, name="Sec's club", slug="secs-club")
    assert club.members.get().display_name == "Margaret Chan"


def test_the_login_takes_the_email_as_it_was_signed_up_and_says_email(client):
    """QA phone pass (26 Nov 2026): signed up as Margaret@Example.org (stored lower-cased, as
    the README says: "typed either way round"), logging in as Margaret@Example.org was refused
    with Django's "Please enter a correct username and password. Note that both fields may
    be case-sensitive." — a login the page calls "Email or login name", refused for capitals
    the service itself had taken off."""
    client.post("/accounts/signup/", GOOD)
    client.post("/accounts/logout/")
    answer = client.post("/accounts/login/", {"username": " Margaret@Example.org ",
                                              "password": GOOD["password1"]})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    client.post("/accounts/logout/")
    wrong = client.post("/accounts/login/", {"username": "Margaret@Example.org",
                                             "password": "not-the-password"}).content.decode()
    said = re.search(r'<div class="form-errors" role="alert">(.*?)</div>', wrong, re.S).group(1)
    assert "username" not in said and "case-sensitive" not in said, said
    assert "email" in said and "Forgotten your password?" in said, said
