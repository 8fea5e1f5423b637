"""DRF's throttles, with their rates read from ``settings.API_THROTTLE_RATES`` when a request
comes rather than once at import (DRF's own classes keep the rates they were imported with,
so neither a test's settings nor API_THROTTLE=0 could change them). A scope with no rate is
not throttled."""

from __future__ import annotations

from django.conf import settings
from rest_framework import throttling


class _RatesFromSettings:
    def get_rate(self):
        return settings.API_THROTTLE_RATES.get(self.scope)


class AnonRateThrottle(_RatesFromSettings, throttling.AnonRateThrottle):
    """Anonymous visitors, per address."""


class UserRateThrottle(_RatesFromSettings, throttling.UserRateThrottle):
    """Each signed-in user (anonymous visitors: per address)."""


class ScopedRateThrottle(_RatesFromSettings, throttling.ScopedRateThrottle):
    """Views naming a ``throttle_scope`` (the public calculators: "calculator")."""
