"""The orchestrator's own rules, independent of any one house rule's tables: it loops over
data, keeps the best arrangement, applies the switches of ``ScoringParams`` and never changes
the house rule it is given (docs/ARCHITECTURE.md, "The house rule")."""

from __future__ import annotations

import copy

import pytest

from scoring.engine import HouseRuleError, Item, get_house_rule
from scoring.engine.hand import Arrangement, Hand, Set, Win
from scoring.engine.rules.model import HouseRule, ScoringParams
from scoring.engine.score import score_arrangements

BMJA = get_house_rule("bmja")
WINNER = Hand("S", "E", True, win=Win("c3", "discard"))
LOSER = Hand("S", "E", False)


def arr(*sets: tuple, shape="standard", loose=()) -> Arrangement:
    return Arrangement(shape, tuple(Set(k, t, c, "claimed" if k == "kong" else None)
                                    for k, t, c in sets), loose)


FULL = arr(("pung", "c2", False), ("pung", "c4", False), ("pung", "dr", False),
           ("pung", "we", False), ("pair", "c3", True))


def tiny_rule(*items: Item, **params) -> HouseRule:
    return HouseRule("tiny", "Tiny", "For tests.", items=items, scoring=ScoringParams(**params))


def test_items_are_applied_in_the_order_the_house_rule_lists_them():
    rule = tiny_rule(Item("b", "Second", "mahjong", points=2, who="mahjong"),
                     Item("a", "First", "sets", args=(("kind", "pung"),), points=1))
    result = score_arrangements(WINNER, rule, [FULL])
    assert [ln.code for ln in result.lines] == ["b", "a"]
    assert result.points == 2 + 4 and result.score == 6


def test_a_match_counted_n_times_gives_n_times_the_points_and_doubles():
    rule = tiny_rule(Item("p", "Pung", "sets", args=(("kind", "pung"),), points=3, doubles=1))
    result = score_arrangements(LOSER, rule, [FULL])
    assert result.lines[0].count == 4
    assert (result.points, result.doubles, result.score) == (12, 4, 12 * 16)


def test_items_for_the_mah_jong_player_are_skipped_for_losers_and_vice_versa():
    rule = tiny_rule(Item("w", "Winner", "sets", points=1, who="mahjong"),
                     Item("l", "Loser", "sets", points=10, who="losers"))
    assert score_arrangements(WINNER, rule, [FULL]).points == 5
    assert score_arrangements(LOSER, rule, [FULL]).points == 50


def test_replaces_drops_the_replaced_items_line():
    rule = tiny_rule(Item("clean", "Clean", "mahjong", doubles=1),
                     Item("pure", "Pure", "mahjong", doubles=3, replaces=("clean",)))
    result = score_arrangements(WINNER, rule, [FULL])
    assert [ln.code for ln in result.lines] == ["pure"] and result.doubles == 3


def test_the_best_scoring_arrangement_is_kept():
    low = arr(("chow", "c2", False), ("pung", "c4", False), ("pung", "dr", False),
              ("pung", "we", False), ("pair", "c3", True))
    result = score_arrangements(WINNER, BMJA, [low, FULL])
    assert result.arrangement[0].kind == "pung"
    assert result.score == score_arrangements(WINNER, BMJA, [FULL]).score


def test_ties_keep_the_first_arrangement_so_the_result_is_deterministic():
    a = arr(("pung", "c2", False), ("pair", "c3", True), shape="partial")
    b = arr(("pung", "c3", False), ("pair", "c2", True), shape="partial")
    assert score_arrangements(LOSER, BMJA, [a, b]).arrangement[0].tile == "c2"
    assert score_arrangements(LOSER, BMJA, [b, a]).arrangement[0].tile == "c3"


def test_002_cap_ordinary_hands_caps_the_score_at_the_limit():
    rule = BMJA.derive("capped", {"scoring": {"cap_ordinary_hands": True, "limit": 500}})
    result = score_arrangements(WINNER, rule, [FULL])
    assert result.score == 500 and result.limit == "limit"
    assert result.points * 2 ** result.doubles > 500


def test_003_points_only_ignores_doubles():
    rule = BMJA.derive("points-only", {"scoring": {"use_doubles": False}})
    result = score_arrangements(WINNER, rule, [FULL])
    assert result.doubles == 0 and result.score == result.points == 20 + 2 + 2 + 4 + 4
    assert all(ln.points for ln in result.lines)


