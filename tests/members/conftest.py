"""The web tests' club, roles and clients, and the league tests' seating and hand generator."""

from __future__ import annotations

from tests.league import conftest as league
from tests.web import conftest as web

admin_api, bmja_version, client_as, club = web.admin_api, web.bmja_version, web.client_as, web.club
fast_password_hashing, house_rule_versions = web.fast_password_hashing, web.house_rule_versions
other_club, players, users, chromium = web.other_club, web.players, web.users, web.chromium
season, members = league.season, league.members
seat_table, play_hands = league.seat_table, league.play_hands
