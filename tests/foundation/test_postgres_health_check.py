"""The per-request health check of kept PostgreSQL connections (config/postgresql): it notices
a connection the server has ended, and sends nothing on a live one."""

import time

import psycopg
import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's own backend"),
]


def _kept_connection():
    """The connection as a request leaves it: open, idle, to be checked by the next request."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    connection.health_check_enabled = True
    connection.health_check_done = False
    return pid


def _terminate(pid: int) -> None:
    params = connection.get_connection_params()
    kwargs = {k: v for k, v in params.items() if k in {"host", "port", "user", "password"}}
    with psycopg.connect(dbname="postgres", autocommit=True, **kwargs) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_connection_the_server_ended_is_closed_and_the_next_query_reconnects():
    pid = _kept_connection()
    dead = connection.connection
    _terminate(pid)
    # The server's goodbye reaches the socket a moment after pg_terminate_backend returns.
    for _ in range(100):
        if not connection.idle_connection_alive():
            break
        time.sleep(0.02)
    connection.close_if_health_check_failed()
    assert connection.connection is None and dead.closed
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


def test_a_live_connection_is_kept_without_a_query(monkeypatch):
    _kept_connection()
    kept = connection.connection
    sent = []
    monkeypatch.setattr(connection, "is_usable", lambda: sent.append("SELECT 1") or True)
    connection.close_if_health_check_failed()
    assert connection.connection is kept and not kept.closed
    assert connection.health_check_done and sent == []
