"""What the phone keeps for recording without signal (issue #24): the service worker's script,
and the mark on the pages it may keep.

The worker is served from the site's root (``/sw.js``) so that it may look after the club
pages; it is a template only for the static files' and logout's addresses.
"""

from __future__ import annotations

from django.shortcuts import render

OFFLINE_KEEP = "X-Offline-Keep"


def service_worker(request):
    response = render(request, "offline/sw.js", content_type="text/javascript")
    # A new release's worker is picked up on the next visit, not a day later.
    response["Cache-Control"] = "no-cache"
    return response


def kept_offline(response):
    """Mark a page the worker may keep: a table's page or record page, for its scorers."""
    response[OFFLINE_KEEP] = "1"
    return response
