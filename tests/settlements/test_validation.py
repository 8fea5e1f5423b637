"""Impossible hands are refused with the field named and how to mend it; a settlement that
would not net to zero is an engine defect (SettlementBug)."""

from dataclasses import replace

import pytest

from settlements.engine import Penalty, SettlementBug, SettlementInputError
from settlements.engine.ledger import MAHJONG
from settlements.engine.schemes import SETTLEMENT_SCHEMES, settlement_scheme
from settlements.engine.table import POT

from .helpers import settle
from .house_rules import bmja, guide


@pytest.mark.parametrize("fields, path, words", [
    ({"winner": "X"}, "winner", "not at the table"),
    ({"winner": "S", "discarder": "S"}, "discarder", "cannot have discarded"),
    ({"winner": "S", "draw": True}, "draw", "has no winner"),
    ({}, "winner", "Name the seat that went Mah Jong"),
    ({"winner": "S", "discarder": "W", "win_source": "wall"}, "discarder", "nobody discarded"),
    ({"winner": "S", "win_source": "discard"}, "discarder", "name who gave it"),
    ({"draw": True, "discarder": "W"}, "discarder", "no winning discard"),
    ({"winner": "S", "win_source": "sky"}, "win_from", "Use one of"),
    ({"winner": "S", "kong_replacement_win": True, "win_source": "wall"}, "win_from", "kong box"),
    ({"winner": "S", "dealer": "X"}, "dealer", "not at the table"),
    ({"winner": "S", "pot": 100}, "pot", "no goulash pot or kitty"),
    ({"winner": "S", "kongs": {"E": ("stolen",)}}, "kongs.E.0", "A kong is"),
    ({"winner": "S", "bonus": {"E": ("f9",)}}, "bonus.E.0", "flowers f1-f4"),
    ({"winner": "S", "clean_hands": frozenset({"S"})}, "clean_hands", "paid as the win"),
    ({"winner": "S", "penalties": (Penalty("fine", "E"),)}, "penalties.0.kind", "Use one of"),
    ({"draw": True, "penalties": (Penalty("cannon", "E"),)}, "penalties.0.kind", "needs a winner"),
    ({"winner": "S", "penalties": (Penalty("false_naming", "E"),)}, "penalties.0.claimant", "Name"),
    ({"winner": "S", "discarder": "W", "penalties": (Penalty("false_naming_mahjong", "E"),)},
     "penalties.0.offender", "its discarder"),
    ({"winner": "S", "penalties": (Penalty("false_mahjong", "S"),)}, "penalties.0.offender",
     "was not false"),
])
def test_impossible_hands_name_the_field(fields, path, words):
    with pytest.raises(SettlementInputError) as exc:
        settle(bmja(), **fields)
    assert path in exc.value.errors, exc.value.errors
    assert words in " ".join(exc.value.errors[path])


def test_negative_score_is_refused():
    with pytest.raises(SettlementInputError) as exc:
        settle(bmja(), {"E": -5}, winner="S")
    assert "hands.E.score" in exc.value.errors


def test_unknown_scheme_is_refused():
    rule = replace(guide(), payment=replace(guide().payment, scheme="nobody_pays"))
    with pytest.raises(SettlementInputError) as exc:
        settle(rule, winner="S")
    assert "unknown payment scheme" in exc.value.errors["rules"][0]


def test_a_settlement_that_does_not_net_to_zero_is_a_bug():
    """Issue 5: 'a settlement that would not is a bug, caught by an assertion in the engine'."""

    @settlement_scheme("broken_for_test")
    def pays_from_an_empty_pot(ledger, table, rule):
        ledger.pay(POT, table.winner, 10, "money from nowhere", MAHJONG)

    rule = replace(bmja(), payment=replace(bmja().payment, scheme="broken_for_test"))
    try:
        with pytest.raises(SettlementBug):
            settle(rule, winner="S")
    finally:
        del SETTLEMENT_SCHEMES["broken_for_test"]


def test_a_payment_to_someone_not_at_the_table_is_a_bug():
    @settlement_scheme("broken_for_test")
    def pays_a_stranger(ledger, table, rule):
        ledger.pay("E", "X", 10, "to a stranger", MAHJONG)

    rule = replace(bmja(), payment=replace(bmja().payment, scheme="broken_for_test"))
    try:
        with pytest.raises(SettlementBug):
            settle(rule, winner="S")
    finally:
        del SETTLEMENT_SCHEMES["broken_for_test"]
