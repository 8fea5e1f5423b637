"""Settings that cannot be used stop the service with one sentence, not a traceback.

``config.settings`` raises ``ImproperlyConfigured`` with a sentence saying what to write
(``SECRET_KEY must be set when DEBUG is off: ...``, ``CONN_MAX_AGE='ten minutes': ...``).
Django would print it at the end of a fifty-line traceback through its own loading code;
``manage.py`` and the WSGI/ASGI entry points load the settings first through
``settings_or_exit`` so a host sees the sentence alone and the process exits with status 1.
"""

from __future__ import annotations

import sys


def settings_or_exit() -> None:
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    try:
        settings.INSTALLED_APPS  # noqa: B018  (loading the settings module is the check)
    except ImproperlyConfigured as error:
        sys.stderr.write(f"Cannot start: {error}\n")
        raise SystemExit(1) from None
