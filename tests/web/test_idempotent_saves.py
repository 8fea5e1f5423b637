"""Issue #24: the same entry sent again (a lost answer, a phone's queue sent twice) is saved
once and answered as the first time; a different entry for a number already taken is a 409
that shows both. Corrections and voids the same way. The page's queue gets JSON answers."""

from __future__ import annotations

import uuid

import pytest

from clubs.models import AuditEntry, Hand
from tests.web.test_api_hands import contract_body
from tests.web.test_pages_hands import contract_example_post, record_url, seat_ids

pytestmark = pytest.mark.django_db


def test_the_same_entry_again_answers_the_hand_saved_not_a_second_hand(scorer_api, table):
    body = contract_body(table.pk, client_id=str(uuid.uuid4()), number=1)
    first = scorer_api.post("/api/v1/hands/", body, format="json")
    again = scorer_api.post("/api/v1/hands/", body, format="json")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()  # the same answer, word for word
    assert first.json()["client_id"] == body["client_id"]
    assert Hand.objects.filter(table=table).count() == 1
    # ... and the same as reading the hand.
    assert scorer_api.get(f"/api/v1/hands/{first.json()['id']}/").json() == first.json()


def test_the_same_entry_after_later_hands_is_still_the_first_hand(scorer_api, table):
    """A lost answer resent after the table moved on (the winds too): still hand 1."""
    body = contract_body(table.pk, client_id=str(uuid.uuid4()))
    first = scorer_api.post("/api/v1/hands/", body, format="json").json()
    assert scorer_api.post("/api/v1/hands/", quick_body(table.pk),
                           format="json").status_code == 201
    again = scorer_api.post("/api/v1/hands/", body, format="json")
    assert again.status_code == 201 and again.json()["number"] == 1
    assert again.json()["id"] == first["id"]
    assert Hand.objects.filter(table=table).count() == 2


