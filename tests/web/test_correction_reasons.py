"""Corrections and voids on the correct page and in the API: the reason a correction carries
(issue #25) and what the later hands do (issue #21: seated again, or the table played on as
recorded), stored in the audit trail and shown with the hand on the table and hand pages."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Hand
from clubs.recording import correct_hand, record_hand, void_hand
from play import KEPT
from tests.web.test_pages_hands import correct_url, quick_fields, table_url

pytestmark = pytest.mark.django_db


def quick_entry(winner="E", scores=(100, 10, 20, 30)) -> dict:
    return {"winner": winner, "discarder": None, "win_from": "wall",
            "seats": {w: {"score": s} for w, s in zip("ESWN", scores, strict=True)}}


def three_hands(table, user):
    """Alice (East) wins hand 1 and deals hand 2; Carol wins hand 2 from West; Bob deals
    hand 3."""
    first = record_hand(table, quick_entry("E"), user)
    record_hand(table, quick_entry("W"), user)
    record_hand(table, quick_entry("E"), user)
    return first


def east_of(table, number) -> str:
    return Hand.objects.get(table=table, number=number).entries.get(seat_wind="E").seat.name


def hand_url(hand) -> str:
    t = hand.table
    return reverse("hand", args=[t.session.club.slug, t.session_id, t.pk, hand.pk])


def edit_post(table, hand, winner_seat, **extra) -> dict:
    """The correct page's edit form, every seat an agreed score, ``winner_seat`` winning."""
    data = {"action": "edit", "winner": str(winner_seat), "win_source": "wall", "discarder": ""}
    for entry in hand.entries.all():
        data.update(quick_fields(entry.seat_id, 100 if entry.seat_id == winner_seat else 10))
    return {**data, **extra}


# -- the correct page -------------------------------------------------------------------------


def test_the_correct_page_offers_a_reason_and_what_the_later_hands_do(client_as, table):
    hand = record_hand(table, quick_entry(), None)
    page = client_as("scorer").get(correct_url(hand)).content.decode()
    assert "Why is it corrected?" in page and 'name="reason"' in page
    assert page.count('name="later_hands"') == 4  # two choices, on the edit and void forms
    assert "The table played on as recorded" in page and "Seat them again" in page


def test_a_correction_on_the_page_reseats_and_keeps_its_reason(client_as, table, users):
    first = three_hands(table, users["scorer"])
    bob = table.seats.get(position=1).pk
    client = client_as("scorer")
    response = client.post(correct_url(first),
                           edit_post(table, first, bob, reason="Bob went out, not Alice"))
    assert response.status_code == 302
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Bob", "Carol"]
    audit = AuditEntry.objects.get(action="update")
    assert audit.note == "Bob went out, not Alice"
    assert audit.after["later_hands"] == "reseat"
    followed = client.get(response["Location"])
    said = [str(m) for m in followed.context["messages"]]
    assert said == ["Hand 1 corrected; hands 2, 3 are seated again from it and the totals are "
                    "recomputed."]
    # The reason is shown with the hand on the table page, the hand page and the audit trail.
    assert "Corrected: Bob went out, not Alice" in followed.content.decode()
    assert "Corrected: Bob went out, not Alice" in client.get(hand_url(first)).content.decode()
    trail = client.get(correct_url(first)).content.decode()
    assert "Bob went out, not Alice" in trail
    assert "Hand 2 seated again: Bob deals (was Alice)" in trail


def test_played_on_as_recorded_from_the_page(client_as, table, users):
    first = three_hands(table, users["scorer"])
    bob = table.seats.get(position=1).pk
    client = client_as("scorer")
    response = client.post(correct_url(first),
                           edit_post(table, first, bob, later_hands="as_recorded"))
    assert response.status_code == 302
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Alice", "Bob"]
    assert Hand.objects.get(table=table, number=2).facts[KEPT] is True
    page = client.get(response["Location"]).content.decode()
    assert "played on as recorded from hand 2" in page
    assert "Seated as the table played it" in page
    hand2 = Hand.objects.get(table=table, number=2)
    assert "Seated as the table played it" in client.get(hand_url(hand2)).content.decode()


