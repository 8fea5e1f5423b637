"""League rules and ranking in plain Python (league.ranking): table points with every kind of
tie, the gate, each tie-break, guests, average and best-N (issue #17)."""

from __future__ import annotations

import pytest

from league.ranking import (
    PRESETS,
    TIE_BREAKS,
    LeagueRules,
    LeagueRulesError,
    PlayerTotals,
    places,
    rank,
    table_points,
)


def points_at(nets: dict, scheme="4-2-1-0") -> dict:
    return {k: table_points(*pt, scheme) for k, pt in places(nets).items()}


@pytest.mark.parametrize(("nets", "expected"), [
    ({"a": 30, "b": 10, "c": -10, "d": -30}, {"a": 4, "b": 2, "c": 1, "d": 0}),
    ({"a": 30, "b": 30, "c": -10, "d": -50}, {"a": 3, "b": 3, "c": 1, "d": 0}),       # two first
    ({"a": 30, "b": 0, "c": 0, "d": -30}, {"a": 4, "b": 1.5, "c": 1.5, "d": 0}),      # two second
    ({"a": 30, "b": 10, "c": -20, "d": -20}, {"a": 4, "b": 2, "c": 0.5, "d": 0.5}),   # two last
    ({"a": 30, "b": -10, "c": -10, "d": -10}, {"a": 4, "b": 1, "c": 1, "d": 1}),      # three second
    ({"a": 10, "b": 10, "c": 10, "d": -30}, {"a": 7 / 3, "b": 7 / 3, "c": 7 / 3, "d": 0}),
    ({"a": 0, "b": 0, "c": 0, "d": 0}, {"a": 1.75, "b": 1.75, "c": 1.75, "d": 1.75}),  # all four
    ({"a": 20, "b": 20, "c": -20, "d": -20}, {"a": 3, "b": 3, "c": 0.5, "d": 0.5}),   # two pairs
])
def test_table_points_4_2_1_0_ties_share_the_places_they_occupy(nets, expected):
    assert points_at(nets) == pytest.approx(expected)


def test_table_points_4_2_1_half_and_a_fifth_player():
    assert points_at({"a": 9, "b": 5, "c": 1, "d": -15}, "4-2-1-0.5") == {
        "a": 4, "b": 2, "c": 1, "d": 0.5}
    assert points_at({"a": 0, "b": 0, "c": 0, "d": 0}, "4-2-1-0.5") == pytest.approx(
        {k: 1.875 for k in "abcd"})
    assert points_at({"a": 9, "b": 5, "c": -3, "d": -3}, "4-2-1-0.5") == pytest.approx(
        {"a": 4, "b": 2, "c": 0.75, "d": 0.75})
    # Five at a table: places past the last are worth the last value.
    assert points_at({"a": 9, "b": 5, "c": 1, "d": -5, "e": -10}) == {
        "a": 4, "b": 2, "c": 1, "d": 0, "e": 0}
    assert places({"a": 5, "b": 5, "c": 1}) == {"a": (1, 2), "b": (1, 2), "c": (3, 1)}


def player(name, member_id=None, nights=3, hands=30, net=0, mahjongs=5, given=5, zero=6.0,
           half=None, place_sum=6, tables=None, night_values=()):
    return PlayerTotals(
        key=name, name=name, member_id=member_id, nights=nights, hands=hands, net=net,
        mahjongs=mahjongs, given=given, points={"4-2-1-0": zero, "4-2-1-0.5": half or zero},
        place_sum=place_sum, tables=tables or nights, night_values=list(night_values))


def order(table):
    return [(r.place_label, r.name) for r in table.ranked]


def test_net_points_rank_highest_first_and_level_players_share_a_place():
    rules = LeagueRules(tie_breaks=())
    table = rank([player("Ann", 1, net=50), player("Ben", 2, net=90), player("Cat", 3, net=50),
                  player("Dan", 4, net=-10)], rules, 3)
    assert order(table) == [("1", "Ben"), ("2=", "Ann"), ("2=", "Cat"), ("4", "Dan")]


@pytest.mark.parametrize(("tie_break", "winner"), [
    ("table_points", "Ann"), ("net", "Ben"), ("mahjongs", "Ann"), ("fewest_given", "Ben"),
    ("average_place", "Ben"), ("nights", "Ann"),
])
def test_each_tie_break_orders_players_level_on_the_measure(tie_break, winner):
    """Both have 10 table points; each tie-break alone decides one way."""
    rules = LeagueRules(measure="table_points", tie_breaks=(tie_break,))
    ann = player("Ann", 1, nights=4, net=20, mahjongs=9, given=7, zero=10.0, place_sum=10)
    ben = player("Ben", 2, nights=3, net=80, mahjongs=4, given=2, zero=10.0, place_sum=6)
    if tie_break == "table_points":  # level on the measure (net), split by table points
        rules = LeagueRules(tie_breaks=("table_points",))
        ann.net, ben.net, ben.points = 50, 50, {"4-2-1-0": 7.0, "4-2-1-0.5": 7.0}
    table = rank([ann, ben], rules, 4)
    assert order(table)[0] == ("1", winner)
    assert order(table)[1][0] == "2"


