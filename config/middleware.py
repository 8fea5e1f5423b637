"""Refuse NUL characters and oversize API bodies at the door, and take out the invisible
controls that reverse the direction of the text after them.

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


# Unicode's explicit direction controls: embeddings and overrides (U+202A-U+202E) and isolates
# (U+2066-U+2069), raw in UTF-8, percent-encoded in a form, or as a JSON escape.
_DIRECTION_CONTROLS = re.compile(
    rb"\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]"
    rb"|%e2%80%a[a-e]|%e2%81%a[6-9]"
    rb"|(?<!\\)\\u202[a-e]|(?<!\\)\\u206[6-9]", re.IGNORECASE)

_DIRECTION_TEXT = re.compile("[\u202a-\u202e\u2066-\u2069]")


class StripDirectionControls:
    """A name is shown on other people's screens, sheets and spreadsheets: a right-to-left
    override (U+202E) typed into it, left unclosed, turns the words after it backwards there
    ("Zoë won" on a button). No name or note needs these controls (right-to-left names are
    laid out by the bidirectional algorithm itself, and the marks U+200E/U+200F stay), so they
    are taken out of every form and API body before any view reads it: one place for pages
    and the API, before a form checks a name against the names already stored."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("POST", "PUT", "PATCH"):
            if (request.content_type or "").startswith("multipart/"):
                self._strip_fields(request)  # the fields only: an uploaded file stays whole
            else:
                body = request.body
                if _DIRECTION_CONTROLS.search(body):
                    request._body = _DIRECTION_CONTROLS.sub(b"", body)
        return self.get_response(request)

    @staticmethod
    def _strip_fields(request) -> None:
        fields = request.POST
        if not any(_DIRECTION_TEXT.search(v) for _, values in fields.lists() for v in values):
            return
        fields = fields.copy()
        for key, values in fields.lists():
            fields.setlist(key, [_DIRECTION_TEXT.sub("", v) for v in values])
        request._post = fields
