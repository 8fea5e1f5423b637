"""Every built-in house rule as data: usable by the engine, JSON round trip, a derived copy
with no overrides identical but for its name, and a description naming its rule document."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import RULE_FUNCTIONS, HouseRule, builtin_house_rules, get_house_rule
from scoring.engine.score import plan_for

RULES = sorted(builtin_house_rules())
DOCUMENTS = {"guide": "002_1b03d2f4abf31b8e.txt", "balsall-common": "003_332fcd91a722cdf3.txt",
             "west-wind-goulash": "000_af6e52a887d8d887.txt"}


@pytest.mark.parametrize("slug", RULES)
def test_every_item_names_a_known_function_with_valid_arguments(slug):
    rule = get_house_rule(slug)
    rule.check(set(RULE_FUNCTIONS))
    assert plan_for(rule) is not None


@pytest.mark.parametrize("slug", RULES)
def test_json_round_trip(slug):
    rule = get_house_rule(slug)
    again = HouseRule.from_dict(json.loads(json.dumps(rule.to_dict())))
    assert again == rule


@pytest.mark.parametrize("slug", RULES)
def test_a_copy_without_overrides_differs_only_in_slug_and_base(slug):
    rule = get_house_rule(slug)
    copy = rule.derive("ours")
    assert {**copy.to_dict(), "slug": slug, "based_on": rule.based_on} == rule.to_dict()


@pytest.mark.parametrize(("slug", "document"), sorted(DOCUMENTS.items()))
def test_description_names_the_source_document(slug, document):
    rule = get_house_rule(slug)
    assert document in rule.description and document in rule.source
    assert "Readings chosen" in rule.description
    assert all(item.source.startswith(document[:3]) for item in rule.items)


def test_three_consecutive_chows_reading_is_an_argument_002_line_969():
    """A club reading 'consecutive' as 1-2-3, 4-5-6, 7-8-9 sets step 3: data, not code."""
    from tests.houserules.conftest import hand, score

    rule = get_house_rule("guide")
    straight = rule.derive("guide-straight", {"items": {"three_consecutive_chows": {
        "args": {"count": 3, "step": 3}}}})
    data = hand("chow b1, chow b4, chow b7, pung c8", "d7 d7", win="d7 discard")
    assert "three_consecutive_chows" not in score(data, rule).item_codes
    assert "three_consecutive_chows" in score(data, straight).item_codes


# -- a copy changes only what it overrides, for any values a club may choose ------------------

OVERRIDABLE = st.fixed_dictionaries({}, optional={
    "scoring": st.fixed_dictionaries({}, optional={
        "limit": st.integers(1, 100_000),
        "players": st.sampled_from([2, 3, 4, 5]),
        "max_chows": st.one_of(st.none(), st.integers(0, 4)),
    }),
    "payment": st.fixed_dictionaries({}, optional={
        "starting_tally": st.integers(0, 10_000),
        "kong_chips_claimed": st.integers(0, 10),
        "east_multiplier": st.integers(1, 3),
    }),
    "rotation": st.fixed_dictionaries({}, optional={
        "max_consecutive_dealer": st.one_of(st.none(), st.integers(1, 5)),
    }),
})


@settings(max_examples=60, deadline=None)
@given(slug=st.sampled_from(RULES), overrides=OVERRIDABLE)
def test_derived_copies_change_only_the_overridden_fields(slug, overrides):
    rule = get_house_rule(slug)
    copy = rule.derive("ours", overrides)
    base, ours = rule.to_dict(), copy.to_dict()
    for section in ("scoring", "payment", "rotation"):
        given_values = overrides.get(section, {})
        for name, value in base[section].items():
            expected = given_values.get(name, value)
            assert ours[section][name] == expected, (section, name)
    assert ours["items"] == base["items"]
