"""DRF renderers for the sheet downloads, so ``?format=`` and the Accept header pick one as for
any other API answer. The view makes the bytes (a PDF, or a stream of CSV or XLSX) and answers
with them directly; these renderers only name the formats for content negotiation and the
OpenAPI schema."""

from __future__ import annotations

from rest_framework.renderers import BaseRenderer

from exports import get_exporter
from sheets import pdf


class _Download(BaseRenderer):
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        # Only an error answer reaches a renderer (the sheet itself is a ready response): say
        # it in plain words rather than as bytes of the wrong type.
        if isinstance(data, bytes):
            return data
        return str(data).encode("utf-8")


class PdfRenderer(_Download):
    media_type = pdf.CONTENT_TYPE
    format = "pdf"


class CsvRenderer(_Download):
    media_type = "text/csv"
    format = "csv"


class XlsxRenderer(_Download):
    media_type = get_exporter("xlsx").content_type
    format = "xlsx"


DOWNLOAD_RENDERERS = [PdfRenderer, CsvRenderer, XlsxRenderer]
