"""An accepted draw follows a re-seat (found in QA): moving a player between tables after the
draw was accepted moved the door's check-ins and the seats, but the draw kept the seating it
was drawn with, so the door page and the API's draw showed the old tables. The draw now names
whoever sits at each drawn table, in wind order, on the page and through the API, and an undo
puts it back."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs import mending
from clubs.models import AuditEntry, Table
from door.models import CheckIn, TableDraw
from tests.door.test_door_pages import draw_and_accept, tick, url

pytestmark = pytest.mark.django_db

ORDER = {"E": 0, "S": 1, "W": 2, "N": 3, "": 4}


@pytest.fixture
def drawn(client_as, tonight, members):
    client = client_as("scorer")
    tick(client, tonight, members[:8])
    draw = draw_and_accept(client, tonight)
    assert draw.is_accepted and len(draw.tables) == 2
    return client


def seated(session) -> list[list[tuple[str, str]]]:
    """Who sits at each table the draw made, as (wind, name) in wind order."""
    draw = TableDraw.objects.get(session=session)
    tables = Table.objects.in_bulk(draw.tables)
    return [[(s.starting_wind, s.name) for s in sorted(
                tables[pk].seats.select_related("member"),
                key=lambda s: (ORDER[s.starting_wind], s.position))]
            for pk in draw.tables]


def on_the_page(client, session) -> list[list[tuple[str, str]]]:
    page = client.get(url("session", session))
    assert page.status_code == 200
    return [[(s["letter"], s["name"]) for s in t["seats"]] for t in page.context["draw_tables"]]


def through_the_api(session, user) -> dict:
    api = APIClient()
    api.force_authenticate(user)
    answer = api.get(f"/api/v1/sessions/{session.pk}/door/")
    assert answer.status_code == 200, answer.content
    return answer.json()["draw"]


def in_the_api(draw: dict) -> list[list[tuple[str, str]]]:
    return [[(s["wind"], s["name"]) for s in t["seats"]] for t in draw["tables"]]


def reseat_on_the_page(client, table: Table, position: int, *, member=None, guest="") -> None:
    session = table.session
    form = {}
    for seat in table.seats.all():
        form[f"member_{seat.position}"] = seat.member_id or ""
        form[f"guest_{seat.position}"] = seat.guest_name
        form[f"wind_{seat.position}"] = seat.starting_wind
    form[f"member_{position}"] = member.pk if member else ""
    form[f"guest_{position}"] = guest
    answer = client.post(reverse("reseat-table", args=[session.club.slug, session.pk, table.pk]),
                         form)
    assert answer.status_code == 302, answer.content.decode()


def test_a_player_moved_between_tables_moves_in_the_draw(drawn, tonight, users):
    """Two players trade tables (one seat a night: through a spare name, three re-seats on
    the table's Mend page); the draw on the door page and through the API names them where
    they now sit."""
    draw = TableDraw.objects.get(session=tonight)
    first, second = (Table.objects.get(pk=pk) for pk in draw.tables)
    one, two = first.seats.get(position=0), second.seats.get(position=0)
    a, b = one.member, two.member
    reseat_on_the_page(drawn, first, 0, guest="Spare")
    reseat_on_the_page(drawn, second, 0, member=a)
    reseat_on_the_page(drawn, first, 0, member=b)
    now = seated(tonight)
    assert b.display_name in dict(now[0]).values() and a.display_name in dict(now[1]).values()
    assert on_the_page(drawn, tonight) == now
    api = through_the_api(tonight, users["scorer"])
    assert in_the_api(api) == now
    # Every drawn player is still drawn, under their own check-in, and nobody is left over.
    assert not api["stale"]
    here = {c.pk: c.name for c in CheckIn.objects.filter(session=tonight)}
    named = {s["check_in"]: s["name"] for t in api["tables"] for s in t["seats"]}
    assert named == here


def test_a_player_moved_to_another_table_for_one_gone_home(drawn, tonight, members, users):
    """After the draw was accepted one player goes home from the second table; a player of the
    first moves to their seat and a late arrival takes theirs. Everyone keeps their own
    check-in; the draw names the late arrival at the first table and the player moved at the
    second."""
    draw = TableDraw.objects.get(session=tonight)
    first, second = (Table.objects.get(pk=pk) for pk in draw.tables)
    moved, gone, late = (first.seats.get(position=2).member, second.seats.get(position=3).member,
                         members[12])
    drawn.post(url("members", tonight), {"member": [m.pk for m in members[:8]] + [late.pk]})
    home = CheckIn.objects.get(session=tonight, member=gone)
    assert drawn.post(url("check-in", tonight, home.pk), {"action": "left"}).status_code == 302
    reseat_on_the_page(drawn, first, 2, member=late)
    reseat_on_the_page(drawn, second, 3, member=moved)
    now = seated(tonight)
    assert now[0][2] == ("W", late.display_name) and now[1][3] == ("N", moved.display_name)
    assert on_the_page(drawn, tonight) == now
    api = through_the_api(tonight, users["scorer"])
    assert in_the_api(api) == now
    # Each named under their own check-in; the one gone home is drawn no more.
    mine = dict(CheckIn.objects.filter(session=tonight).values_list("member_id", "pk"))
    by_name = {m.display_name: mine[m.pk] for m in members[:13] if m.pk in mine}
    assert all(s["check_in"] == by_name[s["name"]] for t in api["tables"] for s in t["seats"])
    assert not api["stale"]


def test_a_late_arrival_seated_for_someone_gone_home(drawn, tonight, members, users):
    draw = TableDraw.objects.get(session=tonight)
    first = Table.objects.get(pk=draw.tables[0])
    gone = first.seats.get(position=1).member
    late = members[10]
    drawn.post(url("members", tonight), {"member": [m.pk for m in members[:8]] + [late.pk]})
    assert CheckIn.objects.filter(session=tonight, member=late).exists()
    reseat_on_the_page(drawn, first, 1, member=late)
    now = seated(tonight)
    assert late.display_name in dict(now[0]).values()
    assert gone.display_name not in dict(now[0]).values()
    assert on_the_page(drawn, tonight) == now
    assert in_the_api(through_the_api(tonight, users["scorer"])) == now


def test_starting_winds_changed_before_play_and_the_undo(drawn, tonight, users):
    """Winds changed before the first hand (two players trade winds): the draw reads in the
    new wind order; undoing the re-seat (the API's, then the undo) puts the draw back."""
    before = on_the_page(drawn, tonight)
    draw = TableDraw.objects.get(session=tonight)
    first = Table.objects.get(pk=draw.tables[0])
    east, south = first.seats.get(starting_wind="E"), first.seats.get(starting_wind="S")
    api = APIClient()
    api.force_authenticate(users["scorer"])
    answer = api.post(f"/api/v1/tables/{first.pk}/reseat/", {"seats": [
        {"position": east.position, "starting_wind": "S"},
        {"position": south.position, "starting_wind": "E"}]}, format="json")
    assert answer.status_code == 200, answer.content
    now = seated(tonight)
    assert now[0][0] == ("E", south.name) and now[0][1] == ("S", east.name)
    assert on_the_page(drawn, tonight) == now
    assert in_the_api(through_the_api(tonight, users["scorer"])) == now
    mending.undo(AuditEntry.objects.filter(object_type="table").latest("pk"),
                 user=users["admin"])
    assert on_the_page(drawn, tonight) == before == seated(tonight)


def test_a_re_seat_refused_leaves_the_draw_alone(drawn, tonight, members):
    draw = TableDraw.objects.get(session=tonight)
    kept = (draw.drawn, draw.players)
    first, second = (Table.objects.get(pk=pk) for pk in draw.tables)
    with pytest.raises(mending.Refused):
        mending.reseat_table(first, [{"position": 0,
                                      "member": second.seats.get(position=0).member_id}])
    draw.refresh_from_db()
    assert (draw.drawn, draw.players) == kept


def test_the_draw_and_the_seats_change_in_one_transaction(drawn, tonight, members, monkeypatch):
    """A draw that cannot be written takes the re-seat (seats, check-ins) back with it."""
    draw = TableDraw.objects.get(session=tonight)
    first = Table.objects.get(pk=draw.tables[0])
    before = seated(tonight)
    check_ins = sorted(CheckIn.objects.filter(session=tonight).values_list("pk", "member_id"))

    def broken(self, *args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(TableDraw, "save", broken)
    with pytest.raises(RuntimeError):
        mending.reseat_table(first, [{"position": 0, "member": members[12].pk}])
    assert seated(tonight) == before
    assert sorted(CheckIn.objects.filter(session=tonight)
                  .values_list("pk", "member_id")) == check_ins
