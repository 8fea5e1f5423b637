"""The web tests' club, roles and clients, shared by the history tests."""

from tests.league import conftest as league

admin_api, bmja_version, client_as, club = (league.admin_api, league.bmja_version,
                                            league.client_as, league.club)
fast_password_hashing, house_rule_versions = league.fast_password_hashing, league.house_rule_versions
other_club, players, users = league.other_club, league.players, league.users
members, season, make_season = league.members, league.season, league.make_season
chromium = league.web.chromium
