"""A re-seat (who sat at a table corrected) carries the door's check-ins with it: the person
checked in for a seat is the person the score sheet names there, and an undo puts it back."""

from __future__ import annotations

import pytest

from clubs import mending
from clubs.models import Seat, Table
from door.models import CheckIn


@pytest.fixture
def seated(club_session, members):
    table = Table.objects.create(session=club_session, number=1)
    for position, (member, wind) in enumerate(zip(members[:4], "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    return table


def _checked_in(club_session) -> dict[str, bool]:
    return {c.name: c.paid for c in CheckIn.objects.filter(session=club_session)
            .select_related("member")}


def _check_in(club_session, *people, paid=True):
    for who in people:
        if isinstance(who, str):
            CheckIn.objects.create(session=club_session, guest_name=who, paid=paid)
        else:
            CheckIn.objects.create(session=club_session, member=who, paid=paid)


def test_the_wrong_member_picked_hands_their_check_in_to_the_right_one(
        club_session, members, seated, users):
    ann, bea, cal, dot, eve = members[:5]
    _check_in(club_session, ann, bea, cal, dot)
    entry = mending.reseat_table(seated, [{"position": 0, "member": eve.pk}],
                                 user=users["admin"])
    assert _checked_in(club_session) == {"Eve": True, "Bea": True, "Cal": True, "Dot": True}
    mending.undo(entry, user=users["admin"])
    assert _checked_in(club_session) == {"Ann": True, "Bea": True, "Cal": True, "Dot": True}


def test_players_trading_seats_keep_their_own_check_ins(club_session, members, seated, users):
    ann, bea, cal, dot = members[:4]
    _check_in(club_session, ann, cal, dot)
    CheckIn.objects.create(session=club_session, member=bea, paid=False)
    mending.reseat_table(seated, [{"position": 0, "member": bea.pk},
                                  {"position": 1, "member": ann.pk}], user=users["admin"])
    assert _checked_in(club_session) == {"Ann": True, "Bea": False, "Cal": True, "Dot": True}


def test_a_newcomer_already_checked_in_keeps_theirs_and_the_other_stays(
        club_session, members, seated, users):
    ann, bea, cal, dot, eve = members[:5]
    _check_in(club_session, ann, bea, cal, dot)
    CheckIn.objects.create(session=club_session, member=eve, paid=False)
    mending.reseat_table(seated, [{"position": 0, "member": eve.pk}], user=users["admin"])
    assert _checked_in(club_session) == {"Ann": True, "Bea": True, "Cal": True, "Dot": True,
                                         "Eve": False}


def test_a_guest_typed_for_a_member_becomes_that_members_check_in(
        club_session, members, seated, users):
    ann, bea, cal, dot, eve = members[:5]
    mending.reseat_table(seated, [{"position": 3, "guest_name": "Walk-in"}], user=users["admin"])
    _check_in(club_session, ann, bea, cal, "walk-in")
    mending.reseat_table(seated, [{"position": 3, "member": eve.pk}], user=users["admin"])
    assert _checked_in(club_session) == {"Ann": True, "Bea": True, "Cal": True, "Eve": True}
    # And back: a member's check-in becomes a guest's, under the name typed.
    mending.reseat_table(seated, [{"position": 3, "guest_name": "  Walk-in  Two "}],
                         user=users["admin"])
    assert "Walk-in Two" in _checked_in(club_session)


def test_a_night_without_the_door_gets_no_check_ins(club_session, members, seated, users):
    mending.reseat_table(seated, [{"position": 0, "member": members[4].pk}],
                         user=users["admin"])
    assert not CheckIn.objects.exists()


def test_the_api_re_seat_moves_them_too(club_session, members, seated, users):
    from rest_framework.test import APIClient

    ann, bea, cal, dot, eve = members[:5]
    _check_in(club_session, ann, bea, cal, dot)
    client = APIClient()
    client.force_authenticate(users["scorer"])
    answer = client.post(f"/api/v1/tables/{seated.pk}/reseat/",
                         {"seats": [{"position": 1, "member": eve.pk}]}, format="json")
    assert answer.status_code == 200, answer.content
    assert set(_checked_in(club_session)) == {"Ann", "Eve", "Cal", "Dot"}
