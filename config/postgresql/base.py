"""Django's PostgreSQL backend, with a per-request health check that sends nothing.

With persistent connections (``CONN_MAX_AGE``) Django can check, at the start of each request,
that the connection it kept still works (``CONN_HEALTH_CHECKS``); its check is ``SELECT 1``, one
round trip to the server on every request. Measured here that was a quarter of the round trips
of recording a hand, and under load each costs the app and the server a context switch.

A connection that sits idle between requests has nothing to read. When the server ends it
(a restart, ``pg_terminate_backend``, a crash) the kernel or the server writes to it: an error
message, then end of file. So "is there anything to read?" asked of the socket, without waiting,
tells a dead connection from a live one; such a connection is closed and the request opens a
new one. Anything unexpected to read (a notice) also closes it, which costs only a reconnect.

After an error inside a request Django still uses the full check (``is_usable``), unchanged.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self):
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        if not self.idle_connection_alive():
            self.close()
        self.health_check_done = True

    def idle_connection_alive(self) -> bool:
        """True if the kept connection is open and its socket has nothing waiting to be read."""
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        try:
            return not _readable(conn.fileno())
        except (OSError, ValueError):
            return False


def _readable(fd: int) -> bool:
    """Whether the socket has something to read (or has ended), without waiting. poll, not
    select: select cannot watch a descriptor numbered 1024 or more."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    readable, _, _ = select.select([fd], [], [], 0)
    return bool(readable)
