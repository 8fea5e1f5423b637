"""After a re-seat of an accepted draw, "How well it mixes" is judged again from the seating as
it now is (found in QA after 72ac136): the door page and the API kept the figures of the draw
as it was drawn, so a host who moved players saw repeats that no longer sit together and none
of those that now do."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs import mending
from clubs.models import AuditEntry, Table
from door.models import TableDraw
from tests.door.test_door_pages import draw_and_accept, tick, url
from tests.door.test_reseat_draw import reseat_on_the_page, seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(client_as, tonight, members, last_week):
    client = client_as("scorer")
    tick(client, tonight, members[:8])
    draw = draw_and_accept(client, tonight)
    assert draw.is_accepted and len(draw.tables) == 2
    return client


def met_again(session, met_before) -> set[frozenset[str]]:
    """The pairs of ``met_before`` at one table tonight, as the seats say: worked out by hand,
    not by the draw's engine."""
    names = {m.display_name for m in met_before}
    pairs = set()
    for table in seated(session):
        here = sorted(name for _wind, name in table if name in names)
        pairs |= {frozenset((a, b)) for i, a in enumerate(here) for b in here[i + 1:]}
    return pairs


def shown(client, session) -> tuple[dict, set[frozenset[str]]]:
    page = client.get(url("session", session))
    assert page.status_code == 200
    quality = page.context["quality"]
    repeats = {frozenset((a, b)) for a, b, times in page.context["repeats"] if times == 1}
    assert len(repeats) == len(page.context["repeats"]) == len(quality.repeats)
    return quality, repeats


def in_the_api(session, user) -> tuple[dict, set[frozenset[str]]]:
    api = APIClient()
    api.force_authenticate(user)
    answer = api.get(f"/api/v1/sessions/{session.pk}/door/")
    assert answer.status_code == 200, answer.content
    quality = answer.json()["draw"]["quality"]
    return quality, {frozenset((r["first"], r["second"])) for r in quality["repeats"]}


def trade(client, session, a: int, b: int) -> None:
    """The player at seat ``a`` of the first drawn table and the one at seat ``b`` of the
    second change tables (one seat a night: through a spare name, three re-seats)."""
    draw = TableDraw.objects.get(session=session)
    first, second = (Table.objects.get(pk=pk) for pk in draw.tables)
    one, two = first.seats.get(position=a).member, second.seats.get(position=b).member
    reseat_on_the_page(client, first, a, guest="Spare")
    reseat_on_the_page(client, second, b, member=one)
    reseat_on_the_page(client, first, a, member=two)


def test_the_figures_follow_a_trade_between_tables(drawn, tonight, last_week, users):
    """Those who met last week are split two and two by the draw (two pairs meeting again);
    one of them traded for a player of the other table makes it one and three: three pairs
    meeting again, and the page and the API say so, with the first meetings and the most met
    after tonight."""
    before, repeats = shown(drawn, tonight)
    assert repeats == met_again(tonight, last_week) and len(repeats) == 2
    draw = TableDraw.objects.get(session=tonight)
    first = Table.objects.get(pk=draw.tables[0])
    ours = {m.pk for m in last_week}
    a = next(s.position for s in first.seats.all() if s.member_id in ours)
    second = Table.objects.get(pk=draw.tables[1])
    b = next(s.position for s in second.seats.all() if s.member_id not in ours)
    trade(drawn, tonight, a, b)

    now = met_again(tonight, last_week)
    assert len(now) == 3
    quality, repeats = shown(drawn, tonight)
    assert repeats == now
    assert quality.pairs_tonight == 12 and quality.first_meetings == 12 - 3
    assert quality.most_met_after == 2 and dict(quality.spread)[2] == 3
    # The hat draws the same players at tables of the same sizes: its figures do not move.
    assert (quality.random_repeats_mean, quality.random_first_mean) == (
        before.random_repeats_mean, before.random_first_mean)
    answer, named = in_the_api(tonight, users["scorer"])
    assert named == now and answer["first_meetings"] == 9 and len(answer["repeats"]) == 3


def test_a_late_arrival_for_one_who_met_the_table_before(drawn, tonight, members, last_week):
    """A player who met two of their table last week goes home; a late arrival who has met
    nobody takes the seat: that table's repeats go, and the first meetings grow."""
    draw = TableDraw.objects.get(session=tonight)
    first = Table.objects.get(pk=draw.tables[0])
    ours = {m.pk for m in last_week}
    gone = next(s for s in first.seats.all() if s.member_id in ours)
    late = members[12]
    drawn.post(url("members", tonight), {"member": [m.pk for m in members[:8]] + [late.pk]})
    reseat_on_the_page(drawn, first, gone.position, member=late)
    quality, repeats = shown(drawn, tonight)
    assert repeats == met_again(tonight, last_week)
    assert len(repeats) == 1 and quality.first_meetings == 11


def test_the_undo_brings_back_the_figures_of_the_draw(drawn, tonight, last_week, users):
    judged = TableDraw.objects.get(session=tonight).quality
    draw = TableDraw.objects.get(session=tonight)
    first = Table.objects.get(pk=draw.tables[0])
    ours = {m.pk for m in last_week}
    a = next(s for s in first.seats.all() if s.member_id in ours)
    b = next(s for s in first.seats.all() if s.member_id not in ours)
    api = APIClient()
    api.force_authenticate(users["scorer"])
    # Two players of one table trade winds: the same pairs, the same figures. One of those
    # who met last week replaced by a guest: one pair fewer meeting again; undone: as drawn.
    answer = api.post(f"/api/v1/tables/{first.pk}/reseat/", {"seats": [
        {"position": a.position, "starting_wind": b.starting_wind},
        {"position": b.position, "starting_wind": a.starting_wind}]}, format="json")
    assert answer.status_code == 200, answer.content
    assert TableDraw.objects.get(session=tonight).quality == judged
    mending.reseat_table(first, [{"position": a.position, "member": None,
                                  "guest_name": "Spare"}])
    assert TableDraw.objects.get(session=tonight).quality != judged
    mending.undo(AuditEntry.objects.filter(object_type="table").latest("pk"),
                 user=users["admin"])
    assert TableDraw.objects.get(session=tonight).quality == judged
