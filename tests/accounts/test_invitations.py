"""Issue #22: invitation links (single use, expiring, revocable, audited), on the pages and in
the API, for each role, another club's admin and an anonymous visitor."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import invitations
from accounts.models import Invitation
from clubs.models import AuditEntry, Member
from tests.web.conftest import ROLES

pytestmark = pytest.mark.django_db

JOIN = {"email": "sam@example.org", "password1": "kong-of-winds-8",
        "password2": "kong-of-winds-8"}


def expect(role: str, **codes: int) -> int:
    return codes[role]


@pytest.fixture
def api_as(users):
    def make(role: str) -> APIClient:
        client = APIClient()
        if users[role] is not None:
            client.force_authenticate(users[role])
        return client

    return make


@pytest.fixture
def mailbox(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return mail.outbox


def made_link(client, club) -> str:
    page = client.get(f"/clubs/{club.slug}/invitations/").content.decode()
    return re.search(r'id="invite-link" rows="2" readonly>http://testserver(/invite/[^<]+/)<',
                     page)[1]


@pytest.mark.parametrize("role", ROLES)
def test_the_invitations_page_is_for_club_admins(client_as, club, role):
    answer = client_as(role).get(f"/clubs/{club.slug}/invitations/")
    assert answer.status_code == expect(role, admin=200, scorer=403, member=403, outsider=404,
                                        anonymous=404)
    made = client_as(role).post(f"/clubs/{club.slug}/invitations/",
                                {"name": "Sam", "role": "scorer", "days": 14})
    assert made.status_code == expect(role, admin=302, scorer=403, member=403, outsider=404,
                                      anonymous=404)
    assert Invitation.objects.exists() == (role == "admin")


def test_a_scorer_sets_a_password_from_the_link_and_joins(client_as, club, users, mailbox,
                                                           client, settings):
    settings.SIGNUP = "invite-only"  # invitations make logins whatever the setting
    admin = client_as("admin")
    admin.post(f"/clubs/{club.slug}/invitations/",
               {"name": "Sam", "role": "scorer", "email": "sam@example.org", "days": 7})
    link = made_link(admin, club)
    assert link in mailbox[0].body and mailbox[0].to == ["sam@example.org"]
    again = admin.get(f"/clubs/{club.slug}/invitations/").content.decode()
    assert 'id="invite-link"' not in again  # shown once
    assert "Sam</strong>, scorer" in again
    admin.post("/accounts/logout/")

    page = client.get(link)
    assert page.status_code == 200 and "Set your password" in page.content.decode()
    joined = client.post(link, {**JOIN, "password2": "other-password-9"})
    assert joined.status_code == 400 and not Member.objects.filter(display_name="Sam").exists()
    joined = client.post(link, JOIN)
    assert joined.status_code == 302 and joined["Location"] == f"/clubs/{club.slug}/"
    sam = Member.objects.get(club=club, display_name="Sam")
    assert sam.role == "scorer" and sam.user.username == "sam@example.org"
    assert client.get(f"/clubs/{club.slug}/").status_code == 200
    used = client.get(link)
    assert used.status_code == 410 and "used already" in used.content.decode()
    notes = set(AuditEntry.objects.filter(club=club).values_list("note", flat=True))
    assert {"Invitation made", "Invitation used", "Joined from an invitation"} <= notes


def test_an_invitation_for_a_member_on_the_score_sheets(client_as, club, players, users):
    alice = players[0]
    admin = client_as("admin")
    page = admin.get(f"/clubs/{club.slug}/invitations/?member={alice.pk}").content.decode()
    assert f'<option value="{alice.pk}" selected>' in page
    admin.post(f"/clubs/{club.slug}/invitations/", {"member": alice.pk, "role": "member",
                                                    "days": 14})
    link = made_link(admin, club)
    outsider = client_as("outsider")
    outsider.force_login(users["outsider"])
    answer = outsider.post(link)
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.user == users["outsider"] and Member.objects.filter(club=club).count() == 7


def test_refusals_say_why(client_as, club, users, client):
    invitation, secret = invitations.invite(club, users["admin"], name="Tom")
    member = client_as("member")
    already = member.post(f"/invite/{secret}/")
    assert already.status_code == 400 and "already a member" in already.content.decode()
    assert Invitation.objects.get().state == "open"
    assert client.get("/invite/not-a-real-one/").status_code == 404
    invitation.expires = timezone.now() - dt.timedelta(minutes=1)
    invitation.save()
    expired = client.get(f"/invite/{secret}/")
    assert expired.status_code == 410 and "expired" in expired.content.decode()
    _, secret2 = invitations.invite(club, users["admin"], name="Una")
    client_as("admin").post(f"/clubs/{club.slug}/invitations/"
                            f"{Invitation.objects.get(name='Una').pk}/withdraw/")
    withdrawn = client.get(f"/invite/{secret2}/")
    assert withdrawn.status_code == 410 and "withdrawn" in withdrawn.content.decode()
    with pytest.raises(invitations.InvitationRefused, match="already has a member called"):
        invitations.invite(club, users["admin"], name="Admin")


@pytest.mark.parametrize("role", ROLES)
def test_withdrawing_is_for_club_admins(client_as, club, users, role):
    invitation, _ = invitations.invite(club, users["admin"], name="Vic")
    answer = client_as(role).post(f"/clubs/{club.slug}/invitations/{invitation.pk}/withdraw/")
    assert answer.status_code == expect(role, admin=302, scorer=403, member=403, outsider=404,
                                        anonymous=404)
    invitation.refresh_from_db()
    assert (invitation.revoked_at is not None) == (role == "admin")


@pytest.mark.parametrize("role", ROLES)
def test_the_invitations_api(api_as, club, users, role):
    client = api_as(role)
    made = client.post("/api/v1/invitations/", {"club": club.slug, "name": "Wyn",
                                                "role": "scorer"}, format="json")
    assert made.status_code == expect(role, admin=201, scorer=403, member=403, outsider=400,
                                      anonymous=403), made.json()
    if role == "admin":
        body = made.json()
        assert body["link"].startswith("http://testserver/invite/") and body["state"] == "open"
        assert client.get(f"/api/v1/invitations/{body['id']}/").json()["link"] is None
    invitation, secret = invitations.invite(club, users["admin"], name="Xan")
    listed = client.get("/api/v1/invitations/")
    assert listed.status_code == expect(role, admin=200, scorer=403, member=403, outsider=200,
                                        anonymous=403)
    if role == "outsider":
        assert listed.json()["results"] == []
    revoked = client.post(f"/api/v1/invitations/{invitation.pk}/revoke/")
    assert revoked.status_code == expect(role, admin=200, scorer=404, member=404, outsider=404,
                                         anonymous=404)


def test_taking_an_invitation_through_the_api(api_as, club, users):
    _, secret = invitations.invite(club, users["admin"], name="Yas", role="scorer")
    outsider = api_as("outsider")
    assert outsider.post("/api/v1/invitations/accept/", {"token": "nope"},
                         format="json").status_code == 404
    answer = outsider.post("/api/v1/invitations/accept/", {"token": secret}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"club": club.slug, "member": answer.json()["member"],
                             "display_name": "Yas", "role": "scorer"}
    again = outsider.post("/api/v1/invitations/accept/", {"token": secret}, format="json")
    assert again.status_code == 409 and "used already" in again.json()["detail"]
    assert APIClient().post("/api/v1/invitations/accept/", {"token": secret},
                            format="json").status_code == 403
    assert get_user_model().objects.filter(username="outsider-user").get().memberships.count() \
        == 2


@pytest.mark.parametrize("role", ROLES)
def test_an_invitation_link_for_every_visitor(client_as, club, users, role):
    """Anyone holding the link may use it once; the club's own members are told they belong
    already, and the link stays for whoever it was meant for."""
    _, secret = invitations.invite(club, users["admin"], name="Quin", role="scorer")
    client = client_as(role)
    assert client.get(f"/invite/{secret}/").status_code == 200
    answer = client.post(f"/invite/{secret}/", JOIN if role == "anonymous" else {})
    assert answer.status_code == expect(role, admin=400, scorer=400, member=400, outsider=302,
                                        anonymous=302)
    assert Invitation.objects.get().state == ("used" if role in ("outsider", "anonymous")
                                              else "open")


class RefusingMailServer:
    """An email backend whose SMTP server is down."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise OSError("Connection refused")


def test_a_mail_server_that_is_down_still_shows_the_link(client_as, club, users, settings):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingMailServer"
    admin = client_as("admin")
    made = admin.post(f"/clubs/{club.slug}/invitations/",
                      {"name": "Rae", "role": "member", "email": "rae@example.org", "days": 3})
    assert made.status_code == 302
    page = admin.get(f"/clubs/{club.slug}/invitations/").content.decode()
    assert "The email could not be sent just now" in page and 'id="invite-link"' in page
    api = APIClient()
    api.force_authenticate(users["admin"])
    body = api.post("/api/v1/invitations/", {"club": club.slug, "name": "Sol",
                                                "email": "sol@example.org"}, format="json")
    assert body.status_code == 201 and body.json()["emailed"] is False and body.json()["link"]
