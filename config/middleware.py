"""Refuse NUL characters and oversize API bodies at the door.

PostgreSQL cannot store a NUL (U+0000) in text or JSON, and psycopg raises as soon as one is
sent, wherever it came from: a query parameter, a form field, a string inside a JSON body. No
club data ever needs one, so one check here answers every such request with a clear 400 instead
of each view having to remember it.
"""

import re

from django.conf import settings
from django.http import HttpResponseBadRequest, JsonResponse

MESSAGE = (
    "The request contains a NUL character (\\u0000), which cannot be stored. "
    "Remove it and send the request again."
)
# A NUL as a raw byte or as a JSON escape (not an escaped backslash before it); in a form body,
# percent-encoded.
_NUL_IN_BODY = re.compile(rb"\x00|(?<!\\)\\u0000", re.IGNORECASE)
_NUL_IN_FORM = re.compile(rb"\x00|%00")


class RefuseNulCharacters:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if self._has_nul(request):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": MESSAGE}, status=400)
            return HttpResponseBadRequest(MESSAGE, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _has_nul(request) -> bool:
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return True
        if request.method not in ("POST", "PUT", "PATCH"):
            return False
        content_type = request.content_type or ""
        if content_type.startswith("multipart/"):
            return False  # no uploads here; Django's form fields refuse NUL themselves
        form = content_type == "application/x-www-form-urlencoded"
        if form and not request.path.startswith("/api/"):
            # A page's form refuses a NUL on the field it was typed in (Django's form fields
            # do), so the scorer gets the form back with what to mend, not a bare text page.
            return False
        pattern = _NUL_IN_FORM if form else _NUL_IN_BODY
        return bool(pattern.search(request.body))


class OversizeApiBodies:
    """An API body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` gets a JSON 413 saying the limit, where
    Django would answer its HTML "Bad Request" page when the body is first read (pages keep
    Django's answer)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > limit:
                return JsonResponse({"detail": (
                    f"The request body is {length:,} bytes; the API accepts at most {limit:,}. "
                    "Send less at once (one hand per request).")}, status=413)
        return self.get_response(request)
