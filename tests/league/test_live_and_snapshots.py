"""The live standings follow every write in its own transaction (record, correction, void);
a published snapshot stays as it was (issue #17)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from clubs.models import ClubSession, Hand
from clubs.recording import correct_hand, record_hand, void_hand
from league.models import NightResult, Snapshot
from league.queries import standings
from league.ranking import PRESETS
from league.summary import refresh_table
from league.views import publish_snapshot
from tests.league.conftest import seat_table

pytestmark = pytest.mark.django_db
NET = PRESETS["net"][1]


@pytest.fixture
def night(club, season, members, users, bmja_version):
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 5),
                                         house_rule_version=bmja_version)
    table = seat_table(session, 1, members[:4])
    entry = {"winner": "E", "win_from": "wall",
             "seats": {"E": {"score": 100}, "S": {"score": 10}, "W": {"score": 20},
                       "N": {"score": 30}}}
    for _ in range(3):
        record_hand(table, entry, users["scorer"])
    return table


def nets(season):
    return {r.name: r.net for r in standings(NET, season=season).rows()}


def test_a_correction_changes_the_live_standings_inside_its_transaction(night, season, users):
    before = nets(season)
    hand = Hand.objects.get(table=night, number=2)
    with transaction.atomic():
        correct_hand(hand, {"seats": {"E": {"score": 400}}}, users["scorer"])
        during = nets(season)  # read before the transaction commits
    assert during != before and during == nets(season)
    assert sum(during.values()) == 0


def test_a_void_changes_the_live_standings_and_a_rolled_back_write_leaves_them(night, season,
                                                                                users):
    before = nets(season)
    with pytest.raises(RuntimeError), transaction.atomic():
        void_hand(Hand.objects.get(table=night, number=1), users["scorer"], "misdeal")
        assert nets(season) != before
        raise RuntimeError("the request fails after the void")
    assert nets(season) == before
    void_hand(Hand.objects.get(table=night, number=1), users["scorer"], "misdeal")
    after = standings(NET, season=season)
    assert nets(season) != before
    assert {r.hands for r in after.rows()} == {2}


def test_a_published_snapshot_stays_as_it_was_after_a_correction(night, season, users):
    snapshot = publish_snapshot(season, users["admin"], dt.date(2026, 6, 30), "end of term")
    frozen = Snapshot.objects.get(pk=snapshot.pk).data
    assert [r["net"] for r in frozen["rows"]] == [r.net for r in standings(NET, season=season).ranked]
    correct_hand(Hand.objects.get(table=night, number=3), {"seats": {"E": {"score": 900}}},
                 users["scorer"])
    void_hand(Hand.objects.get(table=night, number=1), users["scorer"], "")
    assert Snapshot.objects.get(pk=snapshot.pk).data == frozen
    assert [r["net"] for r in frozen["rows"]] != [r.net for r in standings(NET, season=season).ranked]
    assert frozen["calculation"][0] == "Ranked by net points summed over nights."


def test_a_five_player_night_counts_for_the_player_sitting_out(club, season, members, users,
                                                               house_rule_versions):
    """001 'For 5 Players': the fifth sits out the first hand; one hand recorded, so the one
    sitting out played no hand, yet their night counts as played."""
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 12),
                                         house_rule_version=house_rule_versions["bmja-5-players"])
    table = seat_table(session, 1, members[:5])
    record_hand(table, {"winner": "S", "win_from": "wall",
                        "seats": {w: {"score": s} for w, s in zip("ESWN", (10, 100, 20, 30), strict=True)}},
                users["scorer"])
    rows = {r.name: r for r in standings(NET, season=season).rows()}
    dreamer = rows[members[4].display_name]
    assert (dreamer.nights, dreamer.hands, dreamer.net) == (1, 0, 0)
    assert all(r.nights == 1 for r in rows.values())
    assert season and standings(NET, season=season).season_nights == 1


def test_a_table_with_no_counted_hand_counts_no_night(club, season, members, bmja_version):
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 19),
                                         house_rule_version=bmja_version)
    table = seat_table(session, 1, members[:4])
    refresh_table(table)
    assert not NightResult.objects.filter(table_id=table.pk, counted=True).exists()
    assert standings(NET, season=season).rows() == []


def test_voiding_every_hand_of_a_table_takes_its_night_out(night, season, users):
    for hand in Hand.objects.filter(table=night):
        void_hand(hand, users["scorer"], "wrong table")
    assert standings(NET, season=season).rows() == []
    void_hand(Hand.objects.get(table=night, number=2), users["scorer"], "", voided=False)
    assert {r.hands for r in standings(NET, season=season).rows()} == {1}


def test_moving_a_night_to_another_date_moves_its_summary(night, season):
    session = night.session
    session.date = dt.date(2026, 4, 1)
    session.save()
    assert set(NightResult.objects.values_list("date", flat=True)) == {dt.date(2026, 4, 1)}


@pytest.mark.parametrize("slug, per_table", [("bmja", 4), ("bmja-5-players", 5)])
def test_a_recorded_hand_adds_to_the_night_as_a_full_refresh_would(make_season,
                                                                   house_rule_versions, slug,
                                                                   per_table):
    """Recording adds the hand's results to the night's rows (one statement, whatever the
    length of the night); a full rebuild of the table's rows gives the same rows, five-player
    tables (a seat sitting out hands) and ties included."""
    from clubs.models import Table
    from league.models import NightResult
    from league.summary import refresh_table

    make_season(house_rule_versions[slug], seed=7, nights=2, per_table=per_table, hands=14)
    fields = ("seat_id", "counted", "hands", "net", "mahjongs", "given", "limits", "best_score",
              "place", "tied", "points_zero", "points_half")
    added = sorted(NightResult.objects.values_list(*fields))
    assert added
    for table in Table.objects.all():
        refresh_table(table)
    assert sorted(NightResult.objects.values_list(*fields)) == added
