"""Penalties of 004 Sheet 30."""

from settlements.engine import Penalty

from .helpers import paid, settle
from .house_rules import balsall_common, bmja


def test_false_mahjong_half_limit_to_each_other_player_004_sheet30_item3():
    result = settle(bmja(), draw=True, penalties=(Penalty("false_mahjong", "W"),))
    assert paid(result) == {("W", "E"): 500, ("W", "S"): 500, ("W", "N"): 500}
    assert result.net["W"] == -1500


def test_false_mahjong_needs_an_amount_without_a_limit_004_sheet30_item3():
    result = settle(balsall_common(), draw=True, penalties=(Penalty("false_mahjong", "W", amount=8),))
    assert result.net == {"E": 8, "S": 8, "W": -24, "N": 8}


def test_letting_off_a_cannon_offender_also_pays_what_the_others_paid_004_sheet30_item5():
    result = settle(bmja(), {"E": 12, "S": 864, "W": 36, "N": 0}, winner="S", discarder="W",
                    penalties=(Penalty("cannon", "W"),))
    assert paid(result, "mahjong") == {("W", "S"): 1728 + 864 + 864}
    # The others still settle their differences.
    assert paid(result, "difference") == {("E", "W"): 48, ("N", "E"): 24, ("N", "W"): 36}
    assert "letting off a cannon" in result.payments[0].why


def test_false_naming_50_to_the_claimant_004_sheet30_item2():
    result = settle(bmja(), draw=True, penalties=(Penalty("false_naming", "N", claimant="E"),))
    assert paid(result) == {("N", "E"): 50}


def test_false_naming_for_mahjong_discarder_settles_for_all_004_sheet30_item2():
    """'the discarder must pay the Mah Jong player his/her full score and settle the other
    players' debts to the winner. No other settlements between players take place.'"""
    result = settle(bmja(), {"E": 12, "S": 864, "W": 36, "N": 0}, winner="S", discarder="W",
                    penalties=(Penalty("false_naming_mahjong", "W"),))
    assert paid(result) == {("W", "S"): 3456}
    assert result.net == {"E": 0, "S": 3456, "W": -3456, "N": 0}
