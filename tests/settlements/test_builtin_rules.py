"""The built-in house rules carry the payment and rotation values the settlement engine's
tests are written against (listed in settlements/engine/schemes.py), and the worked examples
come out the same under them."""

import pytest

from scoring.engine import get_house_rule
from scoring.engine.rules.variations import with_players
from settlements.engine import HandAtTable, SessionHand, run_session, settle_hand
from tests.conftest import load_example

from .house_rules import ALL


@pytest.mark.parametrize("slug", sorted(ALL))
def test_builtin_payment_and_rotation_match_the_documented_values(slug):
    builtin, documented = get_house_rule(slug), ALL[slug]()
    assert builtin.payment == documented.payment
    assert builtin.rotation == documented.rotation


def test_builtin_two_player_variation_matches_001():
    """001 'The game for 2 players': no East doubling, the lower winner pays the difference."""
    two = with_players(get_house_rule("bmja"), 2)
    assert (two.payment.east_multiplier, two.payment.winner_pays_difference_if_lower) == (1, True)
    result = settle_hand(HandAtTable(seats=("E", "W"), scores={"E": 500, "W": 200}, winner="W",
                                     discarder="E"), two)
    assert result.net == {"E": 100, "W": -100}


def test_guide_payments_under_the_builtin_guide():
    example = load_example("guide-payments.json")
    rule = get_house_rule(example["rules"])
    for case in example["cases"]:
        scores = {s: 0 for s in "ESWN"} | {case["winner"]: example["winning_score"]}
        result = settle_hand(HandAtTable(seats=tuple("ESWN"), scores=scores,
                                         winner=case["winner"], discarder=case["discarder"],
                                         win_source=case["win_from"]), rule)
        paid = {p.payer: p.amount for p in result.payments}
        assert paid == {s: a for s, a in case["pays"].items() if a}, case["case"]


def test_bmja_rotation_under_the_builtin_bmja():
    example = load_example("bmja-wind-rotation.json")
    result = run_session([SessionHand(winner=h["winner"]) for h in example["hands"]],
                         get_house_rule(example["rules"]))
    assert [r.seating.winds[example["player_starts_as"]] for r in result.hands] == [
        h["seat_wind"] for h in example["hands"]]


def test_goulash_hands_paid_by_the_goulash_rule_000():
    """bmja with 000's West Wind goulash: the goulash after a draw puts up the kitty."""
    rule = get_house_rule("bmja-west-wind")
    kitty_rule = get_house_rule(rule.goulash_rule)
    hands = [SessionHand(), SessionHand(winner="S", scores={"S": 100})]
    result = run_session(hands, rule, goulash_rule=kitty_rule)
    second = result.hands[1]
    assert second.seating.goulash
    assert [p.amount for p in second.settlement.payments if p.payee == "pot"] == [500] * 4
    assert result.tallies["S"] == 2000 - 500 + 400
