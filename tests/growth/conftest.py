"""The web tests' club and roles, shared here."""

from tests.web import conftest as web

bmja_version, club, house_rule_versions = web.bmja_version, web.club, web.house_rule_versions
fast_password_hashing, other_club, users = web.fast_password_hashing, web.other_club, web.users
