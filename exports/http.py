"""Downloads as Django responses (the one part of ``exports`` that imports Django)."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from django.utils.text import slugify

from exports.registry import Sheet, get_exporter


def download(sheets: list[Sheet], fmt: str, filename_stem: str) -> StreamingHttpResponse:
    """Stream ``sheets`` in ``fmt`` as an attachment. Raises ``UnknownFormat`` (a sentence naming
    the formats) before anything is sent."""
    exporter = get_exporter(fmt)
    response = StreamingHttpResponse(exporter.render(sheets), content_type=exporter.content_type)
    name = slugify(filename_stem) or "export"
    response["Content-Disposition"] = f'attachment; filename="{name}.{exporter.extension}"'
    return response
