"""While the database is down, every request is answered 503 with ``Retry-After`` and a
sentence (a page or JSON), not a 500.

"Down" is a failure to reach the database or to keep a connection to it: PostgreSQL refusing or
dropping the connection (SQLSTATE classes 08 connection exception, 53 too many connections,
57P shutting down or starting up, or no SQLSTATE at all: the client never reached the server),
or SQLite unable to open or lock its file. Any other database error (a missing table, a broken
query) is our bug and stays a 500.

The page is a template of its own that asks nothing of the database (no user, no messages),
rendered without the context processors that would.
"""

from __future__ import annotations

import sys

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

RETRY_AFTER = 30  # seconds: a restart or a failover takes about this long
SENTENCE = ("The database is not answering just now, so this could not be done. Try again in "
            "a minute; if you were saving something, look whether it is there before saving "
            "it again.")
_SQLSTATE_DOWN = ("08", "53", "57P")
_SQLITE_DOWN = ("unable to open database", "database is locked", "disk i/o error",
                "readonly database")


def database_unavailable(error: BaseException | None) -> bool:
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    if isinstance(error, InterfaceError):
        return True  # the connection is gone ("connection already closed")
    cause = error.__cause__ or error
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate:
        return sqlstate.startswith(_SQLSTATE_DOWN)
    if type(cause).__module__.startswith("sqlite3"):
        text = str(cause).lower()
        return any(words in text for words in _SQLITE_DOWN)
    return True  # psycopg without a SQLSTATE: the server was never reached


def wants_json(request) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get(
        "Accept", "")


def unavailable_response(request) -> HttpResponse:
    if wants_json(request):
        response = JsonResponse({"detail": SENTENCE}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"sentence": SENTENCE}),
                                status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailable:
    """A view that failed because the database is down answers 503 (pages; the API's own
    exception handler does the same for DRF views)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if database_unavailable(exception):
            return unavailable_response(request)
        return None


def server_error(request, *args, **kwargs):
    """``handler500``: a failure outside any view (a middleware reading the session or the
    user) is answered 503 too when the database is down; anything else is Django's own 500."""
    from django.views.defaults import server_error as django_server_error

    if database_unavailable(sys.exc_info()[1]):
        return unavailable_response(request)
    return django_server_error(request, *args, **kwargs)
