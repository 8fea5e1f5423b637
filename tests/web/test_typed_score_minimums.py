"""A score typed as the table agreed it is held to the house rule's minimum to go out, as the
same hand entered tile by tile is (#21): balsall-common needs 3 points (5 in a goulash; 003
'Points to Mahjong'), so an agreed 2 (or a goulash 4) is refused with a sentence saying the
minimum and what to do, at the record page's API, in a correction and at the settle
calculator."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import ClubSession, Hand, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def balsall_table(club, players, house_rule_versions):
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 11, 21),
                                         house_rule_version=house_rule_versions["balsall-common"])
    table = Table.objects.create(session=session, number=1)
    for position, (member, wind) in enumerate(zip(players, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    return table


def won(table_id, score, winner="S"):
    return {"table": table_id, "winner": winner, "win_from": "wall",
            "seats": {w: {"score": score if w == winner else 0} for w in "ESWN"}}


def wall_game(table_id):
    return {"table": table_id, "draw": True, "seats": {w: {"score": 0} for w in "ESWN"}}


def test_an_agreed_score_under_the_minimum_is_refused_with_a_sentence(scorer_api, balsall_table):
    answer = scorer_api.post("/api/v1/hands/", won(balsall_table.pk, 2), format="json")
    assert answer.status_code == 400
    message = answer.json()["seats"]["S"]["score"][0]
    assert "needs at least 3 points" in message and "agreed score is 2" in message
    assert "Check the score the table agreed" in message
    assert not Hand.objects.filter(table=balsall_table).exists()
    assert scorer_api.post("/api/v1/hands/", won(balsall_table.pk, 3),
                           format="json").status_code == 201


def test_a_goulash_needs_its_own_minimum(scorer_api, balsall_table):
    """003: after a wall game the goulash hand needs 5 points to go out."""
    assert scorer_api.post("/api/v1/hands/", wall_game(balsall_table.pk),
                           format="json").status_code == 201
    answer = scorer_api.post("/api/v1/hands/", won(balsall_table.pk, 4), format="json")
    assert answer.status_code == 400
    assert "at least 5 points in a goulash" in answer.json()["seats"]["S"]["score"][0]
    assert scorer_api.post("/api/v1/hands/", won(balsall_table.pk, 5),
                           format="json").status_code == 201


def test_a_correction_to_a_score_under_the_minimum_is_refused(scorer_api, balsall_table):
    hand = scorer_api.post("/api/v1/hands/", won(balsall_table.pk, 6), format="json").json()
    answer = scorer_api.patch(f"/api/v1/hands/{hand['id']}/",
                              {"seats": {"S": {"score": 2}}}, format="json")
    assert answer.status_code == 400
    assert "needs at least 3 points" in str(answer.json())
    assert Hand.objects.get(pk=hand["id"]).entries.get(seat_wind="S").data == {"score": 6}


def test_the_settle_calculator_holds_typed_scores_to_the_minimum(client):
    body = {"rules": "balsall-common", "prevailing_wind": "E", "winner": "S", "draw": False,
            "hands": {"E": {"score": 0}, "S": {"score": 2}, "W": {"score": 0}, "N": {"score": 0}}}
    answer = client.post("/api/v1/settle", body, content_type="application/json")
    assert answer.status_code == 400
    assert "needs at least 3 points" in str(answer.json())
    body["hands"]["S"] = {"score": 3}
    assert client.post("/api/v1/settle", body,
                       content_type="application/json").status_code == 200


def test_a_minimum_of_doubles_is_not_judged_from_a_typed_score(scorer_api, club, players,
                                                                house_rule_versions):
    """west-wind-goulash needs 3 doubles: a typed score says nothing of doubles, so it stands
    (the table agreed it)."""
    session = ClubSession.objects.create(
        club=club, date=dt.date(2026, 11, 22),
        house_rule_version=house_rule_versions["west-wind-goulash"])
    table = Table.objects.create(session=session, number=1)
    for position, (member, wind) in enumerate(zip(players, "ESWN", strict=True)):
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    assert scorer_api.post("/api/v1/hands/", won(table.pk, 8), format="json").status_code == 201


def test_the_record_page_puts_the_sentence_on_the_score_box(client_as, balsall_table):
    from django.urls import reverse

    session = balsall_table.session
    ids = {s.starting_wind: s.pk for s in balsall_table.seats.all()}
    post = {"action": "save", "expected_number": "1", "winner": str(ids["S"]), "discarder": "",
            "win_source": "wall"}
    for wind, seat_id in ids.items():
        post.update({f"seat{seat_id}-mode": "quick",
                     f"seat{seat_id}-score": "2" if wind == "S" else "0"})
    url = reverse("record-hand", args=[session.club.slug, session.pk, balsall_table.pk])
    answer = client_as("scorer").post(url, post)
    assert answer.status_code == 400  # the form again, with its answers to mend
    assert "needs at least 3 points" in answer.content.decode()
    assert not Hand.objects.filter(table=balsall_table).exists()
