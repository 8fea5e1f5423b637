"""A season's league rules changed on the page or over the API leave an audit entry that says
what they were and what they became (issue #21)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import AuditEntry
from tests.league.test_pages import played, url  # noqa: F401  the same two nights

pytestmark = pytest.mark.django_db


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_league_rules_changed_over_the_api_are_audited(users, club, played):  # noqa: F811
    path = f"/api/v1/seasons/{played.pk}/league-rules/"
    assert _api(users["admin"]).put(path, {"preset": "table-points-half"},
                                    format="json").status_code == 200
    assert _api(users["admin"]).put(path, {"min_nights": 2}, format="json").status_code == 200
    first, second = AuditEntry.objects.filter(object_type="league_rules").order_by("pk")
    assert first.club == club and first.user == users["admin"]
    assert first.object_id == str(played.pk) and first.after["measure"] == "table_points"
    assert second.action == "update"
    assert second.before["min_nights"] == 0 and second.after["min_nights"] == 2
    # A refused change writes nothing.
    assert _api(users["member"]).put(path, {"min_nights": 5}, format="json").status_code == 403
    assert AuditEntry.objects.filter(object_type="league_rules").count() == 2


def test_the_pages_entry_says_what_the_rules_were(client_as, club, played):  # noqa: F811
    fields = {"measure": "net", "combine": "sum", "points": "4-2-1-0", "min_share": 0}
    admin = client_as("admin")
    assert admin.post(url(club, played, "league-rules"),
                      {**fields, "min_nights": 1}).status_code == 302
    assert admin.post(url(club, played, "league-rules"),
                      {**fields, "min_nights": 3}).status_code == 302
    last = AuditEntry.objects.filter(object_type="league_rules").order_by("pk").last()
    assert last.before["min_nights"] == 1 and last.after["min_nights"] == 3
