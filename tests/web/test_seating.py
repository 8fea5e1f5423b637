"""One function seats a table (clubs.seating), for the session page's form and the club API:
both refuse the same seatings in the same words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.seating import SeatChoice, seat_problems

pytestmark = pytest.mark.django_db


def test_the_page_and_the_api_say_the_same(club_session, players, users, client, scorer_api):
    alice = players[0]
    seats = [SeatChoice(alice, "", "E"), SeatChoice(alice, "", "S"),
             SeatChoice(None, "Zoe", "W"), SeatChoice(None, "zoe", "N")]
    problems, table = seat_problems(club_session, seats)
    assert problems[1]["member"] == ["Alice already sits East: everyone has one seat at a table."]
    assert "already sits West" in problems[3]["guest_name"][0] and not table

    body = {"session": club_session.pk, "seats": [
        {"member": alice.pk, "starting_wind": "E"}, {"member": alice.pk, "starting_wind": "S"},
        {"guest_name": "Zoe", "starting_wind": "W"}, {"guest_name": "zoe", "starting_wind": "N"}]}
    answer = scorer_api.post("/api/v1/tables/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["seats"][1]["member"] == problems[1]["member"]
    assert answer.json()["seats"][3]["guest_name"] == problems[3]["guest_name"]

    client.force_login(users["scorer"])
    page = client.post(reverse("add-table", args=[club_session.club.slug, club_session.pk]),
                       {"E_member": alice.pk, "S_member": alice.pk, "W_guest": "Zoe",
                        "N_guest": "zoe"})
    form = page.context["seating_form"]
    assert form.errors["S_member"] == problems[1]["member"]
    assert form.errors["N_guest"] == problems[3]["guest_name"]
