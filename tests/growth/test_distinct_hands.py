"""The benchmarks' generator of distinct hands (bench/distinct_hands.py) gives hands the
recording service accepts, in order at one table, and no winning hand twice: a benchmark built
on it measures the engine on new hands, not its memos answering the same one again."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from bench.distinct_hands import distinct_entries
from clubs.models import ClubSession, Member, Seat, Table
from clubs.recording import record_hand

pytestmark = pytest.mark.django_db


def test_every_generated_hand_is_recorded_and_none_twice(club, users, bmja_version):
    session = ClubSession.objects.create(club=club, date=dt.date(2030, 1, 1),
                                         house_rule_version=bmja_version)
    table = Table.objects.create(session=session, number=1)
    for position, wind in enumerate("ESWN"):
        Seat.objects.create(table=table, position=position, starting_wind=wind,
                            member=Member.objects.create(club=club, display_name=f"P{wind}"))
    entries = distinct_entries(150, seed=3)
    for entry in entries:
        record_hand(table, entry, users["scorer"])  # raises on any hand refused
    table.refresh_from_db()
    assert table.hands.count() == 150
    wins = [json.dumps(e["seats"][e["winner"]], sort_keys=True) for e in entries if e["winner"]]
    assert len(set(wins)) == len(wins) > 120
    assert any(e.get("draw") for e in entries)
    assert entries == distinct_entries(150, seed=3)  # seeded: the same hands every run
