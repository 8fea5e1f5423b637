"""Issue #13: Schemathesis drives every operation of the OpenAPI schema, anonymously, as a
club admin and as a club scorer (neither staff) with a club's data present, and checks that
nothing answers 500 and every answer matches the schema; issue #21 adds a stateful run, where
the answers of one call feed the next (the links schemathesis infers from the schema). Deterministic (derandomized), a few examples per operation.
Run with ``-s`` to see the operations, requests and status codes."""

from __future__ import annotations

import logging
from collections import Counter

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
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


def _token_of(role: str) -> str:
    from django.contrib.auth import get_user_model

    club = load_demo_club()
    user = get_user_model().objects.create_user(f"fuzz-{role}", password="fuzz-pass-12345")
    Member.objects.create(club=club, user=user, display_name=f"Fuzz {role.title()}",
                          role=role)
    return issue(user, "fuzzing")[1]


@pytest.fixture
def club_admin_token(db):
    """The demo club's data, and a club admin of it who is not staff."""
    return _token_of(MemberRole.ADMIN)


@pytest.fixture
def club_scorer_token(db):
    """The demo club's data, and a scorer of it: may record, may not run the club."""
    return _token_of(MemberRole.SCORER)


def test_anonymous(db):
    operations, statuses, failures = _fuzz({})
    assert operations > 30
    assert not failures, "\n\n".join(failures)
    assert statuses[500] == 0


def test_as_a_club_admin_with_data(club_admin_token):
    operations, statuses, failures = _fuzz({"Authorization": f"Token {club_admin_token}"})
    assert not failures, "\n\n".join(failures)
    assert statuses[500] == 0 and statuses[200] + statuses[201] > operations


def test_as_a_club_scorer_with_data(club_scorer_token):
    operations, statuses, failures = _fuzz({"Authorization": f"Token {club_scorer_token}"})
    assert not failures, "\n\n".join(failures)
    assert statuses[500] == 0 and statuses[200] + statuses[201] > operations / 2


def test_stateful_as_a_club_admin(club_admin_token):
    """Sequences of calls, each using what an earlier answer gave (an id, a slug)."""
    from hypothesis import settings as hsettings

    from config.wsgi import application

    logging.getLogger("django.request").setLevel(logging.ERROR)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    headers = {"Authorization": f"Token {club_admin_token}"}
    try:
        api = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
        machine = api.as_state_machine()

        class Calls(machine):  # type: ignore[misc, valid-type]
            # Each sequence starts from the same data (a savepoint rolled back after it), so
            # hypothesis sees the same answers when it runs a sequence again.
            def setup(self):
                self.savepoint = transaction.savepoint()

            def teardown(self):
                transaction.savepoint_rollback(self.savepoint)

            def get_call_kwargs(self, case):
                return {"headers": headers}

            def validate_response(self, response, case, **kwargs):
                case.validate_response(response, checks=CHECKS, headers=headers)

        Calls.run(settings=hsettings(max_examples=25, stateful_step_count=6,
                                     derandomize=True, deadline=None, database=None,
                                     suppress_health_check=list(HealthCheck)))
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