def test_002_only_the_winner_scores_losers_get_an_explanatory_line():
    rule = BMJA.derive("winner-only", {"scoring": {"only_winner_scores": True}})
    result = score_arrangements(LOSER, rule, [FULL])
    assert result.score == 0 and result.lines[0].code == "only_winner_scores"
    assert "Only the Mah Jong player scores" in result.lines[0].name


def test_go_out_minimum_marks_a_mah_jong_below_it_but_still_scores_it():
    rule = BMJA.derive("min", {"scoring": {"go_out_minimum": [["points", 100]]}})
    result = score_arrangements(WINNER, rule, [FULL])
    assert result.meets_minimum is False and result.score > 0
    assert result.minimum_reason == (
        f"Not a valid Mah Jong under this house rule: it needs at least 100 points; "
        f"this hand has {result.points} points.")


def test_go_out_minimum_is_met_by_any_one_threshold():
    rule = BMJA.derive("min", {"scoring": {"go_out_minimum": [["points", 1000],
                                                              ["doubles", 2]]}})
    result = score_arrangements(WINNER, rule, [FULL])
    assert result.meets_minimum and result.minimum_reason is None


def test_goulash_go_out_minimum_applies_in_a_goulash_only():
    rule = BMJA.derive("gmin", {"scoring": {"goulash_go_out_minimum": [["doubles", 9]]}})
    assert score_arrangements(WINNER, rule, [FULL]).meets_minimum
    goulash = Hand("S", "E", True, win=Win("c3", "discard"), goulash=True)
    result = score_arrangements(goulash, rule, [FULL])
    assert not result.meets_minimum and "in a goulash" in result.minimum_reason


def test_losers_always_meet_the_minimum():
    rule = BMJA.derive("min", {"scoring": {"go_out_minimum": [["points", 1000]]}})
    assert score_arrangements(LOSER, rule, [FULL]).meets_minimum


def test_scoring_never_changes_the_house_rule():
    before = copy.deepcopy(BMJA.to_dict())
    score_arrangements(WINNER, BMJA, [FULL])
    score_arrangements(Hand("S", "E", False, fishing=True), BMJA, [FULL], [("c3", [FULL])])
    assert BMJA.to_dict() == before


def test_the_same_hand_always_gives_the_same_result():
    assert score_arrangements(WINNER, BMJA, [FULL]) == score_arrangements(WINNER, BMJA, [FULL])


def test_an_unknown_rule_function_is_the_house_rules_error_with_its_path():
    rule = tiny_rule(Item("x", "X", "no_such_function", points=1))
    with pytest.raises(HouseRuleError) as caught:
        score_arrangements(WINNER, rule, [FULL])
    assert "items[0].rule" in caught.value.errors


def test_a_wrong_argument_is_the_house_rules_error_with_its_path():
    rule = tiny_rule(Item("x", "X", "sets", args=(("colour", "red"),), points=1))
    with pytest.raises(HouseRuleError) as caught:
        score_arrangements(WINNER, rule, [FULL])
    assert "items[0].args" in caught.value.errors


def test_without_a_limit_special_hands_are_not_valued():
    rule = BMJA.derive("no-limit", {"scoring": {"limit": None}})
    heads = arr(("pung", "b1", False), ("pung", "c9", False), ("pung", "d1", False),
                ("pung", "d9", False), ("pair", "c1", True))
    result = score_arrangements(WINNER, rule, [heads])
    assert result.special is None and result.limit is None
    assert result.score == result.points * 2 ** result.doubles


def test_item_codes_name_every_item_that_matched():
    result = score_arrangements(WINNER, BMJA, [FULL])
    assert {"mahjong", "dragon_set", "clean", "no_chows"} <= result.item_codes


def test_arguments_of_the_wrong_kind_are_the_house_rules_error_not_a_crash():
    """A club's stored rule can hold any JSON as an item's arguments."""
    for args in ((("kind", 5),), (("tiles", 7),), (("honours", "maybe"), ("x", 1))):
        rule = tiny_rule(Item("x", "X", "sets" if args[0][0] != "honours" else "one_suit",
                              args=args, points=1, who="all"))
        with pytest.raises(HouseRuleError) as caught:
            score_arrangements(WINNER, rule, [FULL])
        assert "items[0].args" in caught.value.errors
    weird = tiny_rule(Item("w", "W", "win", args=(("fact", 3),), doubles=1))
    with pytest.raises(HouseRuleError) as caught:
        score_arrangements(WINNER, weird, [FULL])
    assert "items[0].args" in caught.value.errors
