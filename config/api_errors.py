"""One error shape for the whole API: DRF's field paths to lists of messages, never a 500."""

import logging

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.unavailable import RETRY_AFTER, SENTENCE, database_unavailable

log = logging.getLogger(__name__)


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None:
        return response
    if database_unavailable(exc):
        response = Response({"detail": SENTENCE}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    # Anything DRF does not know is our bug: log it with its traceback, answer without one.
    log.exception("Unhandled error in %s", context.get("view"))
    return Response(
        {"detail": "Something went wrong on our side; nothing was saved. Please try again."},
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )
