"""One test per payment rule of issue 5, each naming the rule document line it checks."""

import pytest

from settlements.engine import Penalty
from settlements.engine.schemes import points_to_payment

from .helpers import paid, settle
from .house_rules import balsall_common, bmja, guide, west_wind_goulash

# -- bmja (004, 001) -------------------------------------------------------------------------


def test_bmja_east_wins_receives_double_from_everyone_004_sheet21_item7():
    result = settle(bmja(), {"E": 100, "S": 10, "W": 10, "N": 10}, winner="E")
    assert paid(result, "mahjong") == {("S", "E"): 200, ("W", "E"): 200, ("N", "E"): 200}
    assert all("East receives double" in p.why for p in result.payments if p.kind == "mahjong")
    # Equal scores among the losers: no difference payments.
    assert paid(result, "difference") == {}


def test_bmja_discarder_pays_no_more_than_the_others_004():
    result = settle(bmja(), {"S": 100}, winner="S", discarder="W")
    assert paid(result, "mahjong") == {("E", "S"): 200, ("W", "S"): 100, ("N", "S"): 100}


def test_bmja_wall_game_pays_nothing_001_the_goulash():
    """001 'The goulash': a draw, no scores are made."""
    result = settle(bmja(), {"E": 40, "S": 80}, draw=True)
    assert result.payments == ()
    assert result.net == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_bmja_two_players_no_east_doubling_001_game_for_2():
    """001 'The game for 2 players': East doesn't pay/receive double."""
    result = settle(bmja(2), {"E": 0, "W": 300}, seats=("E", "W"), winner="W")
    assert paid(result) == {("E", "W"): 300}


def test_bmja_two_players_lower_winner_pays_difference_001_game_for_2():
    """001: a Mah Jong player with the lower score pays the difference after being paid."""
    result = settle(bmja(2), {"E": 500, "W": 200}, seats=("E", "W"), winner="W", discarder="E")
    assert [(p.payer, p.payee, p.amount) for p in result.payments] == [
        ("E", "W", 200), ("W", "E", 300)]
    assert result.net == {"E": 100, "W": -100}


def test_bmja_three_players_east_double_001_game_for_3():
    result = settle(bmja(3), {"S": 100, "E": 20, "W": 4}, seats=("E", "S", "W"), winner="S")
    assert paid(result) == {("E", "S"): 200, ("W", "S"): 100, ("W", "E"): 32}


def test_three_players_need_east_001_game_for_3():
    with pytest.raises(Exception) as exc:
        settle(bmja(3), seats=("S", "W", "N"), winner="S")
    assert "East must be at the table" in str(exc.value)


def test_five_players_four_at_the_table_001_game_for_5():
    result = settle(bmja(5), {"N": 100}, winner="N")
    assert sum(result.net.values()) == 0 and result.net["N"] == 400


def test_bmja_seat_count_must_match_the_house_rule():
    with pytest.raises(Exception) as exc:
        settle(bmja(), seats=("E", "W"), winner="E")
    assert "played with 4 at the table" in str(exc.value)


# -- guide (002) -----------------------------------------------------------------------------


def test_guide_losers_do_not_settle_among_themselves_002_only_the_winner_scores():
    result = settle(guide(), {"S": 100, "W": 50, "N": 10}, winner="S")
    assert {payee for (_, payee) in paid(result)} == {"S"}


def test_guide_dealer_need_not_be_east_002_setting_up_the_next_game():
    """002: the winner becomes the dealer; the dealer pays and receives double."""
    result = settle(guide(), {"E": 100}, winner="E", dealer="W")
    assert paid(result) == {("S", "E"): 100, ("W", "E"): 200, ("N", "E"): 100}
    assert "the dealer (W) pays double" in next(p.why for p in result.payments if p.payer == "W")


# -- balsall-common (003) --------------------------------------------------------------------


def test_balsall_self_drawn_everyone_pays_003_points_to_mahjong_star():
    result = settle(balsall_common(), {"N": 3}, winner="N", win_source="wall")
    assert paid(result) == {("E", "N"): 8, ("S", "N"): 8, ("W", "N"): 8}


def test_balsall_on_a_discard_only_the_discarder_pays_003_points_to_mahjong_star():
    result = settle(balsall_common(), {"N": 5}, winner="N", discarder="S")
    assert paid(result) == {("S", "N"): 24}


def test_points_to_payment_table_rows():
    """003 gives points only: the house rule's table turns them into a payment."""
    rule = balsall_common()
    assert [points_to_payment(p, rule) for p in (0, 3, 6, 10, 13)] == [1, 8, 32, 128, 128]
    assert points_to_payment(7, bmja()) == 7  # no table: the score is the payment


