"""Issue #13: every endpoint and page of a private club, tried by another club's admin, scorer
and member and by an anonymous visitor. None of them reads anything of the club (its names,
notes, scores) or changes anything: each answer is a refusal (401/403/404, a 400 that names no
object of the club, or the login page)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.models import (
    AuditEntry,
    ClubSession,
    Hand,
    HouseRuleRecord,
    Member,
    Season,
    Table,
)
from clubs.recording import record_hand
from tests.hardening.conftest import PRIVATE

SECRET = "Moonlit-secret-notes"
QUICK = {"E": {"score": 0}, "S": {"score": 0}, "W": {"score": 0}, "N": {"score": 0}}
OUTSIDERS = ["outsider-admin", "outsider-scorer", "outsider-member", "anonymous"]


@pytest.fixture
def private_club(table, private_rule, users):
    """The club's table with one recorded hand, a season, notes and a private house rule."""
    session = table.session
    session.notes = SECRET
    session.save()
    Season.objects.create(club=session.club, name="Secret season", start=dt.date(2026, 1, 1),
                          end=dt.date(2026, 12, 31))
    record_hand(table, {"draw": True, "winner": None, "seats": QUICK}, users["scorer"])
    return session.club


@pytest.fixture
def outsiders(users, other_club):
    made = {"outsider-admin": users["outsider"], "anonymous": None}
    for role in ("scorer", "member"):
        user = get_user_model().objects.create_user(f"outsider-{role}", password="pw-far-9876")
        Member.objects.create(club=other_club, user=user, display_name=f"Far {role}", role=role)
        made[f"outsider-{role}"] = user
    return made


def _requests(club, session, table, hand, admin_member, season):
    """(method, url, body, is_api): every API operation and page naming the club's objects."""
    s, t, h, m = session.pk, table.pk, hand.pk, admin_member.pk
    page = f"/clubs/{club.slug}/sessions/{s}/"
    seats = [{"guest_name": n, "starting_wind": w} for n, w in zip("ABCD", "ESWN", strict=True)]
    return [
        ("get", f"/api/v1/clubs/{club.slug}/", None, True),
        ("patch", f"/api/v1/clubs/{club.slug}/", {"name": "Taken"}, True),
        ("delete", f"/api/v1/clubs/{club.slug}/", None, True),
        ("get", f"/api/v1/members/?club={club.slug}", None, True),
        ("get", f"/api/v1/members/{m}/", None, True),
        ("post", "/api/v1/members/", {"club": club.slug, "display_name": "Spy"}, True),
        ("patch", f"/api/v1/members/{m}/", {"role": "member"}, True),
        ("delete", f"/api/v1/members/{m}/", None, True),
        ("get", f"/api/v1/seasons/?club={club.slug}", None, True),
        ("get", f"/api/v1/seasons/{season.pk}/", None, True),
        ("post", "/api/v1/seasons/", {"club": club.slug, "name": "Spy season",
                                      "start": "2026-01-01", "end": "2026-12-31"}, True),
        ("patch", f"/api/v1/seasons/{season.pk}/", {"name": "Renamed"}, True),
        ("delete", f"/api/v1/seasons/{season.pk}/", None, True),
        ("get", f"/api/v1/sessions/?club={club.slug}", None, True),
        ("get", f"/api/v1/sessions/{s}/", None, True),
        ("get", f"/api/v1/sessions/{s}/totals/", None, True),
        ("post", "/api/v1/sessions/", {"club": club.slug, "date": "2026-12-01",
                                       "house_rule_version": session.house_rule_version_id},
         True),
        ("patch", f"/api/v1/sessions/{s}/", {"notes": "changed"}, True),
        ("delete", f"/api/v1/sessions/{s}/", None, True),
        ("get", f"/api/v1/tables/?session={s}", None, True),
        ("get", f"/api/v1/tables/{t}/", None, True),
        ("get", f"/api/v1/tables/{t}/state/", None, True),
        ("post", "/api/v1/tables/", {"session": s, "seats": seats}, True),
        ("post", f"/api/v1/tables/{t}/swap-seats/", {"seat_a": 1, "seat_b": 2,
                                                      "from_hand": 1}, True),
        ("delete", f"/api/v1/tables/{t}/", None, True),
        ("get", f"/api/v1/hands/?table={t}", None, True),
        ("get", f"/api/v1/hands/{h}/", None, True),
        ("post", "/api/v1/hands/", {"table": t, "draw": True, "seats": QUICK}, True),
        ("post", "/api/v1/hands/preview/", {"table": t, "draw": True, "seats": QUICK}, True),
        ("patch", f"/api/v1/hands/{h}/", {"draw": True}, True),
        ("post", f"/api/v1/hands/{h}/void/", {"reason": "spite"}, True),
        ("get", f"/api/v1/audit-entries/?club={club.slug}", None, True),
        ("get", f"/api/v1/house-rules/{PRIVATE}/", None, True),
        ("get", f"/api/v1/house-rules/{PRIVATE}/versions/1/", None, True),
        ("patch", f"/api/v1/house-rules/{PRIVATE}/", {"name": "Taken"}, True),
        ("get", f"/clubs/{club.slug}/", None, False),
        ("post", f"/clubs/{club.slug}/sessions/new/", {"date": "2026-12-01"}, False),
        ("get", page, None, False),
        ("post", page + "status/", {"status": "closed"}, False),
        ("post", page + "tables/new/", {}, False),
        ("get", f"{page}tables/{t}/", None, False),
        ("get", f"{page}tables/{t}/record/", None, False),
        ("post", f"{page}tables/{t}/record/", {}, False),
        ("get", f"{page}tables/{t}/hands/{h}/correct/", None, False),
        ("post", f"{page}tables/{t}/hands/{h}/correct/", {}, False),
    ]


def _snapshot() -> tuple:
    return (Hand.objects.count(), Hand.objects.filter(voided=True).count(),
            AuditEntry.objects.count(), Member.objects.count(), Season.objects.count(),
            ClubSession.objects.count(), Table.objects.count(),
            list(ClubSession.objects.values_list("notes", "status")),
            list(HouseRuleRecord.objects.values_list("name", flat=True)))


@pytest.mark.parametrize("who", OUTSIDERS)
def test_outsiders_read_and_change_nothing(private_club, outsiders, users, who):
    session = private_club.sessions.get()
    table = session.tables.get()
    hand = table.hands.get()
    admin = Member.objects.get(user=users["admin"])
    season = private_club.seasons.get()
    before = _snapshot()
    user = outsiders[who]
    api, pages = APIClient(), APIClient()
    if user is not None:
        api.force_authenticate(user)
        pages.force_login(user)
    leaks = []
    for method, url, body, is_api in _requests(private_club, session, table, hand, admin,
                                               season):
        client = api if is_api else pages
        response = getattr(client, method)(url, body, format="json" if is_api else None)
        text = response.content.decode(errors="replace")
        refused = response.status_code in (401, 403, 404) or (
            response.status_code == 400 and is_api) or (
            response.status_code == 302 and "/accounts/login/" in response["Location"])
        listed_nothing = response.status_code == 200 and is_api and method == "get" and (
            response.json().get("results") == [])
        if not (refused or listed_nothing) or any(
                secret in text for secret in (SECRET, "Secret season", "Alice", "jade-secret",
                                              "Jade's secret")):
            leaks.append(f"{method.upper()} {url}: {response.status_code} {text[:200]}")
    assert not leaks, "\n".join(leaks)
    assert _snapshot() == before
