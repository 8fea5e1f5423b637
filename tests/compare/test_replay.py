"""A recorded night replayed under several house rules (issue #16 part 3)."""

from __future__ import annotations

from clubs.models import Hand, HandResult, Table
from compare import runs
from compare.models import Comparison, ComparisonPart
from compare.replay_compare import compare_table
from compare.rule_choice import chosen_rules
from compare.scope import load_table, resolve_scope


def _compare(demo, user, slugs, spec=None):
    scope = resolve_scope(spec or {"session": demo["session"].pk}, user)
    return runs.start(scope, chosen_rules(slugs, user), user, background=False)


def test_own_rule_reproduces_the_recorded_totals(demo, demo_scorer):
    """The demo night was played under bmja: replayed under bmja, every player's total is the
    sum of their recorded nets, and the table's running totals are the stored ones."""
    comparison = _compare(demo, demo_scorer, ["bmja", "guide"])
    report = comparison.report
    recorded: dict[str, int] = {}
    for result in HandResult.objects.filter(session=demo["session"]):
        recorded[f"m{result.member_id}"] = recorded.get(f"m{result.member_id}", 0) + result.net
    assert {p["player"]: p["totals"][0] for p in report["players"]} == recorded
    table = Table.objects.get(pk=demo["table"].pk)
    replayed = compare_table(load_table(table.pk), list(runs.comparison_rules(comparison.pk)))
    assert replayed["seat_totals"]["bmja"] == table.state["totals"]


def test_the_parts_are_deleted_when_the_report_is_written(demo, demo_scorer):
    """Each table's answer (about 10 KiB) is only the way to the report: once it is written,
    nothing is kept twice."""
    comparison = _compare(demo, demo_scorer, ["bmja", "guide"])
    assert comparison.report is not None
    assert not ComparisonPart.objects.filter(comparison=comparison).exists()
    assert runs.progress(comparison) == (1, 1)
    assert runs.enqueue(comparison) == 0  # resuming a finished comparison: nothing to do


def test_the_report_counts_and_places(demo, demo_scorer):
    report = _compare(demo, demo_scorer, ["bmja", "guide", "balsall-common"]).report
    counts = report["counts"]
    hands = Hand.objects.filter(table=demo["table"])
    assert counts["hands"] + counts["voided"] == hands.count()
    # Sheet 19's three hands were entered tile by tile: only they are rescored.
    assert counts["rescored"] == 3
    assert counts["rescored"] + counts["kept"] == counts["hands"]
    for player in report["players"]:
        assert len(player["totals"]) == len(player["places"]) == 3
        assert player["place_change"][0] == 0
    for column in range(3):
        totals = [p["totals"][column] for p in report["players"]]
        best = max(totals)
        assert [p["places"][column] for p in report["players"] if p["totals"][column] == best][0] == 1


def test_nothing_recorded_changes(demo, demo_scorer):
    before = list(HandResult.objects.order_by("pk").values_list("net", "running_total"))
    computed = list(Hand.objects.order_by("pk").values_list("computed", flat=True))
    state = Table.objects.get(pk=demo["table"].pk).state
    _compare(demo, demo_scorer, ["guide", "west-wind-goulash"])
    assert list(HandResult.objects.order_by("pk").values_list("net", "running_total")) == before
    assert list(Hand.objects.order_by("pk").values_list("computed", flat=True)) == computed
    assert Table.objects.get(pk=demo["table"].pk).state == state


def test_changed_hands_name_the_items_that_changed_them(demo, demo_scorer):
    report = _compare(demo, demo_scorer, ["bmja", "guide"]).report
    assert report["changes"], "bmja and guide settle the demo night differently"
    spreads = [c["spread"] for c in report["changes"]]
    assert spreads == sorted(spreads, reverse=True)
    for change in report["changes"]:
        for item in change["items"]:
            values = list(item["values"].values())
            assert values[0] != values[1]


