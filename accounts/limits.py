"""Rate limits on sign-up, login, password reset and the confirmation email: fixed windows
counted in the database (``RateCount``), so every app process and every machine of the service
count the same attempts (no process memory). DRF's throttles (``config.throttles``) guard the
API; these guard Django's own pages, where a refusal is the page again with a sentence (429).

Rates are ``settings.ACCOUNT_RATE_LIMITS``: scope -> (attempts, seconds); a scope missing or
``None`` is not limited. Who is counted is a SHA-256 digest of the address or email, never the
address itself."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import RateCount


@dataclass(frozen=True)
class Limited:
    """Over the limit: try again in ``seconds``."""

    seconds: int

    def words(self, what: str) -> str:
        minutes = max(1, -(-self.seconds // 60))
        wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
        return f"Too many {what} from here in a short time: try again in {wait}."


def client_address(request) -> str:
    """The client's address, as the login lockout reads it (``NUM_PROXIES`` proxies in
    front: the address they were given, counted from the right)."""
    proxies = settings.NUM_PROXIES
    if proxies:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
                     if a.strip()]
        if forwarded:
            return forwarded[-min(proxies, len(forwarded))]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(scope: str, who: str) -> str:
    return f"{scope}:" + hashlib.sha256(who.strip().lower().encode()).hexdigest()[:48]


def hit(scope: str, who: str) -> Limited | None:
    """Count one attempt of ``scope`` by ``who``; ``Limited`` when that is one too many in
    the window (the attempt is still counted: hammering does not open the door sooner)."""
    rate = settings.ACCOUNT_RATE_LIMITS.get(scope)
    if not rate:
        return None
    limit, period = rate
    now = timezone.now()
    epoch = int(now.timestamp())
    start = datetime.fromtimestamp(epoch - epoch % period, tz=UTC)
    key = _key(scope, who)
    with transaction.atomic():
        rows = RateCount.objects.filter(key=key, window=start)
        if not rows.update(count=F("count") + 1):
            try:
                with transaction.atomic():
                    RateCount.objects.create(key=key, window=start, count=1)
            except IntegrityError:  # another process started this window a moment ago
                rows.update(count=F("count") + 1)
            # A new window: forget the windows every scope has finished with.
            longest = max(p for _, p in filter(None, settings.ACCOUNT_RATE_LIMITS.values()))
            RateCount.objects.filter(window__lt=now - timedelta(seconds=longest)).delete()
        count = rows.values_list("count", flat=True).get()
    if count > limit:
        return Limited(int((start + timedelta(seconds=period) - now).total_seconds()) + 1)
    return None


def first_limited(*checks: tuple[str, str]) -> Limited | None:
    """Count every (scope, who) and give the first refusal, if any."""
    found = [hit(scope, who) for scope, who in checks]
    return next((f for f in found if f is not None), None)
