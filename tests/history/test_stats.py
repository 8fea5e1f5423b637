"""A member's statistics from the stored rows: hands won and from the wall, limit and special
hands (which), Mah Jongs given away, East and goulash results, the largest hand, who paid whom;
over a season or dates; charts drawn on the server."""

from __future__ import annotations

import datetime as dt
import json
import random

from clubs.models import ClubSession, HandResult
from clubs.recording import record_hand
from history.stats import Span, member_stats
from tests.conftest import REPO
from tests.league.conftest import play_hands, seat_table

CASES = REPO.parent / "shared" / "reference" / "kajongg-bmja-cases.json"


def heads_and_tails() -> dict:
    """Kajongg's K037, a limit hand (Heads and Tails) for East, in the contract's JSON."""
    case = next(c for c in json.loads(CASES.read_text()) if c["id"] == "K037")
    return {**case["contract_hand"], "rules": "bmja"}


def test_a_night_with_a_limit_hand(client_as, club, players, users, bmja_version, season):
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 4),
                                         house_rule_version=bmja_version)
    table = seat_table(session, 1, players)
    alice = players[0]
    record_hand(table, {"winner": "E", "win_from": "wall", "seats": {
        "E": heads_and_tails(), "S": {"score": 10}, "W": {"score": 4}, "N": {"score": 0}}},
        users["scorer"])
    table.refresh_from_db()
    record_hand(table, {"winner": "S", "win_from": "discard", "discarder": "E", "seats": {
        "E": {"score": 8}, "S": {"score": 36}, "W": {"score": 2}, "N": {"score": 0}}},
        users["scorer"])
    table.refresh_from_db()
    play_hands(table, users["scorer"], random.Random(4), 6)
    stats = member_stats(alice, Span(season=season.pk))
    mine = HandResult.objects.filter(member=alice)
    assert stats.hands == mine.count() >= 2
    assert stats.won == mine.filter(won=True).count() >= 1
    assert stats.given == mine.filter(gave=True).count() >= 1
    assert stats.net == sum(r.net for r in mine)
    assert stats.east["hands"] == mine.filter(seat_wind="E").count()
    assert stats.east["net"] == sum(r.net for r in mine.filter(seat_wind="E"))
    assert stats.specials == [("Heads and Tails: pungs/kongs and a pair of ones and nines", 1)]
    assert stats.largest["score"] == 1000 and stats.largest["hand"] == 1
    # Who paid whom adds up to the member's net (no pot under BMJA), opponent by opponent.
    assert {name for name, *_ in stats.paid} == {p.display_name for p in players[1:]}
    assert sum(net for *_, net in stats.paid) == stats.net
    assert stats.wall_share == stats.won_from_wall / stats.won
    # Outside the dates: nothing.
    assert member_stats(alice, Span(end=dt.date(2026, 1, 1))).hands == 0

    page = client_as("member").get(
        f"/clubs/{club.slug}/history/players/{alice.pk}/?season={season.pk}")
    body = page.content.decode()
    assert page.status_code == 200
    assert stats.specials[0][0] in body and 'id="paid"' in body and "<svg" in body
    assert "Largest hand: 1000" in body
    bad = client_as("member").get(
        f"/clubs/{club.slug}/history/players/{alice.pk}/?start=2026-05-01&end=2026-01-01")
    assert bad.status_code == 400 and "before the start date" in bad.content.decode()
