"""The player page's best hand is read in its own index, bounded by the club, the season and
the player (issue #27: it read every result of the season and scanned every club's nights, so
the page slowed as the database grew). Query plans, not timings: a test never times anything."""

from __future__ import annotations

import re

import pytest
from django.db import connection

from league.queries import best_hand, best_hand_query, player_hands

pytestmark = pytest.mark.django_db


def plan(queryset, *, no_sort: bool = False) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
        # A tiny test table: ask what the planner could use, not what it prefers for 3 rows
        # (with the statistics earlier tests left behind, it preferred another index there).
        cursor.execute("SET enable_seqscan = off")
        if no_sort:
            cursor.execute("SET enable_sort = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        found = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_seqscan")
        cursor.execute("RESET enable_sort")
        return found


def test_the_best_hand_is_read_in_its_index(make_season, bmja_version, members):
    season = make_season(bmja_version, nights=2)
    member = next(m for m in members if player_hands(m, season).filter(won=True).exists())
    best = best_hand(member, season)
    assert best.score == max(player_hands(member, season).filter(won=True)
                             .values_list("score", flat=True))
    query = best_hand_query(member, season)[:1]
    found = plan(query, no_sort=True)  # the top hand read in the index's order
    assert "result_best_hand" in found, found
    # The nights are looked up by their key, never scanned.
    assert "SCAN clubs_clubsession" not in found and "Seq Scan" not in found, found


def test_a_players_hands_lead_with_the_club(make_season, bmja_version, members):
    season = make_season(bmja_version, nights=1)
    found = plan(player_hands(members[0], season).exclude(limit=""))
    if connection.vendor == "sqlite":
        assert "result_by_club_season" in found or "result_best_hand" in found, found
    else:
        # Bounded by the club or the season through an index, whichever the statistics favour;
        # never a scan of the results or of every club's nights.
        assert "Seq Scan" not in found, found
        assert re.search(r"using (result_by_club_season|result_best_hand"
                         r"|clubs_handresult_season_id\w*) on clubs_handresult", found), found


def test_the_seasons_hand_results_are_read_by_club_and_season(make_season, bmja_version):
    """The season's hand results (API and downloads) name the club beside the season: with the
    season alone, PostgreSQL took an average season's size for this one and hash-joined it
    with a scan of every club's hands, seats, tables and nights (issue #27: 3.3x at 1M hands)."""
    from league.queries import hand_result_query, hand_result_rows

    season = make_season(bmja_version, nights=1)
    query = hand_result_query(season)
    where = str(query.query).split(" WHERE ", 1)[1]
    assert '"clubs_handresult"."club_id" = ' in where, where
    assert '"clubs_handresult"."season_id" = ' in where, where
    assert len(list(hand_result_rows(season))) == query.count() > 0
    found = plan(query)
    if connection.vendor == "sqlite":
        assert "SCAN clubs_hand" not in found and "SCAN clubs_seat" not in found, found
    else:
        assert re.search(r"using (result_by_club_season|result_best_hand"
                         r"|clubs_handresult_\w*) on clubs_handresult", found), found
