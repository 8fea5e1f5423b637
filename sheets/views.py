"""The sheet pages (print views laid out for A4) and their downloads, for a table and for the
whole session. Thin: ``sheets.build`` checks what is asked, ``sheets.data`` reads it."""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from clubs.views.access import READ, club_page, roles_context
from sheets.build import (
    FORMATS,
    SheetRequest,
    SheetRequestError,
    check_blank,
    check_format,
    check_layout,
)
from sheets.data import LAYOUTS, default_layout


def _asked(request, club_session, table=None) -> SheetRequest:
    return SheetRequest(club_session, table, check_layout(request.GET.get("layout")),
                        check_blank(request.GET.get("blank")))


def _bad(err: SheetRequestError) -> HttpResponse:
    return HttpResponse(str(err), status=400, content_type="text/plain; charset=utf-8")


def _page(request, club, club_session, table=None):
    try:
        asked = _asked(request, club_session, table)
    except SheetRequestError as err:
        return _bad(err)
    sheet = asked.sheet()
    return render(request, "sheets/sheet.html", {
        "club": club, "club_session": club_session, "table": table,
        "doc": asked.document(sheet), "layout": sheet.layout, "blank": asked.blank,
        "layouts": LAYOUTS, "house_layout": default_layout(club_session), "formats": FORMATS,
        **roles_context(request.user, club),
    })


def _download(request, club_session, fmt, table=None):
    try:
        asked = _asked(request, club_session, table)
        check_format(fmt)
    except SheetRequestError as err:
        return _bad(err)
    content_type, extension, chunks = asked.render(fmt)
    response = StreamingHttpResponse(chunks, content_type=content_type)
    name = slugify(asked.filename_stem)
    response["Content-Disposition"] = f'attachment; filename="{name}.{extension}"'
    return response


def _sheet_page(view):
    """``club_page`` found the session within this club: let it know its club without asking
    the database again."""

    def inner(request, club, club_session, **kwargs):
        club_session.club = club
        return view(request, club, club_session, **kwargs)

    inner.__name__, inner.__doc__ = view.__name__, view.__doc__
    return club_page(READ)(inner)


@_sheet_page
def session_sheet(request, club, club_session):
    """Every table's sheets, then the night's final totals and places."""
    return _page(request, club, club_session)


@_sheet_page
def table_sheet(request, club, club_session, table):
    return _page(request, club, club_session, table)


@_sheet_page
def session_download(request, club, club_session, fmt):
    return _download(request, club_session, fmt)


@_sheet_page
def table_download(request, club, club_session, table, fmt):
    return _download(request, club_session, fmt, table)
