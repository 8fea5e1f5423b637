"""Confirming a sign-up's email through the API, as the pages do (``/accounts/verify/``):
``POST /api/v1/email-verification/confirm/`` with the emailed link's two parts, and
``.../resend/`` to have the link sent again, limited with the database-backed counts the
page's "Send the link again" uses. A bad or expired link is a 400 on its field; the resend's
answer never says whether a login has the email asked about."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts import verification
from accounts.models import UnverifiedEmail
from tests.web.test_api_answers import answer_schema, undocumented

pytestmark = pytest.mark.django_db

CONFIRM = "/api/v1/email-verification/confirm/"
RESEND = "/api/v1/email-verification/resend/"
GOOD = {"name": "Margaret Chan", "email": "margaret@example.org",
        "password1": "pung-of-dragons-7", "password2": "pung-of-dragons-7"}


@pytest.fixture
def api():
    return APIClient(enforce_csrf_checks=True)


@pytest.fixture
def signed_up(client):
    """A login made by the open sign-up page, its link emailed: (user, uid, token)."""
    client.post("/accounts/signup/", GOOD)
    client.post("/accounts/logout/")
    uid, token = re.search(r"/accounts/verify/([^/\s]+)/([^/\s]+)/", mail.outbox[-1].body).groups()
    return get_user_model().objects.get(email=GOOD["email"]), uid, token


def test_the_links_parts_confirm_the_email_once(api, signed_up, house_rule_versions):
    user, uid, token = signed_up
    answer = api.post(CONFIRM, {"uid": uid, "token": token}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"detail": "Your email is confirmed: you can start a club and make "
                                       "API tokens."}
    assert not UnverifiedEmail.objects.filter(user=user).exists()
    again = api.post(CONFIRM, {"uid": uid, "token": token}, format="json")
    assert again.status_code == 400
    assert list(again.json()) == ["token"] and "used already" in again.json()["token"][0]
    # Confirmed, the login starts a club through the API.
    api.force_authenticate(user)
    started = api.post("/api/v1/clubs/", {"name": "Jade Hall", "slug": "jade-hall",
                                          "time_zone": "Europe/London",
                                          "default_house_rule": house_rule_versions["bmja"].record.pk,
                                          "your_name": "Margaret"},
                       format="json")
    assert started.status_code == 201, started.content


def test_a_link_that_has_expired_is_a_400_on_token(api, signed_up, monkeypatch, settings):
    user, uid, token = signed_up
    later = verification.tokens._now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    monkeypatch.setattr(verification.tokens, "_now", lambda: later)
    answer = api.post(CONFIRM, {"uid": uid, "token": token}, format="json")
    assert answer.status_code == 400
    assert "expired" in answer.json()["token"][0]
    assert UnverifiedEmail.objects.filter(user=user).exists()


def test_bad_links_are_400s_with_field_paths_and_say_nothing_of_who_exists(api, signed_up):
    user, uid, token = signed_up
    wrong_token = api.post(CONFIRM, {"uid": uid, "token": token[:-2] + "zz"}, format="json")
    nobody = api.post(CONFIRM, {"uid": "OTk5OTk", "token": token}, format="json")  # "99999"
    not_a_number = api.post(CONFIRM, {"uid": "Zm9v", "token": token}, format="json")  # "foo"
    for answer in (wrong_token, nobody, not_a_number):
        assert answer.status_code == 400
        assert answer.json() == wrong_token.json() and list(answer.json()) == ["token"]
    malformed = api.post(CONFIRM, {"uid": "!!", "token": "<script>"}, format="json")
    assert malformed.status_code == 400 and set(malformed.json()) == {"uid", "token"}
    empty = api.post(CONFIRM, {}, format="json")
    assert empty.status_code == 400 and set(empty.json()) == {"uid", "token"}
    for body in ([uid, token], {"uid": [uid], "token": {"t": token}}, {"uid": uid * 50,
                                                                       "token": token}):
        assert api.post(CONFIRM, body, format="json").status_code == 400
    assert UnverifiedEmail.objects.filter(user=user).exists()


def test_resend_by_email_answers_alike_whoever_has_it(api, signed_up, users):
    user, _, _ = signed_up
    get_user_model().objects.filter(username="member-user").update(email="m@example.org")
    sent = len(mail.outbox)
    waiting = api.post(RESEND, {"email": "Margaret@Example.org"}, format="json")
    assert waiting.status_code == 202, waiting.content
    assert len(mail.outbox) == sent + 1 and mail.outbox[-1].to == [GOOD["email"]]
    for email in ("nobody@example.org", "m@example.org"):  # no login; nothing to confirm
        answer = api.post(RESEND, {"email": email}, format="json")
        assert (answer.status_code, answer.json()) == (202, waiting.json())
    assert len(mail.outbox) == sent + 1
    uid, token = re.search(r"/accounts/verify/([^/\s]+)/([^/\s]+)/",
                           mail.outbox[-1].body).groups()
    assert api.post(CONFIRM, {"uid": uid, "token": token}, format="json").status_code == 200


def test_resend_needs_an_email_or_a_login(api):
    answer = api.post(RESEND, {}, format="json")
    assert answer.status_code == 400 and list(answer.json()) == ["email"]
    bad = api.post(RESEND, {"email": "not an email"}, format="json")
    assert bad.status_code == 400 and list(bad.json()) == ["email"]


def test_resend_is_limited_per_email_asked_whether_or_not_it_exists(api, signed_up,
                                                                     settings):
    settings.ACCOUNT_RATE_LIMITS = {"verify_resend_email": (2, 3600)}
    for email in (GOOD["email"], "nobody@example.org"):
        for n in range(2):
            assert api.post(RESEND, {"email": email}, format="json",
                            REMOTE_ADDR=f"10.0.0.{n}").status_code == 202
        limited = api.post(RESEND, {"email": email.upper()}, format="json",
                           REMOTE_ADDR="10.0.0.9")
        assert limited.status_code == 429
        assert "try again in" in limited.json()["detail"] and int(limited["Retry-After"]) > 0


def test_resend_is_limited_per_address(api, settings):
    settings.ACCOUNT_RATE_LIMITS = {"verify_resend_address": (3, 3600)}
    for n in range(3):
        assert api.post(RESEND, {"email": f"p{n}@example.org"}, format="json").status_code == 202
    assert api.post(RESEND, {"email": "p9@example.org"}, format="json").status_code == 429
    assert api.post(RESEND, {"email": "p9@example.org"}, format="json",
                    REMOTE_ADDR="10.1.2.3").status_code == 202


def test_the_per_login_count_is_the_pages_and_silent_by_email(api, client, signed_up, settings):
    """The page's "Send the link again" and the API share one count per login. Asked by email,
    a login over its count gets no email but the same answer (a 429 would say it exists)."""
    user, _, _ = signed_up
    settings.ACCOUNT_RATE_LIMITS = {"verify_resend": (2, 3600)}
    client.force_login(user)
    assert client.post("/accounts/verify/").status_code == 302
    own = APIClient()
    own.force_authenticate(user)
    sent = len(mail.outbox)
    answer = own.post(RESEND, {}, format="json")
    assert answer.status_code == 202 and GOOD["email"] in answer.json()["detail"]
    assert len(mail.outbox) == sent + 1
    limited = own.post(RESEND, {}, format="json")
    assert limited.status_code == 429 and "try again in" in limited.json()["detail"]
    assert client.post("/accounts/verify/").status_code == 429
    by_email = api.post(RESEND, {"email": GOOD["email"]}, format="json")
    assert by_email.status_code == 202 and len(mail.outbox) == sent + 1


def test_signed_in_with_nothing_to_confirm(users):
    own = APIClient()
    own.force_authenticate(users["member"])
    answer = own.post(RESEND, {}, format="json")
    assert answer.status_code == 202 and "confirmed already" in answer.json()["detail"]
    assert not mail.outbox


def test_an_email_that_cannot_be_sent_is_not_a_500(api, signed_up, monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionRefusedError("no SMTP server")

    monkeypatch.setattr(verification, "send_mail", refuse)
    answer = api.post(RESEND, {"email": GOOD["email"]}, format="json")
    assert answer.status_code == 202


def test_both_are_in_the_schema_and_answer_as_documented(api, signed_up):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    confirm = schema["paths"][CONFIRM]["post"]
    resend = schema["paths"][RESEND]["post"]
    assert set(confirm["responses"]) >= {"200", "400"}
    assert set(resend["responses"]) >= {"202", "400", "429"}
    assert not confirm.get("security") or {} in confirm["security"]  # no login needed
    body = schema["components"]["schemas"][
        confirm["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/")[-1]]
    assert set(body["required"]) == {"uid", "token"}
    _, uid, token = signed_up
    answers = [(CONFIRM, "200", api.post(CONFIRM, {"uid": uid, "token": token}, format="json")),
               (RESEND, "202", api.post(RESEND, {"email": "x@example.org"}, format="json"))]
    for path, status, answer in answers:
        assert answer.status_code == int(status)
        assert not undocumented(schema, answer_schema(schema, path, "post", status),
                                answer.json())
    served = api.get("/api/v1/schema/")
    assert served.status_code == 200 and CONFIRM.encode() in served.content
