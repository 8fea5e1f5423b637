"""Issue #13: Schemathesis drives every operation of the OpenAPI schema, anonymously and as a
club admin (not staff) with a club's data present, and checks that nothing answers 500 and
every answer matches the schema. Deterministic (derandomized), a few examples per operation.
Run with ``-s`` to see the operations, requests and status codes."""

from __future__ import annotations

import logging
from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)

from accounts.tokens import issue
from clubs.demo import load_demo_club
from clubs.models import Member, MemberRole

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
EXAMPLES = settings(max_examples=15, derandomize=True, deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck))


def _fuzz(headers: dict) -> tuple[int, Counter, list[str]]:
    from config.wsgi import application

    # Thousands of expected 4xx answers would each be logged as a warning.
    logging.getLogger("django.request").setLevel(logging.ERROR)
    # As Django's test client does: the test's transaction holds the connection, which the
    # end of each request would otherwise close (PostgreSQL: "the connection is closed").
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        return _run(application, headers)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _run(application, headers: dict) -> tuple[int, Counter, list[str]]:

    api = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    statuses: Counter = Counter()
    failures: list[str] = []
    operations = [result.ok() for result in api.get_all_operations()]
    for operation in operations:

        @given(case=operation.as_strategy())
        @EXAMPLES
        def run(case):
            response = case.call(headers=headers)
            statuses[response.status_code] += 1
            case.validate_response(response, checks=CHECKS, headers=headers)

        try:
            run()
        except Exception as error:  # every operation's first failure, not only the first one
            failures.append(f"{operation.label}: {str(error)[:1500]}")
    print(f"\n{len(operations)} operations, {sum(statuses.values())} requests, "
          f"status codes {dict(sorted(statuses.items()))}, {len(failures)} failing")
    return len(operations), statuses, failures


@pytest.fixture
def club_admin_token(db):
    """The demo club's data, and a club admin of it who is not staff."""
    from django.contrib.auth import get_user_model

    club = load_demo_club()
    user = get_user_model().objects.create_user("fuzz-admin", password="fuzz-pass-12345")
    Member.objects.create(club=club, user=user, display_name="Fuzz Admin",
                          role=MemberRole.ADMIN)
    return issue(user, "fuzzing")[1]


def test_anonymous(db):
    operations, statuses, failures = _fuzz({})
    assert operations > 30
    assert not failures, "\n\n".join(failures)
    assert statuses[500] == 0


def test_as_a_club_admin_with_data(club_admin_token):
    operations, statuses, failures = _fuzz({"Authorization": f"Token {club_admin_token}"})
    assert not failures, "\n\n".join(failures)
    assert statuses[500] == 0 and statuses[200] + statuses[201] > operations
