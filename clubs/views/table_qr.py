"""The QR code on a table's page: another phone scans it and opens the same table (the
read-only follow view for a player who may not record). Drawn on the server as SVG with segno,
so it shows with JavaScript off and prints as sharp as the page.

Drawing it was 15 % of the table page's time, and every view drew the same code again: it is
kept in the ``qr`` cache (files shared by the machine's workers, never process memory) under
the hash of what it encodes and how it is drawn, so the first view draws it and later views
read it."""

from __future__ import annotations

import hashlib

import segno
from django.core.cache import caches
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe


def table_url(request, table) -> str:
    session = table.session
    return request.build_absolute_uri(
        reverse("table", args=[session.club.slug, session.pk, table.pk])
    )


# How the code is drawn: part of the cache key, so a change here draws every code again.
DRAWN = {"scale": 4, "border": 2, "dark": "#1d2327", "light": "#ffffff", "omitsize": True}


def qr_key(url: str) -> str:
    """The cache key of ``url``'s code: the hash of the address and the drawing's options."""
    return "table-qr:" + hashlib.sha256(f"{url}\n{sorted(DRAWN.items())}".encode()).hexdigest()


def draw(url: str) -> str:
    code = segno.make(url, error="m")
    # No XML declaration, no fixed size: the page's CSS sizes it (a phone camera wants ~4 cm).
    return code.svg_inline(**DRAWN)


def qr_svg(url: str) -> SafeString:
    """``url`` as an inline SVG QR code, drawn once per address. segno escapes nothing of ours
    into it but the encoded modules, so it is safe to put in the page as it is."""
    cache, key = caches["qr"], qr_key(url)
    svg = cache.get(key)
    if svg is None:
        svg = draw(url)
        cache.set(key, svg)
    return mark_safe(svg)  # noqa: S308  segno's SVG of the address (see above)
