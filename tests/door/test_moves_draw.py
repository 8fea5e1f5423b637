"""A guest made a member, or two members merged, while tonight's draw names them (found in QA):
the check-ins and the seats moved, but the draw kept the player keys it was drawn with, so
what reads them was wrong: its figures knew nothing of the member's season, a swap was refused
("someone has come or gone"), and a re-seat of another table dropped the player from the draw
(shown as "?"). The draw now names the member, in the move's transaction, and is judged again
with their history; an undo puts it back. The next night's draw balances with the merged
member's whole history."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from clubs.models import AuditEntry, ClubSession, Member, Table
from door.drawing import make_draw
from door.models import CheckIn, TableDraw
from tests.door.test_door_pages import draw_and_accept, tick, url
from tests.door.test_reseat_draw import seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_api(users):
    api = APIClient()
    api.force_authenticate(users["admin"])
    return api


@pytest.fixture
def annie(client_as, tonight, members, last_week):
    """Tonight Ann came and was checked in as a guest, 'Annie', with Bea to Hal; the draw was
    accepted."""
    client = client_as("scorer")
    tick(client, tonight, members[1:8])
    assert client.post(url("guests", tonight), {"name": "Annie"}).status_code == 302
    assert draw_and_accept(client, tonight).is_accepted
    return client


@pytest.fixture
def ann_twice(client_as, club, tonight, members, last_week):
    """Tonight Ann came and was checked in as 'Ann L', a member entered a second time."""
    duplicate = Member.objects.create(club=club, display_name="Ann L")
    client = client_as("scorer")
    tick(client, tonight, [*members[1:8], duplicate])
    assert draw_and_accept(client, tonight).is_accepted
    return client, duplicate


def pairs_met(tables: list[list[str]], before: list[set[str]]) -> dict[frozenset, int]:
    """For each pair at one table of ``tables`` (names), the nights of ``before`` (each a set of
    names at one table) they sat together: worked out by hand, not by the draw's engine."""
    met = {}
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                times = sum(a in night and b in night for night in before)
                if times:
                    met[frozenset((a, b))] = times
    return met


def page_of(client, session):
    page = client.get(url("session", session))
    assert page.status_code == 200
    return page


def shown_repeats(page) -> dict[frozenset, int]:
    return {frozenset((a, b)): times for a, b, times in page.context["repeats"]}


def names_drawn(page) -> list[list[str]]:
    return [[s["name"] for s in t["seats"]] for t in page.context["draw_tables"]]


def in_step(session) -> None:
    """The draw names each drawn player by the key of their check-in, under that check-in."""
    draw = TableDraw.objects.get(session=session)
    keys = {c.key: c.pk for c in CheckIn.objects.filter(session=session)}
    drawn = [key for table in draw.drawn["tables"] for key in table]
    assert sorted(drawn) == sorted(keys) and draw.players == keys
    assert {k for r in draw.quality["repeats"] for k in r[:2]} <= set(keys)


def last_weeks(last_week) -> list[set[str]]:
    return [{m.display_name for m in last_week}]


def test_a_guest_made_a_member_is_drawn_as_the_member(annie, admin_api, club, tonight,
                                                      last_week, users):
    ann = last_week[0]
    answer = admin_api.post("/api/v1/members/from-guest/", {
        "club": club.slug, "guest_name": "annie ", "member": ann.pk}, format="json")
    assert answer.status_code == 200, answer.content
    in_step(tonight)
    draw = TableDraw.objects.get(session=tonight)
    assert f"m{ann.pk}" in draw.players and "g:annie" not in draw.players
    # How well it mixes knows Ann's season: her pairs from last week meet again tonight.
    page = page_of(annie, tonight)
    expected = pairs_met(names_drawn(page), last_weeks(last_week))
    assert any("Ann" in pair for pair in expected)
    assert shown_repeats(page) == expected
    assert page.context["quality"].first_meetings == 12 - len(expected)
    # A re-seat of the other table (two players trade winds) keeps Ann drawn, named, and under
    # her own check-in.
    other = next(Table.objects.get(pk=pk) for pk in draw.tables
                 if not Table.objects.get(pk=pk).seats.filter(member=ann).exists())
    east, south = other.seats.get(starting_wind="E"), other.seats.get(starting_wind="S")
    api = APIClient()
    api.force_authenticate(users["scorer"])
    answer = api.post(f"/api/v1/tables/{other.pk}/reseat/", {"seats": [
        {"position": east.position, "starting_wind": "S"},
        {"position": south.position, "starting_wind": "E"}]}, format="json")
    assert answer.status_code == 200, answer.content
    in_step(tonight)
    page = page_of(annie, tonight)
    assert names_drawn(page) == [[n for _w, n in t] for t in seated(tonight)]
    assert "Ann" in sum(names_drawn(page), []) and "?" not in sum(names_drawn(page), [])
    door = api.get(f"/api/v1/sessions/{tonight.pk}/door/").json()["draw"]
    mine = CheckIn.objects.get(session=tonight, member=ann).pk
    assert not door["stale"]
    assert [s["check_in"] for t in door["tables"] for s in t["seats"] if s["name"] == "Ann"] \
        == [mine]


