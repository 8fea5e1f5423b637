"""Issue #22: personal API tokens, made and revoked by their owner on a page and in the API;
DRF's TokenAuthentication reads them (only their digest is stored); the OpenAPI page says how
to authenticate."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.tokens import issue
from tests.web.conftest import ROLES

pytestmark = pytest.mark.django_db


def expect(role: str, **codes: int) -> int:
    return codes[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_tokens_page_for_every_visitor(client_as, role):
    answer = client_as(role).get("/accounts/tokens/")
    assert answer.status_code == expect(role, admin=200, scorer=200, member=200, outsider=200,
                                        anonymous=302)


def test_a_token_made_on_the_page_works_until_revoked(client_as, club, users):
    page = client_as("scorer")
    made = page.post("/accounts/tokens/", {"name": "League spreadsheet"})
    assert made.status_code == 302
    shown = page.get("/accounts/tokens/").content.decode()
    secret = re.search(r'id="new-token" value="([^"]+)"', shown)[1]
    assert f'curl -H "Authorization: Token {secret}" http://testserver/api/v1/clubs/' in shown
    assert secret not in page.get("/accounts/tokens/").content.decode()  # shown once
    token = ApiToken.objects.get()
    assert token.key != secret and secret not in token.key and token.prefix == secret[:6]
    program = APIClient()
    answer = program.get(f"/api/v1/clubs/{club.slug}/", HTTP_AUTHORIZATION=f"Token {secret}")
    assert answer.status_code == 200 and answer.json()["role"] == "scorer"
    assert page.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 302
    refused = program.get(f"/api/v1/clubs/{club.slug}/", HTTP_AUTHORIZATION=f"Token {secret}")
    assert refused.status_code == 403 and refused.json()["detail"] == "Invalid token."


def test_nobody_revokes_another_persons_token(client_as, users):
    token, _ = issue(users["admin"], "Admin's script")
    client_as("outsider").post(f"/accounts/tokens/{token.pk}/revoke/")
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert client_as("outsider").post("/accounts/tokens/", {"name": " "}).status_code == 400


@pytest.mark.parametrize("role", ROLES)
def test_the_tokens_api(users, role):
    client = APIClient()
    if users[role] is not None:
        client.force_authenticate(users[role])
    theirs, _ = issue(users["admin"], "Admin's script")
    made = client.post("/api/v1/tokens/", {"name": "Phone app"}, format="json")
    assert made.status_code == expect(role, admin=201, scorer=201, member=201, outsider=201,
                                      anonymous=403)
    listed = client.get("/api/v1/tokens/")
    assert listed.status_code == expect(role, admin=200, scorer=200, member=200, outsider=200,
                                        anonymous=403)
    if made.status_code == 201:
        secret = made.json()["token"]
        assert len(secret) == 32 and made.json()["prefix"] == secret[:6]
        names = [t["name"] for t in listed.json()["results"]]
        assert names == (["Phone app", "Admin's script"] if role == "admin" else ["Phone app"])
        assert all(t["token"] is None for t in listed.json()["results"])
        by_token = APIClient().get("/api/v1/tokens/", HTTP_AUTHORIZATION=f"Token {secret}")
        assert by_token.status_code == 200
    other = client.delete(f"/api/v1/tokens/{theirs.pk}/")
    assert other.status_code == expect(role, admin=204, scorer=404, member=404, outsider=404,
                                       anonymous=403)


def test_the_openapi_page_says_how_to_authenticate(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert scheme["name"] == "Authorization" and "/accounts/tokens/" in scheme["description"]
    assert "Token <key>" in scheme["description"]
    assert "curl" in schema["info"]["description"]


def test_tokens_from_the_shell(users, club):
    from io import StringIO

    from django.core.management import CommandError, call_command

    out = StringIO()
    call_command("api_token", "scorer-user", name="Nightly export", stdout=out, stderr=StringIO())
    secret = out.getvalue().strip()
    answer = APIClient().get(f"/api/v1/clubs/{club.slug}/", HTTP_AUTHORIZATION=f"Token {secret}")
    assert answer.status_code == 200
    listed = StringIO()
    call_command("api_token", "scorer-user", list=True, stdout=listed)
    token_id = int(listed.getvalue().split("\t")[0])
    assert "Nightly export" in listed.getvalue() and secret not in listed.getvalue()
    call_command("api_token", "scorer-user", revoke=token_id, stderr=StringIO())
    assert not ApiToken.objects.exists()
    with pytest.raises(CommandError, match="No login 'nobody'"):
        call_command("api_token", "nobody", list=True)