def test_balsall_kong_chips_paid_by_each_other_player_003_chi_pong_kong_items_1_to_3():
    """003 p.3: hidden kong 3 chips from each, kong by discard 2, added to an exposed pung 1;
    paid at once, so also in a drawn hand."""
    result = settle(balsall_common(), draw=True,
                    kongs={"E": ("concealed",), "S": ("claimed",), "W": ("added",)})
    assert paid(result, "kong") == {
        ("S", "E"): 3, ("W", "E"): 3, ("N", "E"): 3,
        ("E", "S"): 2, ("W", "S"): 2, ("N", "S"): 2,
        ("E", "W"): 1, ("S", "W"): 1, ("N", "W"): 1,
    }
    assert result.net == {"E": 6, "S": 2, "W": -2, "N": -6}


def test_balsall_no_chips_for_the_kong_whose_replacement_wins_003_kong_to_mahjong():
    result = settle(balsall_common(), {"S": 4}, winner="S", kong_replacement_win=True,
                    kongs={"S": ("claimed", "concealed")})
    assert paid(result, "kong") == {("E", "S"): 2, ("W", "S"): 2, ("N", "S"): 2}


def test_balsall_goulash_pot_five_each_winner_takes_pot_only_003_goulash_hand():
    result = settle(balsall_common(), {"W": 7}, winner="W", discarder="E", goulash=True)
    assert paid(result, "pot_stake") == {(s, "pot"): 5 for s in ("E", "S", "W", "N")}
    assert paid(result, "pot_win") == {("pot", "W"): 20}
    assert paid(result, "mahjong") == {}
    assert result.net == {"E": -5, "S": -5, "W": 15, "N": -5}
    assert (result.pot_before, result.pot_after) == (0, 0)


def test_balsall_goulash_without_winner_replayed_without_new_chips_003_goulash_hand():
    drawn = settle(balsall_common(), draw=True, goulash=True)
    assert drawn.pot_after == 20
    replay = settle(balsall_common(), {"S": 5}, winner="S", win_source="wall", goulash=True,
                    pot=drawn.pot_after)
    assert paid(replay, "pot_stake") == {}
    assert paid(replay) == {("pot", "S"): 20}


# -- west-wind-goulash (000) -----------------------------------------------------------------


def test_kitty_500_each_after_a_draw_claimed_by_the_outright_winner_000_the_kitty():
    result = settle(west_wind_goulash(), {"S": 100}, winner="S", goulash=True, after_draw=True)
    assert paid(result, "pot_stake") == {(s, "pot"): 500 for s in ("E", "S", "W", "N")}
    assert paid(result, "pot_win") == {("pot", "S"): 2000}
    # The winner is paid for the hand as well, East double.
    assert paid(result, "mahjong") == {("E", "S"): 200, ("W", "S"): 100, ("N", "S"): 100}


def test_kitty_grows_after_another_draw_000_the_kitty():
    result = settle(west_wind_goulash(), draw=True, goulash=True, pot=2000)
    assert paid(result) == {(s, "pot"): 1000 for s in ("E", "S", "W", "N")}
    assert result.pot_after == 6000


def test_no_kitty_for_a_goulash_that_does_not_follow_a_draw_000_west_wind_round():
    result = settle(west_wind_goulash(), {"N": 80}, winner="N", goulash=True, after_draw=False)
    assert paid(result, "pot_stake") == {} and result.pot_after == 0


def test_bouquet_from_all_but_the_mahjong_player_000_flowers_seasons():
    result = settle(west_wind_goulash(), {"E": 100}, winner="E", goulash=True, after_draw=False,
                    bonus={"W": ("f1", "f2", "f3", "f4")})
    assert paid(result, "bouquet") == {("S", "W"): 1000, ("N", "W"): 1000}


def test_double_bouquet_5000_from_all_000_blessings_of_the_eight_guardians():
    result = settle(west_wind_goulash(), {"S": 100}, winner="S", goulash=True,
                    bonus={"S": ("f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4")})
    assert paid(result, "bouquet") == {("E", "S"): 5000, ("W", "S"): 5000, ("N", "S"): 5000}


def test_clean_hand_is_paid_its_count_000_clean_hands():
    result = settle(west_wind_goulash(), {"S": 100, "W": 64}, winner="S", clean_hands={"W"})
    assert paid(result, "count") == {("E", "W"): 128, ("N", "W"): 64}
    assert paid(result, "difference") == {}


def test_giving_mahjong_when_not_calling_pays_for_all_and_cancels_counts_000_basic_rules():
    result = settle(west_wind_goulash(), {"S": 100, "W": 64}, winner="S", discarder="N",
                    clean_hands={"W"}, penalties=(Penalty("not_calling", "N"),))
    assert paid(result) == {("N", "S"): 400}
    assert result.net == {"E": 0, "S": 400, "W": 0, "N": -400}