def test_a_void_reason_is_shown_on_the_table_page(client_as, table, users):
    first = three_hands(table, users["scorer"])
    client = client_as("scorer")
    response = client.post(correct_url(first), {"action": "void", "reason": "entered twice",
                                                "later_hands": "as_recorded"})
    assert response.status_code == 302
    page = client.get(table_url(table)).content.decode()
    assert "Void: entered twice" in page
    client.post(correct_url(first), {"action": "restore", "later_hands": "reseat"})
    page = client.get(table_url(table)).content.decode()
    assert "Void: entered twice" in page and "Restored" in page


def test_a_reason_typed_as_markup_is_shown_as_text(client_as, table, users):
    hand = record_hand(table, quick_entry(), users["scorer"])
    void_hand(hand, users["scorer"], reason='<script>alert("x")</script>')
    page = client_as("member").get(table_url(table)).content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page


def test_the_page_refuses_an_unknown_choice_and_a_long_reason(client_as, table, users):
    first = three_hands(table, users["scorer"])
    bob = table.seats.get(position=1).pk
    client = client_as("scorer")
    for extra in ({"later_hands": "shuffle"}, {"reason": "x" * 201}):
        response = client.post(correct_url(first), edit_post(table, first, bob, **extra))
        assert response.status_code == 400
    assert not AuditEntry.objects.exists()
    assert Hand.objects.get(pk=first.pk).winner.name == "Alice"


@pytest.mark.parametrize("role, expected", [("admin", 302), ("scorer", 302), ("member", 403),
                                            ("outsider", 404), ("anonymous", 404)])
def test_correcting_with_a_reason_by_role(client_as, table, users, role, expected):
    first = three_hands(table, users["scorer"])
    bob = table.seats.get(position=1).pk
    response = client_as(role).post(correct_url(first),
                                    edit_post(table, first, bob, reason="by role"))
    assert response.status_code == expected
    assert AuditEntry.objects.filter(note="by role").exists() == (role in ("admin", "scorer"))


def test_the_table_pages_queries_do_not_grow_with_reasons(client_as, table, users):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first = three_hands(table, users["scorer"])
    client = client_as("member")
    with CaptureQueriesContext(connection) as before:
        client.get(table_url(table))
    for n in (1, 2, 3):
        hand = Hand.objects.get(table=table, number=n)
        correct_hand(hand, {}, users["scorer"], note=f"checked {n}")
    void_hand(first, users["scorer"], reason="twice")
    with CaptureQueriesContext(connection) as after:
        page = client.get(table_url(table)).content.decode()
    assert "checked 3" in page and "Void: twice" in page
    assert len(after.captured_queries) == len(before.captured_queries)


# -- the API ----------------------------------------------------------------------------------


