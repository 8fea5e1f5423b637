"""The worked examples of the rule documents and the contract, loaded from ../shared (read-only)
and reproduced exactly."""

import json
import re

import pytest

from settlements.engine import HandAtTable, SessionHand, run_session, settle_hand
from tests.conftest import SHARED, load_example

from .house_rules import bmja, guide

SEATS = ("E", "S", "W", "N")


def contract_settle_answer() -> dict:
    """The answer of the contract's POST /api/v1/settle section, read from the contract."""
    text = (SHARED / "contract" / "README.md").read_text()
    section = text.split("## POST /api/v1/settle", 1)[1]
    answer = section.split("Answer (200):", 1)[1]
    return json.loads(re.search(r"```json\n(.*?)```", answer, re.S).group(1))


def test_contract_settlement_example_bmja_s_wins_864_on_w_discard():
    """Contract 'POST /api/v1/settle': payments, reasons and nets exactly (004 / 001 East
    double on the win and on differences)."""
    answer = contract_settle_answer()
    table = HandAtTable(seats=SEATS, scores=answer["scores"], winner="S", discarder="W")
    result = settle_hand(table, bmja())
    assert [{"from": p.payer, "to": p.payee, "amount": p.amount, "why": p.why}
            for p in result.payments] == answer["payments"]
    assert result.net == answer["net"]
    assert result.pot_after == answer["pot"]


@pytest.mark.parametrize("case", load_example("guide-payments.json")["cases"],
                         ids=lambda case: case["case"])
def test_guide_payment_table(case):
    """002 'Paying out points/tallies': who pays the winner what, for a winning score of 100."""
    example = load_example("guide-payments.json")
    scores = {seat: 0 for seat in SEATS} | {case["winner"]: example["winning_score"]}
    table = HandAtTable(seats=SEATS, scores=scores, winner=case["winner"],
                        discarder=case["discarder"], win_source=case["win_from"])
    result = settle_hand(table, guide())
    paid = {seat: 0 for seat in SEATS if seat != case["winner"]}
    for p in result.payments:
        assert p.payee == case["winner"]
        paid[p.payer] += p.amount
    assert paid == {seat: case["pays"].get(seat, 0) for seat in paid}


@pytest.mark.parametrize("hand", load_example("bmja-scoring-practice.json")["hands"],
                         ids=lambda hand: hand["name"])
def test_bmja_scoring_practice_paid_to_winner(hand):
    """004 Sheet 19 answer sheet: what each opponent pays the winner (East double)."""
    winner = hand["seat_wind"]
    scores = {seat: 0 for seat in SEATS} | {winner: hand["expected"]["score"]}
    table = HandAtTable(seats=SEATS, scores=scores, winner=winner,
                        win_source=hand["win_from"],
                        discarder=next(s for s in SEATS if s != winner)
                        if hand["win_from"] == "discard" else None)
    result = settle_hand(table, bmja())
    paid = {p.payer: p.amount for p in result.payments if p.payee == winner}
    assert paid == hand["expected"]["paid_to_winner"]


def test_bmja_wind_rotation_sheet_16():
    """004 Sheet 16 item 3: seat winds and wind of the round over eleven hands, following
    the player who starts as West."""
    example = load_example("bmja-wind-rotation.json")
    player = example["player_starts_as"]
    hands = [SessionHand(winner=h["winner"]) for h in example["hands"]]
    result = run_session(hands, bmja())
    seen = [{"hand": record.seating.number, "seat_wind": record.seating.winds[player],
             "winner": record.table.winner, "prevailing_wind": record.seating.prevailing_wind}
            for record in result.hands]
    assert seen == example["hands"]
