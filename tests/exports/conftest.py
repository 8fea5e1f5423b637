"""The web tests' club, roles and clients, for the downloads checked here."""

from tests.web import conftest as web

bmja_version, client_as, club, fast_password_hashing = (
    web.bmja_version, web.client_as, web.club, web.fast_password_hashing)
house_rule_versions, other_club, users = web.house_rule_versions, web.other_club, web.users
