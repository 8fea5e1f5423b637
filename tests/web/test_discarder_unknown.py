""""The discarder unknown" at a real table: the record page's choice and the hands API's
``"discarder": "unknown"`` record a hand won on a discard whose discarder nobody remembers;
it is stored with no discarder, shown as such, and corrected like any other hand."""

from __future__ import annotations

import pytest

from clubs.models import Hand
from tests.web.test_pages_hands import quick_fields, record_url, seat_ids, table_url

pytestmark = pytest.mark.django_db

SCORES = {"E": {"score": 8}, "S": {"score": 64}, "W": {"score": 0}, "N": {"score": 16}}
# bmja: everyone pays South 64 (East double), the losers settle their differences.
NETS = {"E": -128, "S": 256, "W": -96, "N": -32}


def test_the_hands_api_records_an_unknown_discarder(scorer_api, table):
    body = {"table": table.pk, "winner": "S", "discarder": "unknown", "seats": SCORES}
    answer = scorer_api.post("/api/v1/hands/", body, format="json")
    assert answer.status_code == 201, answer.json()
    hand = answer.json()
    assert hand["discarder"] is None and hand["win_from"] == "discard"
    assert hand["entry"]["discarder"] == "unknown"
    assert {s["wind"]: s["net"] for s in hand["seats"]} == NETS
    stored = Hand.objects.get(pk=hand["id"])
    assert stored.discarder_id is None and stored.win_source == "discard"
    # Corrected later (a score), the discarder stays unknown.
    answer = scorer_api.patch(f"/api/v1/hands/{stored.pk}/",
                              {"seats": {"E": {"score": 10}}}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["entry"]["discarder"] == "unknown"
    bad = scorer_api.post("/api/v1/hands/", {**body, "discarder": "nobody"}, format="json")
    assert bad.status_code == 400 and "discarder" in bad.json()


def test_the_record_page_offers_nobody_remembers_who(client_as, table):
    client = client_as("scorer")
    page = client.get(record_url(table)).content.decode()
    assert "Someone, nobody remembers who" in page
    ids = seat_ids(table)
    data = {"action": "save", "expected_number": "1", "winner": str(ids["S"]),
            "win_source": "discard", "discarder": "unknown"}
    for wind, entry in SCORES.items():
        data.update(quick_fields(ids[wind], entry["score"]))
    response = client.post(record_url(table), data)
    assert response.status_code == 302, response.context and response.context.get("errors")
    hand = Hand.objects.get(table=table)
    assert hand.discarder_id is None and hand.win_source == "discard"
    state = client.get(table_url(table)).context["state"]
    assert {s["name"]: s["total"] for s in state["seats"]} == {
        "Alice": NETS["E"], "Bob": NETS["S"], "Carol": NETS["W"], "David": NETS["N"]}
    page = client.get(table_url(table)).content.decode()
    assert "who gave the tile is not known" in page
    # Without the answer, a discard still asks who.
    data["discarder"] = ""
    data["expected_number"] = "2"
    response = client.post(record_url(table), data)
    assert response.status_code == 400
    assert "say who gave it, or" in response.content.decode()


def test_a_refused_entry_in_words_says_a_robbed_kong():
    # The conflict message's "Yours: ..." said "on a discard" of a kong robbed, named or not.
    from clubs.views.table_view import entry_summary

    seat_of = {"E": 1, "S": 2}
    names = {1: "Ann", 2: "Bo"}
    robbed = {"winner": "E", "win_from": "robbed_kong", "seats": {}}
    assert entry_summary({**robbed, "discarder": "S"}, names, seat_of) == \
        "Ann went Mah Jong robbing Bo's kong."
    assert entry_summary({**robbed, "discarder": "unknown"}, names, seat_of) == \
        "Ann went Mah Jong robbing a kong (who gave the tile is not known)."
    assert entry_summary({**robbed, "discarder": "S", "win_from": "discard"}, names,
                         seat_of) == "Ann went Mah Jong on Bo's discard."