def test_a_swap_after_a_guest_made_a_member(annie, admin_api, club, tonight, last_week,
                                            users):
    """The host swaps Ann with a player of the other table before play: refused before
    ("someone has come or gone"); now swapped, and judged with Ann's season."""
    ann = last_week[0]
    assert admin_api.post("/api/v1/members/from-guest/", {
        "club": club.slug, "guest_name": "Annie", "member": ann.pk},
        format="json").status_code == 200
    draw = TableDraw.objects.get(session=tonight)
    first, second = (Table.objects.get(pk=pk) for pk in draw.tables)
    other = second if first.seats.filter(member=ann).exists() else first
    them = other.seats.exclude(member__in=last_week).first().member
    mine = dict(CheckIn.objects.filter(session=tonight).values_list("member_id", "pk"))
    api = APIClient()
    api.force_authenticate(users["scorer"])
    answer = api.post(f"/api/v1/sessions/{tonight.pk}/door/draw/swap/", {
        "first": mine[ann.pk], "second": mine[them.pk], "revision": draw.revision},
        format="json")
    assert answer.status_code == 200, answer.content
    in_step(tonight)
    page = page_of(annie, tonight)
    tables = names_drawn(page)
    theirs = {s.name for s in other.seats.select_related("member")} - {them.display_name}
    assert set(next(t for t in tables if "Ann" in t)) == theirs | {"Ann"}
    assert them.display_name in next(t for t in tables if "Ann" not in t)
    assert shown_repeats(page) == pairs_met(tables, last_weeks(last_week))


def test_the_undo_draws_the_guest_again(annie, admin_api, club, tonight, last_week):
    ann = last_week[0]
    moved = admin_api.post("/api/v1/members/from-guest/", {
        "club": club.slug, "guest_name": "Annie", "member": ann.pk}, format="json")
    assert moved.status_code == 200
    page = page_of(annie, tonight)
    assert any("Ann" in pair for pair in shown_repeats(page))
    entry = AuditEntry.objects.filter(object_type="member").latest("pk")
    answer = admin_api.post("/api/v1/members/undo/", {"entry": entry.pk}, format="json")
    assert answer.status_code == 200, answer.content
    in_step(tonight)
    assert "g:annie" in TableDraw.objects.get(session=tonight).players
    page = page_of(annie, tonight)
    assert "Annie" in sum(names_drawn(page), [])
    assert shown_repeats(page) == pairs_met(names_drawn(page), last_weeks(last_week))
    assert not any("Annie" in pair for pair in shown_repeats(page))


def test_two_members_merged_are_drawn_as_the_one_kept(ann_twice, admin_api, tonight,
                                                      last_week, users):
    client, duplicate = ann_twice
    ann = last_week[0]
    answer = admin_api.post(f"/api/v1/members/{ann.pk}/merge/", {"duplicate": duplicate.pk},
                            format="json")
    assert answer.status_code == 200, answer.content
    in_step(tonight)
    assert f"m{duplicate.pk}" not in TableDraw.objects.get(session=tonight).players
    page = page_of(client, tonight)
    assert "Ann" in sum(names_drawn(page), [])
    expected = pairs_met(names_drawn(page), last_weeks(last_week))
    assert any("Ann" in pair for pair in expected)
    assert shown_repeats(page) == expected


def test_the_next_draw_balances_with_the_merged_members_history(ann_twice, admin_api, club,
                                                                bmja_version, tonight,
                                                                members, last_week):
    """Next week Ann and the seven come again: the draw's season has Ann's nights as Ann and
    as 'Ann L' as one player's, and its figures (what the draw balanced) count both."""
    client, duplicate = ann_twice
    ann = last_week[0]
    assert admin_api.post(f"/api/v1/members/{ann.pk}/merge/", {"duplicate": duplicate.pk},
                          format="json").status_code == 200
    tonights = [{n for _w, n in t} for t in seated(tonight)]
    next_week = ClubSession.objects.create(club=club, date=tonight.date + dt.timedelta(days=7),
                                           house_rule_version=bmja_version)
    tick(client, next_week, members[:8])
    make_draw(next_week, seed=11)
    in_step(next_week)
    page = page_of(client, next_week)
    assert shown_repeats(page) == pairs_met(names_drawn(page), last_weeks(last_week) + tonights)
