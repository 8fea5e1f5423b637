"""Property tests (issue 5): every settlement nets to zero across the seats and the pot, is
deterministic and never raises for a possible hand; a session's tallies are the starting tally
plus the sum of the nets.

Each Hypothesis example settles a batch of ten hands built from one seed: 1,000 examples give
the 10,000 random hands per house rule the issue asks for, at a tenth of Hypothesis's own
per-example cost (10,000 single-hand examples took ~25 s per house rule).
"""

import pytest
from hypothesis import HealthCheck, given, settings

from settlements.engine import run_session, settle_hand

from .house_rules import ALL, bmja, guide
from .strategies import hands_at_table, sessions

HANDS_PER_EXAMPLE = 10
FAST = settings(max_examples=10_000 // HANDS_PER_EXAMPLE, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


def check_zero_sum_and_deterministic(table, rule):
    first = settle_hand(table, rule)
    assert sum(first.net.values()) + first.pot_after - first.pot_before == 0
    assert first.pot_after >= 0
    assert all(p.amount > 0 for p in first.payments)
    assert settle_hand(table, rule) == first


@pytest.mark.parametrize("slug", sorted(ALL))
def test_ten_thousand_random_hands_net_to_zero(slug):
    rule = ALL[slug]()

    settled = []

    @FAST
    @given(hands_at_table(rule, per_example=HANDS_PER_EXAMPLE))
    def check(tables):
        for table in tables:
            check_zero_sum_and_deterministic(table, rule)
        settled.extend(tables)

    check()
    assert len(settled) >= 10_000


@pytest.mark.parametrize("make", [bmja, guide], ids=["bmja", "guide"])
@pytest.mark.parametrize("players", [2, 3])
def test_random_hands_for_two_and_three_players_net_to_zero(make, players):
    """001 'The game for 2 players' / 'for 3 players'."""
    rule = make(players)

    @settings(FAST, max_examples=500)
    @given(hands_at_table(rule, players, per_example=2))
    def check(tables):
        for table in tables:
            check_zero_sum_and_deterministic(table, rule)

    check()


@pytest.mark.parametrize("slug", sorted(ALL))
@pytest.mark.parametrize("players", [4, 5])
def test_random_sessions_tallies_are_the_sum_of_nets(slug, players):
    rule = ALL[slug](players)

    @settings(FAST, max_examples=100)
    @given(sessions(rule))
    def check(hands):
        result = run_session(hands, rule)
        assert set(result.tallies) == set(result.starting_tallies)
        for player, tally in result.tallies.items():
            nets = sum(record.net_by_player.get(player, 0) for record in result.hands)
            assert tally == rule.payment.starting_tally + nets
        assert sum(result.tallies.values()) + result.pot == sum(result.starting_tallies.values())
        assert run_session(hands, rule) == result

    check()
