"""A hand appended from the table's stored state leaves the same rows as rebuilding the table
from what was entered (``recompute_table``, a replay of the night): the hand with its computed
row, its entries, each seat's result, the table's state and league's night summary."""

from __future__ import annotations

import pytest

from clubs.models import Hand, HandEntry, HandResult, Seat, Table
from clubs.recording import correct_hand, recompute_table, record_hand, void_hand
from tests.web.test_recording import contract_hand, quick

ENTRIES = [
    contract_hand(),  # 004 Sheet 19 hand 1, as tiles, on a discard
    {"draw": True, "seats": {w: {"score": 0} for w in "ESWN"}},
    quick(winner="S", discarder="N"),
    quick(winner="W", scores=(10, 20, 300, 40)),
    {**quick(winner="N", discarder="E"), "facts": {"penalties": [
        {"kind": "false_naming", "offender": "S", "claimant": "W"}]}},
]


def rows(table: Table) -> dict:
    """The table's rows, by hand number and seat position, without ids or times."""
    position = {s.pk: s.position for s in Seat.objects.filter(table=table)}

    def seat(seat_id):
        return None if seat_id is None else position[seat_id]

    def renumber(computed: dict) -> dict:
        def keyed(d):
            return {str(position[int(k)]): v for k, v in d.items()}

        return {**computed, "scores": keyed(computed["scores"]),
                "results": keyed(computed["results"]), "net": keyed(computed["net"]),
                "totals": keyed(computed["totals"]),
                "payments": [{**p, "payer": p["payer"] if p["payer"] == "pot" else seat(p["payer"]),
                              "payee": p["payee"] if p["payee"] == "pot" else seat(p["payee"])}
                             for p in computed["payments"]],
                "seating": {**computed["seating"], "dealer": seat(computed["seating"]["dealer"]),
                            "winds": keyed(computed["seating"]["winds"])}}

    hands = {
        h.number: (h.prevailing_wind, seat(h.dealer_id), seat(h.winner_id),
                   seat(h.discarder_id), h.draw, h.goulash, h.win_source, h.facts, h.voided,
                   renumber(h.computed))
        for h in Hand.objects.filter(table=table)
    }
    entries = {(e.hand.number, seat(e.seat_id)): (e.seat_wind, e.kind, e.data)
               for e in HandEntry.objects.filter(hand__table=table).select_related("hand")}
    results = {(r.hand.number, seat(r.seat_id)): (r.seat_wind, r.score, r.net, r.running_total,
                                                  r.won, r.gave, r.limit, r.member_id)
               for r in HandResult.objects.filter(hand__table=table).select_related("hand")}
    table.refresh_from_db()
    # "rev" counts the state's writes, which a rebuild moves on; what the state says does not.
    state = {k: v for k, v in table.state.items() if k not in ("seats", "totals", "next",
                                                               "rotation", "rev")}
    state["totals"] = sorted(table.state["totals"].values())
    # What a feature app keeps from the signal the write sends (league's night summary).
    from league.models import NightResult

    nights = {seat(n.seat_id): (n.counted, n.hands, n.net, n.mahjongs, n.given, n.best_score,
                                n.place, n.tied, n.points_zero)
              for n in NightResult.objects.filter(table=table)}
    return {"hands": hands, "entries": entries, "results": results, "state": state,
            "nights": nights}


def play_night(table: Table, user) -> None:
    for entry in ENTRIES:
        record_hand(table, entry, user)
    correct_hand(Hand.objects.get(table=table, number=3), {"seats": {"E": {"score": 44}}}, user)
    void_hand(Hand.objects.get(table=table, number=4), user, "misdeal")
    record_hand(table, quick(winner="E"), user)


def check_against_a_replay(table, users):
    play_night(table, users["scorer"])
    appended = rows(table)
    recompute_table(table)
    assert rows(table) == appended


@pytest.mark.django_db
def test_appended_rows_are_what_a_replay_writes(table, users):
    check_against_a_replay(table, users)


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_too(table, users):
    """Each hand its own transaction, as a request records it."""
    check_against_a_replay(table, users)