def test_a_different_entry_for_a_taken_number_is_a_409_showing_both(scorer_api, table):
    saved = scorer_api.post("/api/v1/hands/", contract_body(
        table.pk, number=1, client_id=str(uuid.uuid4())), format="json").json()
    other = quick_body(table.pk, number=1, client_id=str(uuid.uuid4()))
    answer = scorer_api.post("/api/v1/hands/", other, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert "hand 2" in body["detail"]
    assert body["saved"] == saved  # the hand saved under number 1, as reading it gives
    assert body["yours"]["winner"] == "E" and body["yours"]["number"] == 1
    assert Hand.objects.filter(table=table).count() == 1


def test_an_id_reused_for_a_different_entry_is_a_409(scorer_api, table):
    client_id = str(uuid.uuid4())
    scorer_api.post("/api/v1/hands/", contract_body(table.pk, client_id=client_id), format="json")
    changed = contract_body(table.pk, client_id=client_id)
    changed["seats"]["W"] = {"score": 40}
    answer = scorer_api.post("/api/v1/hands/", changed, format="json")
    assert answer.status_code == 409
    assert "already used for hand 1" in answer.json()["detail"]
    assert answer.json()["saved"]["number"] == 1
    assert Hand.objects.count() == 1


def quick_body(table_id: int, **over) -> dict:
    return {"table": table_id, "winner": "E", "win_from": "wall",
            "seats": {w: {"score": s} for w, s in zip("ESWN", (40, 8, 0, 2), strict=True)},
            **over}


def test_a_bad_client_id_is_a_400_with_its_field(scorer_api, table):
    answer = scorer_api.post("/api/v1/hands/", contract_body(table.pk, client_id="twelve"),
                             format="json")
    assert answer.status_code == 400 and "client_id" in answer.json()


def test_corrections_and_voids_sent_twice_are_made_once(scorer_api, table):
    hand = scorer_api.post("/api/v1/hands/", contract_body(table.pk), format="json").json()
    url = f"/api/v1/hands/{hand['id']}/"
    fix = {"seats": {"E": {"score": 20}}, "note": "typo", "client_id": str(uuid.uuid4())}
    first = scorer_api.patch(url, fix, format="json")
    again = scorer_api.patch(url, fix, format="json")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert AuditEntry.objects.filter(action="update", object_id=str(hand["id"])).count() == 1

    void = {"reason": "entered twice", "client_id": str(uuid.uuid4())}
    assert scorer_api.post(f"{url}void/", void, format="json").status_code == 200
    # Restored from another phone meanwhile: the void sent again does not void it again.
    scorer_api.post(f"{url}void/", {"reason": "no, it stands", "voided": False}, format="json")
    again = scorer_api.post(f"{url}void/", void, format="json")
    assert again.status_code == 200 and again.json()["voided"] is False
    assert AuditEntry.objects.filter(action="void").count() == 1
    # An id used for the void cannot be used for a correction.
    reused = scorer_api.patch(url, {**fix, "client_id": void["client_id"]}, format="json")
    assert reused.status_code == 409


# -- the record page's queue: the form as the page posts it, answered as JSON ---------------


def queued(client, table, data):
    return client.post(record_url(table), data, HTTP_ACCEPT="application/json")


def test_the_page_answers_the_queue_in_json_and_a_resend_finds_the_hand(client_as, table):
    client = client_as("scorer")
    data = {**contract_example_post(table, "save"), "client_id": str(uuid.uuid4())}
    first = queued(client, table, data)
    assert first.status_code == 201
    assert first.json()["ok"] and first.json()["number"] == 1 and not first.json()["already"]
    again = queued(client, table, data)
    assert again.status_code == 201 and again.json()["already"]
    assert Hand.objects.count() == 1
    totals = first.json()["totals"]
    assert sorted(totals.values()) == [-1752, -924, -780, 3456]


def test_the_page_answers_a_conflict_and_what_to_mend_in_json(client_as, table):
    client = client_as("scorer")
    queued(client, table, {**contract_example_post(table, "save"), "client_id": str(uuid.uuid4())})
    other = {**contract_example_post(table, "save", 1), "client_id": str(uuid.uuid4())}
    other[f"seat{seat_ids(table)['W']}-score"] = "40"  # another entry for hand 1
    taken = queued(client, table, other)
    assert taken.status_code == 409
    assert taken.json()["kind"] == "conflict"
    assert taken.json()["saved"].startswith("Saved as hand 1: Bob went Mah Jong")
    assert taken.json()["yours"].startswith("Yours: ")
    bad = {**contract_example_post(table, "save", 2), "client_id": str(uuid.uuid4())}
    bad[f"seat{seat_ids(table)['W']}-score"] = "lots"
    refused = queued(client, table, bad)
    assert refused.status_code == 400 and refused.json()["kind"] == "invalid"
    assert "Carol" in refused.json()["message"]


# -- two phones saving the same hand of a table with the same figures ------------------------


def test_the_same_hand_from_another_phone_is_the_hand_saved_not_a_409(scorer_api, table):
    first = scorer_api.post("/api/v1/hands/", contract_body(
        table.pk, number=1, client_id=str(uuid.uuid4())), format="json").json()
    # The table moved on (hand 2), then the second phone's copy of hand 1 arrives.
    assert scorer_api.post("/api/v1/hands/", quick_body(table.pk),
                           format="json").status_code == 201
    second = scorer_api.post("/api/v1/hands/", contract_body(
        table.pk, number=1, client_id=str(uuid.uuid4())), format="json")
    assert second.status_code == 201, second.json()
    assert second.json()["id"] == first["id"] and second.json()["number"] == 1
    assert Hand.objects.filter(table=table).count() == 2
    # A voided hand 1 is no longer "the same hand saved": a clash the scorer settles.
    Hand.objects.filter(pk=first["id"]).update(voided=True)
    again = scorer_api.post("/api/v1/hands/", contract_body(
        table.pk, number=1, client_id=str(uuid.uuid4())), format="json")
    assert again.status_code == 409


def test_the_page_queue_hears_the_same_hand_was_saved_from_another_phone(client_as, table):
    client = client_as("scorer")
    one = queued(client, table, {**contract_example_post(table, "save"),
                                 "client_id": str(uuid.uuid4())})
    assert one.status_code == 201 and not one.json()["elsewhere"]
    two = queued(client, table, {**contract_example_post(table, "save"),
                                 "client_id": str(uuid.uuid4())})
    assert two.status_code == 201, two.json()
    assert two.json()["already"] and two.json()["elsewhere"] and two.json()["number"] == 1
    assert two.json()["totals"] == one.json()["totals"]
    # Without JavaScript: the table page, the hand said to be saved from another phone.
    page = client.post(record_url(table), {**contract_example_post(table, "save"),
                                           "client_id": str(uuid.uuid4())}, follow=True)
    assert "already saved from another phone" in page.content.decode()
    assert Hand.objects.filter(table=table).count() == 1


def test_two_phones_at_once_the_second_is_found_under_the_table_lock(client_as, table,
                                                                     monkeypatch):
    """Both phones' saves arrive together: the second's check before the lock sees no hand 1
    yet; under the lock it finds hand 1, reads the form with that hand's seating and answers
    it as saved from another phone."""
    from clubs.views import hand_pages

    client = client_as("scorer")
    queued(client, table, {**contract_example_post(table, "save"), "client_id": str(uuid.uuid4())})
    monkeypatch.setattr(hand_pages, "_saved_before", lambda *args: None)
    two = queued(client, table, {**contract_example_post(table, "save"),
                                 "client_id": str(uuid.uuid4())})
    assert two.status_code == 201 and two.json()["elsewhere"] and two.json()["number"] == 1
    other = {**contract_example_post(table, "save"), "client_id": str(uuid.uuid4())}
    other[f"seat{seat_ids(table)['W']}-score"] = "40"
    assert queued(client, table, other).status_code == 409
    assert Hand.objects.filter(table=table).count() == 1
