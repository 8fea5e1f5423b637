"""Issue #13, abuse: DRF throttles (anonymous, per user, the public calculators' own scope)
answer 429 past their rate, and django-axes locks a login out after repeated wrong passwords
at the pages' login and the admin's, the right password included."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.houserules.conftest import hand

LOCMEM = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
DRAGONS = hand("chow b1, chow c5, chow d3, pung dr", "d7 d7", win="d7 discard")


@pytest.fixture
def throttled(settings):
    settings.CACHES = LOCMEM
    settings.API_THROTTLE_RATES = {"anon": "5/min", "user": "8/min", "calculator": "3/min"}
    cache.clear()
    yield
    cache.clear()


def test_anonymous_requests_are_throttled(api_as, throttled, db):
    client = api_as("anonymous")
    codes = [client.get("/api/v1/house-rules/").status_code for _ in range(7)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
    assert "throttled" in client.get("/api/v1/house-rules/").json()["detail"]


def test_each_user_is_throttled_on_their_own(api_as, throttled, users):
    admin, member = api_as("admin"), api_as("member")
    codes = [admin.get("/api/v1/clubs/").status_code for _ in range(9)]
    assert codes[:8] == [200] * 8 and codes[8] == 429
    assert member.get("/api/v1/clubs/").status_code == 200


def test_the_calculators_have_their_own_lower_rate(api_as, throttled, db):
    client = api_as("anonymous")
    codes = [client.post("/api/v1/score", DRAGONS, format="json").status_code
             for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    # Other endpoints still have the anonymous rate's remainder.
    assert client.get("/api/v1/house-rules/").status_code == 200


def test_no_rates_no_throttling(api_as, settings, db):
    settings.API_THROTTLE_RATES = {}
    client = api_as("anonymous")
    assert {client.get("/api/v1/house-rules/").status_code for _ in range(30)} == {200}


@pytest.fixture
def lockout(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_repeated_wrong_passwords_lock_the_login_out(client, lockout, users, url):
    from django.contrib.auth import get_user_model

    from tests.web.conftest import PASSWORD

    user = users["admin"]
    get_user_model().objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    for _ in range(5):
        wrong = client.post(url, {"username": user.username, "password": "wrong-guess"})
        assert wrong.status_code in (200, 429)
    right = client.post(url, {"username": user.username, "password": PASSWORD})
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_right_password_before_the_limit_logs_in(client, lockout, users):
    from tests.web.conftest import PASSWORD

    user = users["admin"]
    for _ in range(3):
        client.post("/accounts/login/", {"username": user.username, "password": "wrong"})
    right = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert right.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_the_api_docs_load_nothing_from_the_internet(client, db):
    from django.contrib.staticfiles import finders

    page = client.get("/api/v1/docs/").content.decode()
    assert "cdn." not in page and "@latest" not in page and "https://" not in page
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
