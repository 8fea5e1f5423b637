"""The web tests' club, roles and clients, and the league tests' seating and hand generator."""

from __future__ import annotations

import pytest
from django.urls import reverse

from houserules.models import HouseRuleRecord
from tests.league import conftest as league
from tests.members.test_house_rule_pages import copy_form
from tests.web import conftest as web

admin_api, bmja_version, client_as, club = web.admin_api, web.bmja_version, web.client_as, web.club
fast_password_hashing, house_rule_versions = web.fast_password_hashing, web.house_rule_versions
other_club, players, users, chromium = web.other_club, web.players, web.users, web.chromium
season, members = league.season, league.members
seat_table, play_hands = league.seat_table, league.play_hands


@pytest.fixture
def ours(client_as, club):  # noqa: F811
    """The club's copy of bmja, unchanged: (admin client, its edit page's address)."""
    client = client_as("admin")
    data = copy_form(client, club)
    data.update(name="Jade rules", slug="jade-rules")
    assert client.post(reverse("club-house-rule-copy", args=[club.slug]), data
                       ).status_code == 302
    assert HouseRuleRecord.objects.get(slug="jade-rules").overrides == {}
    return client, reverse("club-house-rule-edit", args=[club.slug, "jade-rules"])