def test_the_chain_goes_on_to_the_next_tie_break_and_level_on_all_share():
    rules = LeagueRules(tie_breaks=("mahjongs", "fewest_given"))
    table = rank([player("Ann", 1, net=5, mahjongs=3, given=4),
                  player("Ben", 2, net=5, mahjongs=3, given=2),
                  player("Cat", 3, net=5, mahjongs=3, given=4)], rules, 3)
    assert order(table) == [("1", "Ben"), ("2=", "Ann"), ("2=", "Cat")]
    assert "Ties broken by Mah Jongs made, then fewest Mah Jongs given away" in \
        table.calculation()[2]


def test_the_gate_lists_players_below_it_with_their_nights_and_no_place():
    rules = LeagueRules(min_nights=4)
    table = rank([player("Ann", 1, nights=6, net=10), player("Ben", 2, nights=4, net=-5),
                  player("Cat", 3, nights=3, net=999)], rules, 6)
    assert order(table) == [("1", "Ann"), ("2", "Ben")]
    assert [(r.name, r.place, r.note) for r in table.unranked] == [("Cat", None, "3 of 4 nights")]
    assert table.calculation()[1] == "Ranked from 4 nights played (at least 4 nights)."


def test_a_share_of_the_season_nights_is_rounded_up():
    rules = LeagueRules(min_share=50)
    table = rank([player("Ann", 1, nights=4), player("Ben", 2, nights=3)], rules, 7)
    assert table.required_nights == 4
    assert [r.note for r in table.unranked] == ["3 of 4 nights"]
    both = LeagueRules(min_nights=5, min_share=50)
    assert both.required_nights(7) == 5


def test_guests_are_listed_apart_and_never_ranked():
    table = rank([player("Ann", 1, net=10), player("Visitor", None, net=500, nights=9)],
                 LeagueRules(), 9)
    assert order(table) == [("1", "Ann")]
    assert [(g.name, g.place) for g in table.guests] == [("Visitor", None)]
    assert [row["group"] for row in table.to_json()["rows"]] == ["ranked", "guest"]


def test_average_per_night_and_best_n_nights():
    average = rank([player("Ann", 1, nights=2, net=100), player("Ben", 2, nights=4, net=160)],
                   LeagueRules(combine="average"), 4)
    assert [(r.name, r.score) for r in average.ranked] == [("Ann", 50), ("Ben", 40)]
    best = LeagueRules(measure="table_points", combine="best", best_n=2, tie_breaks=())
    table = rank([player("Ann", 1, nights=3, zero=5.0, night_values=[4, 0, 1]),
                  player("Ben", 2, nights=3, zero=6.0, night_values=[2, 2, 2])], best, 3)
    # Ben's season (6 points) beats Ann's (5), but her best two nights (5) beat his (4).
    assert [(r.name, r.score) for r in table.ranked] == [("Ann", 5), ("Ben", 4)]


def test_bad_rules_say_which_field_and_how_to_mend_it():
    with pytest.raises(LeagueRulesError) as err:
        LeagueRules(measure="goals", combine="best", min_share=150,
                    tie_breaks=("net", "net", "luck")).check()
    assert set(err.value.errors) == {"measure", "best_n", "min_share", "tie_breaks"}
    assert "Unknown tie-break luck" in " ".join(err.value.errors["tie_breaks"])


def test_every_preset_is_valid_and_round_trips():
    for _, rules in PRESETS.values():
        assert LeagueRules.from_dict(rules.check().to_dict()) == rules
    assert set(TIE_BREAKS) == {"table_points", "net", "mahjongs", "fewest_given",
                               "average_place", "nights"}


def test_ranking_and_chart_import_no_django():
    """The league's rules and ranking are plain Python, like the engines."""
    import subprocess
    import sys

    code = ("import sys, league.ranking, league.chart; "
            "sys.exit(any(m.startswith('django') for m in sys.modules))")
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], check=False, cwd=root).returncode == 0


def test_the_running_total_chart_is_svg_with_escaped_labels():
    from league.chart import running_total_svg

    svg = running_total_svg([("3 Mar", 120), ("10 Mar", -40), ("<b>", 15)], "Ann & Bob")
    assert svg.startswith("<svg") and svg.count("<circle") == 3
    assert "Ann &amp; Bob" in svg and "&lt;b&gt;" in svg and "<b>" not in svg
    assert running_total_svg([], "nobody") == ""
