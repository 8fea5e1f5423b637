"""The player page's best hand is read in its own index, bounded by the club, the season and
the player (issue #27: it read every result of the season and scanned every club's nights, so
the page slowed as the database grew). Query plans, not timings: a test never times anything."""

from __future__ import annotations

import pytest
from django.db import connection

from league.queries import best_hand, player_hands

pytestmark = pytest.mark.django_db


def plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            return "\n".join(str(row[-1]) for row in cursor.fetchall())
        cursor.execute("SET enable_seqscan = off")  # a tiny test table: ask what it could use
        cursor.execute(f"EXPLAIN {sql}", params)
        found = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_seqscan")
        return found


def test_the_best_hand_is_read_in_its_index(make_season, bmja_version, members):
    season = make_season(bmja_version, nights=2)
    member = next(m for m in members if player_hands(m, season).filter(won=True).exists())
    best = best_hand(member, season)
    assert best.score == max(player_hands(member, season).filter(won=True)
                             .values_list("score", flat=True))
    query = (player_hands(member, season).filter(won=True).select_related("hand", "session")
             .order_by("-score", "session__date")[:1])
    found = plan(query)
    assert "result_best_hand" in found, found
    # The nights are looked up by their key, never scanned.
    assert "SCAN clubs_clubsession" not in found and "Seq Scan" not in found, found


def test_a_players_hands_lead_with_the_club(make_season, bmja_version, members):
    season = make_season(bmja_version, nights=1)
    found = plan(player_hands(members[0], season).exclude(limit=""))
    assert "result_by_club_season" in found or "result_best_hand" in found, found
