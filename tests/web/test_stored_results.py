"""Every write stores the hand's computed row (``Hand.computed``) and each seat's result with what
standings count (won, gave, limit), equal to what a replay of the night makes; pages and the state
API read them and call no engine (issue #12: reads never replay)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import play.hand
import play.seat
from clubs.models import Hand, HandResult
from clubs.recording import correct_hand, recompute_table, record_hand, swap_seats, void_hand
from clubs.signals import table_recomputed
from clubs.table_state import build_table_state, stored_table_state
from tests.web.test_recording import contract_hand, quick

pytestmark = pytest.mark.django_db


def night(table, user, hands=6):
    """A short night: the contract's hand (004 Sheet 19 hand 1 on a discard), a wall game,
    quick hands won from the wall and on discards."""
    record_hand(table, contract_hand(), user)
    record_hand(table, {"draw": True, "seats": {w: {"score": 0} for w in "ESWN"}}, user)
    for n in range(hands - 2):
        winner = "ESWN"[n % 4]
        discarder = None if n % 2 else "ESWN"[(n + 1) % 4]
        record_hand(table, quick(winner=winner, discarder=discarder), user)


def assert_stored_equals_replay(table):
    replayed = build_table_state(table)
    stored = {h.pk: h.computed for h in Hand.objects.filter(table=table)}
    assert {row.id: row.to_json() for row in replayed.hands} == stored
    rows = {(r.hand_id, r.seat_id): r for r in HandResult.objects.filter(hand__table=table)}
    expected = {}
    for row in replayed.hands:
        if not row.counted:
            continue
        for seat_id, score in row.scores.items():
            result = row.results[seat_id]
            expected[(row.id, seat_id)] = (
                score, row.net[seat_id], row.totals[seat_id], seat_id == row.winner,
                seat_id == row.discarder, (result.limit if result else None) or "")
    assert {k: (r.score, r.net, r.running_total, r.won, r.gave, r.limit)
            for k, r in rows.items()} == expected
    table.refresh_from_db()
    assert table.state["totals"] == replayed.snapshot()["totals"]


def test_recording_stores_what_a_replay_computes(table, users):
    night(table, users["scorer"])
    assert_stored_equals_replay(table)
    first = Hand.objects.get(table=table, number=1)
    winner = HandResult.objects.get(hand=first, won=True)
    assert winner.score == 864 and winner.seat_wind == "S"
    assert HandResult.objects.get(hand=first, gave=True).seat_wind == "W"
    lines = first.computed["results"][str(winner.seat_id)]["lines"]
    assert sum(x["points"] for x in lines) == 54  # 004 Sheet 19 hand 1: 54 points


def test_corrections_voids_and_swaps_keep_the_stored_rows_equal_to_a_replay(table, users):
    user = users["scorer"]
    night(table, user, hands=8)
    third = Hand.objects.get(table=table, number=3)
    correct_hand(third, {"seats": {"E": {"score": 400}}}, user)
    assert_stored_equals_replay(table)
    void_hand(Hand.objects.get(table=table, number=5), user, "misdeal")
    assert_stored_equals_replay(table)
    assert not HandResult.objects.filter(hand__number=5, hand__table=table).exists()
    assert Hand.objects.get(table=table, number=5).computed["payments"] == []
    seats = list(table.seats.order_by("position"))
    swap_seats(table, seats[0], seats[2], 6, user)
    assert_stored_equals_replay(table)
    void_hand(Hand.objects.get(table=table, number=5), user, "", voided=False)
    assert_stored_equals_replay(table)


def test_a_correction_writes_only_the_hands_it_moved(table, users):
    night(table, users["scorer"], hands=6)
    with CaptureQueriesContext(connection) as early:
        correct_hand(Hand.objects.get(table=table, number=6), {"seats": {"E": {"score": 50}}},
                     users["scorer"])
    updates = [q for q in early.captured_queries
               if q["sql"].startswith("UPDATE") and '"computed"' in q["sql"]]
    assert len(updates) == 1  # hand 6 only, in one statement


def test_every_write_tells_the_feature_apps_in_the_same_transaction(table, users):
    seen = []

    def receiver(sender, table, from_number, **kwargs):
        seen.append((table.pk, from_number, connection.in_atomic_block))

    table_recomputed.connect(receiver)
    try:
        record_hand(table, quick(), users["scorer"])
        record_hand(table, quick(winner="S"), users["scorer"])
        void_hand(Hand.objects.get(table=table, number=1), users["scorer"], "misdeal")
        recompute_table(table)
    finally:
        table_recomputed.disconnect(receiver)
    assert seen == [(table.pk, 1, True), (table.pk, 2, True), (table.pk, 1, True),
                    (table.pk, 1, True)]


def test_stored_state_reads_what_was_stored(table, users):
    night(table, users["scorer"])
    stored, replayed = stored_table_state(table), build_table_state(table)
    assert stored.totals == replayed.totals and stored.pot == replayed.pot
    assert stored.next == replayed.next
    assert [r.to_json() for r in stored.hands] == [r.to_json() for r in replayed.hands]


def forbid_engines(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a read called an engine")

    for module, name in ((play.seat, "score_hand"), (play.hand, "parse_hand"),
                         (play.hand, "settle_hand")):
        monkeypatch.setattr(module, name, refuse)


def test_the_table_page_and_state_api_call_no_engine(table, users, client, scorer_api,
                                                    monkeypatch):
    night(table, users["scorer"])
    forbid_engines(monkeypatch)
    session = table.session
    client.force_login(users["member"])
    page = client.get(reverse("table", args=[session.club.slug, session.pk, table.pk]))
    assert page.status_code == 200
    answer = scorer_api.get(f"/api/v1/tables/{table.pk}/state/")
    assert answer.status_code == 200 and len(answer.json()["hands"]) == 6


def page(client, table, **params):
    session = table.session
    return client.get(reverse("table", args=[session.club.slug, session.pk, table.pk]), params)


def test_the_table_page_shows_the_latest_hands_and_pages_back(table, users, client):
    user = users["scorer"]
    for n in range(30):
        record_hand(table, quick(winner="ESWN"[n % 4]), user)
    client.force_login(users["member"])
    latest = page(client, table).content.decode()
    assert 'id="hand-30"' in latest and 'id="hand-7"' in latest and 'id="hand-6"' not in latest
    assert "?before=7" in latest and "Later hands" not in latest
    earlier = page(client, table, before=7).content.decode()
    assert 'id="hand-6"' in earlier and 'id="hand-1"' in earlier and 'id="hand-7"' not in earlier
    assert "Later hands" in earlier
    # The totals stay those after the last hand, on every page.
    totals = stored_table_state(table).totals
    for seat_id, total in totals.items():
        assert f'data-seat="{seat_id}"' in earlier and f'data-total="{total}"' in earlier


def test_the_table_pages_queries_do_not_grow_with_the_night(table, users, client):
    client.force_login(users["member"])
    counts = []
    for hands in (3, 40):
        while Hand.objects.filter(table=table).count() < hands:
            record_hand(table, quick(), users["scorer"])
        with CaptureQueriesContext(connection) as seen:
            assert page(client, table).status_code == 200
        counts.append(len(seen.captured_queries))
    assert counts[0] == counts[1]


def test_a_hands_page_explains_every_score_from_what_was_stored(table, users, client,
                                                              monkeypatch):
    record_hand(table, contract_hand(), users["scorer"])
    forbid_engines(monkeypatch)
    hand = Hand.objects.get(table=table, number=1)
    session = table.session
    client.force_login(users["member"])
    answer = client.get(reverse("hand", args=[session.club.slug, session.pk, table.pk, hand.pk]))
    text = answer.content.decode()
    assert answer.status_code == 200
    assert "= 54 points, 4 doubles → 864" in text  # 004 Sheet 19 hand 1
    assert "agreed score 36" in text and "Payments" in text
    client.force_login(users["outsider"])
    assert client.get(reverse("hand", args=[session.club.slug, session.pk, table.pk,
                                            hand.pk])).status_code == 404
