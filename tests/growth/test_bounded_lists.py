"""The members list counts each member's tables in the member's own entries of an index (issue
#27: one join counted every seat of every member, and PostgreSQL hashed it over a scan of every
club's seats, so the list slowed as the club's history and the database grew). Query plans,
not timings: a test never times anything."""

from __future__ import annotations

import pytest
from django.db import connection

from clubs.models import Member
from clubs.views.member_pages import tables_played
from tests.growth.history import copy_club
from tests.league.test_bounded_reads import plan

pytestmark = pytest.mark.django_db


def test_the_members_list_counts_each_members_own_seats(club, night, other_club):
    copy_club(night, other_club, 3)
    members = Member.objects.filter(club=club).annotate(nights=tables_played())
    played = {m.display_name: m.nights for m in members}
    assert played["Player 0"] == 1 and played["Admin"] == 0, played
    found = plan(members.order_by("display_name"))
    if connection.vendor == "sqlite":
        assert "CORRELATED SCALAR SUBQUERY" in found and "seat_by_member (member_id=?)" in found, found
    else:
        # Every read of the seats is a lookup by the member, never a scan of them all.
        assert "clubs_seat" in found and "Seq Scan on clubs_seat" not in found, found
        reads = [line for line in found.splitlines() if "on clubs_seat" in line]
        conditions = [line for line in found.splitlines() if "Cond: (member_id = " in line]
        assert reads and len(conditions) >= len(reads), found
