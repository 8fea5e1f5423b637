"""The sheet pages (print views laid out for A4) and their downloads, for a table and for the
whole session. Thin: ``sheets.build`` checks what is asked, ``sheets.data`` reads it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from clubs.views.access import READ, RECORD, club_page, roles_context
from sheets.build import (
    FORMATS,
    SheetRequest,
    SheetRequestError,
    check_blank,
    check_format,
    check_layout,
    check_start,
)
from sheets.data import LAYOUTS, default_layout, pick_layout, session_layout


class LayoutForm(forms.Form):
    layout = forms.ChoiceField(
        label="This session's score sheet",
        choices=[("", "The house rule's own"), *LAYOUTS.items()], required=False,
        error_messages={"invalid_choice": "Pick the per-player sheet, the tally sheet or the "
                                          "house rule's own."})


def _asked(request, club_session, table=None) -> SheetRequest:
    return SheetRequest(club_session, table, check_layout(request.GET.get("layout")),
                        check_blank(request.GET.get("blank")), check_start(request.GET.get("start")))


def _bad(err: SheetRequestError) -> HttpResponse:
    return HttpResponse(str(err), status=400, content_type="text/plain; charset=utf-8")


def _page(request, club, club_session, table=None):
    try:
        asked = _asked(request, club_session, table)
    except SheetRequestError as err:
        return _bad(err)
    return _render(request, club, club_session, table, asked)


def _render(request, club, club_session, table, asked, form=None, status=200):
    picked = session_layout(club_session)
    house = default_layout(club_session)
    sheet = asked.sheet(default=picked)
    if form is None:
        form = LayoutForm(initial={"layout": picked if picked != house else ""})
    return render(request, "sheets/sheet.html", {
        "club": club, "club_session": club_session, "table": table,
        "doc": asked.document(sheet), "layout": sheet.layout, "blank": asked.blank,
        "start": asked.start, "rule_start": _rule_start(club_session),
        "layouts": LAYOUTS, "house_layout": house, "session_layout": picked,
        "formats": FORMATS, "layout_form": form, **roles_context(request.user, club),
    }, status=status)


def _rule_start(club_session) -> int:
    return club_session.house_rule_version.data.get("payment", {}).get("starting_tally", 0)


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


@require_POST
@club_page(RECORD)
def choose_layout(request, club, club_session):
    """A scorer picks the sheet this session prints (or goes back to the house rule's)."""
    club_session.club = club
    form = LayoutForm(request.POST)
    if not form.is_valid():
        return _render(request, club, club_session, None, SheetRequest(club_session), form, 400)
    _, now = pick_layout(club_session, form.cleaned_data["layout"] or None, request.user)
    name = LAYOUTS[now] if now else "the house rule's own sheet"
    messages.success(request, f"This session now prints {name}.")
    return redirect("sheets:session", club.slug, club_session.pk)


@_sheet_page
def session_download(request, club, club_session, fmt):
    return _download(request, club_session, fmt)


@_sheet_page
def table_download(request, club, club_session, table, fmt):
    return _download(request, club_session, fmt, table)
