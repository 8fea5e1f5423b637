"""The sheet pages: links from the table and session pages, the house rule's layout or the
one picked, who may see them, and a query count that does not grow with the night."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Hand
from clubs.recording import record_hand
from tests.sheets.nights import generated_session
from tests.web.test_recording import quick

pytestmark = pytest.mark.django_db


def sheet_url(session, table=None):
    if table is None:
        return reverse("sheets:session", args=[session.club.slug, session.pk])
    return reverse("sheets:table", args=[session.club.slug, session.pk, table.pk])


@pytest.fixture
def night(club, house_rule_versions, users):
    return generated_session(club, house_rule_versions, "bmja", users["scorer"], hands=8)


def test_the_table_and_session_pages_link_to_their_sheets(night, client_as):
    client = client_as("member")
    table = night.tables.get()
    page = client.get(reverse("table", args=[night.club.slug, night.pk, table.pk]))
    assert f'href="{sheet_url(night, table)}"' in page.content.decode()
    page = client.get(reverse("session", args=[night.club.slug, night.pk]))
    assert f'href="{sheet_url(night)}"' in page.content.decode()


def test_the_session_sheet_shows_every_player_then_the_night(night, client_as):
    body = client_as("member").get(sheet_url(night)).content.decode()
    assert body.count('class="sheet-page sheet-per_player"') == 4
    assert 'class="sheet-page sheet-summary"' in body
    # The club, the date, the house rule and its version head every page.
    heading = "Jade Dragon Club · Sat 21 Nov 2026 · BMJA"
    assert body.count(heading) >= 5
    assert "Name: Bob 1" in body and "Receive" in body and "Final totals:" in body
    assert 'class="row-void"' in body and "Hand 3: Void: misdeal: 14 tiles dealt" in body
    for fmt in ("pdf", "csv", "xlsx"):
        url = reverse("sheets:session-download", args=[night.club.slug, night.pk, fmt])
        assert f'href="{url}?layout=per_player"' in body


def test_the_scorer_may_pick_the_other_sheet_for_any_session(night, client_as):
    client = client_as("scorer")
    body = client.get(sheet_url(night), {"layout": "tally"}).content.decode()
    assert 'class="sheet-page sheet-tally"' in body and "sheet-per_player" not in body
    assert "Player: Alice 1" in body and "Winning score" in body
    assert "(the house rule&#x27;s)" in body or "(the house rule's)" in body


def test_the_guide_session_prints_its_tally_sheet_by_default(club, house_rule_versions, users,
                                                            client_as):
    session = generated_session(club, house_rule_versions, "guide", users["scorer"], hands=5)
    body = client_as("member").get(sheet_url(session)).content.decode()
    assert 'class="sheet-page sheet-tally"' in body and "2,000" in body


def test_blank_sheets_page(night, client_as):
    body = client_as("member").get(sheet_url(night), {"blank": "1"}).content.decode()
    assert body.count('class="row-blank"') == 4 * 12
    assert "Blank score sheets" in body and "sheet-summary" not in body


@pytest.mark.parametrize(("role", "status"), [
    ("admin", 200), ("scorer", 200), ("member", 200), ("outsider", 404), ("anonymous", 404)])
def test_only_who_may_read_the_session_sees_its_sheets(night, client_as, role, status):
    client = client_as(role)
    table = night.tables.get()
    for url in (sheet_url(night), sheet_url(night, table),
                reverse("sheets:session-download", args=[night.club.slug, night.pk, "csv"])):
        assert client.get(url).status_code == status


def test_a_published_clubs_sheets_are_open_to_anyone(night, client):
    Club.objects.filter(pk=night.club_id).update(published=True)
    assert client.get(sheet_url(night)).status_code == 200


def test_another_sessions_table_is_not_found(night, club, house_rule_versions, users, client_as):
    other = generated_session(club, house_rule_versions, "bmja", users["scorer"], hands=1)
    url = reverse("sheets:table", args=[club.slug, night.pk, other.tables.get().pk])
    assert client_as("member").get(url).status_code == 404


def test_the_table_sheets_queries_do_not_grow_with_the_night(night, users, client_as):
    """At most 10 for a table, the same for 8 hands as for 40; a session's the same for one
    table as for two."""
    client = client_as("member")
    table = night.tables.get()
    counts = []
    for hands in (8, 40):
        while Hand.objects.filter(table=table).count() < hands:
            record_hand(table, quick(winner="S"), users["scorer"])
        for url in (sheet_url(night, table),
                    reverse("sheets:table-download",
                            args=[night.club.slug, night.pk, table.pk, "pdf"])):
            with CaptureQueriesContext(connection) as seen:
                response = client.get(url)
                if hasattr(response, "streaming_content"):
                    b"".join(response.streaming_content)
            assert response.status_code == 200
            counts.append(len(seen.captured_queries))
    assert counts[:2] == counts[2:] and max(counts) <= 10, counts


def test_a_scorer_picks_the_sessions_sheet_and_everyone_sees_it(night, client_as, users):
    from clubs.models import AuditEntry

    client = client_as("scorer")
    url = reverse("sheets:choose-layout", args=[night.club.slug, night.pk])
    assert 'id="choose-layout"' in client.get(sheet_url(night)).content.decode()
    response = client.post(url, {"layout": "tally"})
    assert response.status_code == 302 and response["Location"] == sheet_url(night)
    body = client.get(sheet_url(night)).content.decode()
    assert 'class="sheet-page sheet-tally"' in body and "(picked for this session)" in body
    table = night.tables.get()
    assert "sheet-tally" in client.get(sheet_url(night, table)).content.decode()
    entry = AuditEntry.objects.get(object_type="clubsession", object_id=str(night.pk))
    assert entry.before == {"sheet_layout": None} and entry.after == {"sheet_layout": "tally"}
    # Back to the house rule's own.
    client.post(url, {"layout": ""})
    assert "sheet-per_player" in client.get(sheet_url(night)).content.decode()


def test_picking_a_sheet_needs_a_scorer_and_a_known_sheet(night, client_as):
    url = reverse("sheets:choose-layout", args=[night.club.slug, night.pk])
    member = client_as("member")
    assert 'id="choose-layout"' not in member.get(sheet_url(night)).content.decode()
    assert member.post(url, {"layout": "tally"}).status_code == 403
    assert member.get(url).status_code == 405


def test_an_unknown_sheet_is_a_form_error(night, client_as):
    url = reverse("sheets:choose-layout", args=[night.club.slug, night.pk])
    response = client_as("scorer").post(url, {"layout": "ledger"})
    assert response.status_code == 400
    assert "Pick the per-player sheet, the tally sheet or the house rule" in \
        response.content.decode()
