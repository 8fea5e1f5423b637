"""The web tests' club, users and tables, and generated nights under every built-in house rule."""

from tests.web.conftest import (  # noqa: F401  (fixtures)
    bmja_version,
    chromium,
    client_as,
    club,
    club_session,
    fast_password_hashing,
    house_rule_versions,
    other_club,
    players,
    scorer_api,
    table,
    users,
)
