"""Bounds on what one API request can ask of the server: how deep its JSON nests, and how far
its ``limit`` and ``offset`` reach. Past them the answer is a clear 400 or a capped page, never
a server error (a parser out of stack, ``bigint out of range`` on PostgreSQL)."""

from __future__ import annotations

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.pagination import LimitOffsetPagination

# A hand nests five levels (seats -> wind -> melds -> list -> meld); a house rule's overrides
# a few more. Twenty leaves room for any honest request and none for a 1,000-deep one.
MAX_JSON_DEPTH = 20
TOO_DEEP = (f"The JSON body nests deeper than {MAX_JSON_DEPTH} levels of lists and objects; "
            "no request here needs that many. Send the fields as documented at /api/v1/docs/.")


def json_depth(data) -> int:
    """How many lists and objects deep ``data`` nests, counted without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = value.values()
        elif not isinstance(value, list):
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in value)
    return deepest


class BoundedJSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing bodies nested past ``MAX_JSON_DEPTH`` (the standard library's
    decoder recurses, and ~1,000 levels exhaust its stack)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(TOO_DEEP)
        return data


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``limit`` at most ``max_limit`` (a larger one gives that many), ``offset`` at most
    ``max_offset`` (a larger one gives an empty page): a 20-digit number is neither an error
    nor a query the database cannot run."""

    max_limit = 500
    max_offset = 10**9
    limit_query_description = "Number of results to return per page (at most 500)."
    offset_query_description = "The initial index from which to return the results."

    def get_offset(self, request):
        return min(super().get_offset(request), self.max_offset)