def test_the_api_corrects_with_a_reason_and_the_later_hands_choice(scorer_api, admin_api, table,
                                                                   users):
    first = three_hands(table, users["scorer"])
    url = f"/api/v1/hands/{first.pk}/"
    answer = scorer_api.patch(url, {"winner": "S", "reason": "Bob went out",
                                    "later_hands": "as_recorded"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Alice", "Bob"]
    trail = admin_api.get("/api/v1/audit-entries/").json()["results"]
    assert trail[0]["note"] == "Bob went out"
    assert trail[0]["after"]["later_hands"] == "as_recorded"
    assert trail[0]["after"]["seating_kept"] == [2]
    # Re-seated by default: hand 2 is Bob's deal again once hand 1 is put back.
    answer = scorer_api.patch(url, {"winner": "E", "reason": "Alice after all"}, format="json")
    assert answer.status_code == 200
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Alice", "Bob"]


def test_the_api_reseats_by_default_and_says_what_moved(scorer_api, admin_api, table, users):
    first = three_hands(table, users["scorer"])
    answer = scorer_api.patch(f"/api/v1/hands/{first.pk}/", {"winner": "S"}, format="json")
    assert answer.status_code == 200
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Bob", "Carol"]
    moved = admin_api.get("/api/v1/audit-entries/").json()["results"][0]["after"][
        "seating_moved"]
    assert [m["hand"] for m in moved] == [2, 3]
    state = scorer_api.get(f"/api/v1/tables/{table.pk}/state/").json()
    assert state["hands"][1]["seats"][0]["name"] == "Bob"  # East first


def test_the_api_voids_as_recorded(scorer_api, table, users):
    first = three_hands(table, users["scorer"])
    answer = scorer_api.post(f"/api/v1/hands/{first.pk}/void/",
                             {"reason": "misdeal", "later_hands": "as_recorded"}, format="json")
    assert answer.status_code == 200
    assert Hand.objects.get(table=table, number=2).facts.get(KEPT) is None  # nothing moved
    second = Hand.objects.get(table=table, number=2)
    answer = scorer_api.post(f"/api/v1/hands/{second.pk}/void/",
                             {"reason": "misdeal", "later_hands": "as_recorded"}, format="json")
    assert answer.status_code == 200
    assert Hand.objects.get(table=table, number=3).facts[KEPT] is True


@pytest.mark.parametrize("body, field", [
    ({"later_hands": "shuffle"}, "later_hands"),
    ({"reason": "x" * 201}, "reason"),
    ({"reason": "one", "note": "another"}, "note"),
])
def test_the_api_refuses_bad_choices_with_field_paths(scorer_api, table, users, body, field):
    first = three_hands(table, users["scorer"])
    answer = scorer_api.patch(f"/api/v1/hands/{first.pk}/", {"winner": "S", **body},
                              format="json")
    assert answer.status_code == 400 and field in answer.json(), answer.json()
    assert not AuditEntry.objects.exists()
    answer = scorer_api.post(f"/api/v1/hands/{first.pk}/void/",
                             {"reason": "x", "later_hands": "shuffle"}, format="json")
    assert answer.status_code == 400 and "later_hands" in answer.json()


def test_the_api_will_not_take_a_kept_seating_as_entered(scorer_api, table, users):
    first = three_hands(table, users["scorer"])
    answer = scorer_api.patch(f"/api/v1/hands/{first.pk}/", {"facts": {KEPT: True}},
                              format="json")
    assert answer.status_code == 200
    assert KEPT not in Hand.objects.get(pk=first.pk).facts  # written by the service only
    body = {"table": table.pk, **quick_entry(), "facts": {KEPT: True}}
    answer = scorer_api.post("/api/v1/hands/", body, format="json")
    assert answer.status_code == 400 and "facts" in answer.json()


def test_a_correction_sent_twice_with_its_reason_is_made_once(scorer_api, table, users):
    first = three_hands(table, users["scorer"])
    body = {"winner": "S", "reason": "Bob", "client_id": str(uuid.uuid4())}
    one = scorer_api.patch(f"/api/v1/hands/{first.pk}/", body, format="json")
    two = scorer_api.patch(f"/api/v1/hands/{first.pk}/", body, format="json")
    assert one.status_code == two.status_code == 200 and one.json() == two.json()
    assert AuditEntry.objects.filter(action="update").count() == 1
    assert [east_of(table, n) for n in (1, 2, 3)] == ["Alice", "Bob", "Carol"]


HEAVENLY = {"melds": [], "concealed": ["c3", "c3", "c3", "c6", "c6", "c6", "c5", "c5", "d1", "d2",
                                       "d3", "c9", "c9", "c9"],
            "win": {"tile": "c5", "from": "wall", "heavenly": True}}


def test_a_reseating_the_engine_refuses_is_a_400_on_the_page_and_in_the_api(
        client_as, scorer_api, table, users):
    """Alice's Heaven's Blessing in hand 2 stands only while she is East."""
    first = record_hand(table, quick_entry("E"), users["scorer"])
    record_hand(table, {**quick_entry("E"), "seats": {**quick_entry("E")["seats"],
                                                       "E": HEAVENLY}}, users["scorer"])
    answer = scorer_api.patch(f"/api/v1/hands/{first.pk}/", {"winner": "S"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["later_hands"][0].startswith("Hand 2 cannot be scored seated again")
    bob = table.seats.get(position=1).pk
    response = client_as("scorer").post(correct_url(first), edit_post(table, first, bob))
    assert response.status_code == 400
    assert "Hand 2 cannot be scored seated again" in response.content.decode()
    assert not AuditEntry.objects.exists()
    answer = scorer_api.patch(f"/api/v1/hands/{first.pk}/",
                              {"winner": "S", "later_hands": "as_recorded"}, format="json")
    assert answer.status_code == 200
