"""Template context every page gets: whether the service takes sign-ups from anyone."""

from django.conf import settings


def signup(request) -> dict:
    return {"signup_open": settings.SIGNUP == "open"}