def test_a_rule_for_three_players_is_refused_with_a_sentence(demo, demo_scorer):
    from scoring.engine import get_house_rule
    from scoring.engine.rules.variations import with_players

    three = with_players(get_house_rule("bmja"), 3)
    scope = resolve_scope({"table": demo["table"].pk}, demo_scorer)
    comparison = runs.start(scope, [get_house_rule("bmja"), three], demo_scorer, background=False)
    refused = comparison.report["refused"]
    assert len(refused) == 1
    assert "for 3 players" in refused[0]["reason"] and "had 4" in refused[0]["reason"]
    assert comparison.status == Comparison.DONE


def test_a_hand_not_valid_under_a_rule_is_settled_there_as_a_wall_game(demo, demo_scorer):
    """west-wind-goulash refuses one of the demo night's tile hands (its winner's fourteen
    tiles then count as a losing hand worth nothing): listed with the reason, and the hand
    moves no points under that rule."""
    comparison = _compare(demo, demo_scorer, ["bmja", "west-wind-goulash"])
    report = comparison.report
    assert report["invalid_count"] == {"bmja": 0, "west-wind-goulash": 1}
    (bad,) = report["invalid"]
    assert bad["rule"] == "west-wind-goulash" and bad["reason"]
    changed = next(c for c in report["changes"] if c["hand"] == bad["hand"])
    assert changed["settled_as_wall"] == ["west-wind-goulash"]
    assert all(net[1] == 0 for net in changed["net"].values())


def test_a_rule_that_fits_no_table_gives_no_total_place_or_arrow(demo, demo_scorer):
    """Issue #25: a three-player rule at the demo's four-player table is not a result: no
    total, no place, no change of place, not 0, 1 and arrows; the other rules rank as before,
    and the sentence names the table by its number in the night."""
    Table.objects.filter(pk=demo["table"].pk).update(number=3)  # not the database id
    report = _compare(demo, demo_scorer, ["bmja", "bmja-3-players", "guide"]).report
    for player in report["players"]:
        assert player["totals"][1] is None and player["places"][1] is None
        assert player["place_change"][1] is None and player["counted"] == [1, 0, 1]
        assert player["places"][0] is not None and player["places"][2] is not None
    (refused,) = report["refused"]
    assert refused["table_number"] == 3 and refused["rule"] == "bmja-3-players"
    assert "Table 3 had 4" in refused["reason"] and "no total or place" in refused["reason"]


def test_a_rule_that_fits_some_tables_counts_those_only():
    """Two tables of one player, a rule fitting only the second: the player's total under it is
    the second table's, ``counted`` says 1 of 2, and a player of the first table only has no
    place under it."""
    from compare.replay_compare import merge_parts

    def part(table, number, players, refused):
        return {"table": table, "table_number": number, "session": 1, "date": "2026-01-01",
                "rules": ["a", "b"], "players": players, "hands": 1, "voided": 0,
                "rescored": 0, "kept": 1, "refused": refused, "invalid": [], "changes": []}

    first = part(10, 1, {"m1": {"name": "Ann", "totals": [5, None]},
                         "m2": {"name": "Bea", "totals": [-5, None]}}, {"b": "Table 1 ..."})
    second = part(11, 2, {"m1": {"name": "Ann", "totals": [7, -3]},
                          "m3": {"name": "Cy", "totals": [-7, 3]}}, {})
    report = merge_parts([first, second], ["a", "b"])
    rows = {p["name"]: p for p in report["players"]}
    assert rows["Ann"]["totals"] == [12, -3] and rows["Ann"]["counted"] == [2, 1]
    assert rows["Bea"]["totals"] == [-5, None] and rows["Bea"]["places"] == [2, None]
    assert rows["Bea"]["place_change"] == [0, None]
    assert rows["Cy"]["places"] == [3, 1] and rows["Ann"]["places"] == [1, 2]
    assert report["refused"] == [{"table": 10, "table_number": 1, "date": "2026-01-01",
                                  "rule": "b", "reason": "Table 1 ..."}]
