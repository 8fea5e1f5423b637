"""The QR code on a table's page: another phone scans it and opens the same table (the
read-only follow view for a player who may not record). Drawn on the server as SVG with segno,
so it shows with JavaScript off and prints as sharp as the page."""

from __future__ import annotations

import segno
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe


def table_url(request, table) -> str:
    session = table.session
    return request.build_absolute_uri(
        reverse("table", args=[session.club.slug, session.pk, table.pk])
    )


def qr_svg(url: str) -> SafeString:
    """``url`` as an inline SVG QR code. segno escapes nothing of ours into it but the
    encoded modules, so it is safe to put in the page as it is."""
    code = segno.make(url, error="m")
    # No XML declaration, no fixed size: the page's CSS sizes it (a phone camera wants ~4 cm).
    return mark_safe(code.svg_inline(scale=4, border=2, dark="#1d2327", light="#ffffff", omitsize=True))
