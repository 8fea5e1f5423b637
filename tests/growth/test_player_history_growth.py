"""A player's history page and its API, and the club's guests list, read what they show and
not the club's whole history (issue #27: the player's statistics summed every hand of every
season on each view, 7.5x / 8.9x from 10 to 1,000 nights; the guests list walked the club's
every table). Asked for nothing, the statistics cover the member's latest season, beside
their all-time totals read from the stored standings; those are held equal to the sums made
from scratch after recording, a correction and a void. Queries counted, never timed."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.members.merge import GUEST_SQL, PLAIN, SQLITE_HINTS, guest_names
from clubs.models import ClubSession, Hand, Member, Season, Seat, Table
from clubs.recording.corrections import correct_hand, void_hand
from history.stats import Span, all_time, member_stats, scratch_stats
from league.models import NightResult
from tests.growth.history import copy_nights, record_night
from tests.league.conftest import play_hands, seat_table
from tests.league.test_bounded_reads import plan

pytestmark = pytest.mark.django_db


def history(api, club, member, query=""):
    answer = api.get(f"/api/v1/clubs/{club.slug}/members/{member.pk}/history/{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def from_scratch(member, span: Span) -> dict:
    stats = scratch_stats(member, span)
    return {"hands": stats.hands, "won": stats.won, "net": stats.net,
            "played": stats.nights.played, "nights_net": stats.nights.net,
            "paid": [list(p) for p in stats.paid], "limits": len(stats.limit_hands)}


def shown(body) -> dict:
    return {"hands": body["hands"], "won": body["won"], "net": body["net"],
            "played": body["nights"]["played"], "nights_net": body["nights"]["net"],
            "paid": [[p["opponent"], p["received"], p["paid"], p["net"]] for p in body["paid"]],
            "limits": len(body["limit_hands"])}


def assert_all_time_in_step(member):
    # The season's statistics from the stored row equal those summed from the hands.
    for season in Season.objects.filter(club_id=member.club_id).values_list("pk", flat=True):
        assert member_stats(member, Span(season)) == scratch_stats(member, Span(season))
    every = scratch_stats(member, Span())
    stored = all_time(member)
    assert (stored.played, stored.net) == (every.nights.played, every.nights.net)
    assert (stored.hands, stored.won) == (every.hands, every.won)  # no imported nights here


def test_the_player_history_reads_the_latest_season_and_stored_totals(club, night, users):
    api = APIClient()
    api.force_authenticate(users["admin"])
    member = Member.objects.get(club=club, display_name="Player 0")
    copy_nights(night, 9)
    history(api, club, member)  # a first visit looks the user's role up once: counted after
    counts = {}
    for size, more in ((10, 0), (1000, 990)):
        if more:
            copy_nights(ClubSession.objects.filter(club=club).order_by("date").first(), more)
        with CaptureQueriesContext(connection) as queries:
            body = history(api, club, member)
        counts[size] = len(queries)
        # The default: the member's latest season, the season of their latest night.
        assert body["span"] == {"season": night.season_id, "latest": True, "start": None,
                                "end": None}
        assert shown(body) == from_scratch(member, Span(night.season_id))
        assert body["all_time"]["played"] == size
        assert_all_time_in_step(member)
    assert counts[10] == counts[1000], counts
    # The season's nights and seats are read by the member and the season together.
    found = plan(Span(night.season_id).results(NightResult.objects.filter(member=member), "date"))
    if connection.vendor == "sqlite":
        assert "night_by_member_season (member_id=? AND season_id=?)" in found, found
    else:
        assert "Seq Scan" not in found, found
    # The season holds fifty nights at most (tests.growth.history): the default view reads
    # them, whatever the club's age; every season is there when asked for.
    seasons = Season.objects.filter(club=club).count()
    assert seasons >= 20
    assert body["nights"]["played"] <= 53
    every = history(api, club, member, "?all=true")
    assert every["span"]["season"] is None and not every["span"]["latest"]
    assert shown(every) == from_scratch(member, Span()) and every["nights"]["played"] == 1000
    # The page says the same.
    page = Client()
    page.force_login(users["admin"])
    html = page.get(f"/clubs/{club.slug}/history/players/{member.pk}/").content.decode()
    assert "latest season" in html and "All seasons: <strong>1000</strong> nights" in html
    assert f"Nights played: <strong>{body['nights']['played']}</strong>" in html
    html = page.get(f"/clubs/{club.slug}/history/players/{member.pk}/?season=all").content.decode()
    assert "Nights played: <strong>1000</strong>" in html


def test_stored_totals_follow_recording_corrections_and_voids(club, night, users):
    member = Member.objects.get(club=club, display_name="Player 0")
    copy_nights(night, 60)  # two seasons
    assert_all_time_in_step(member)
    session = ClubSession.objects.create(club=club, season=night.season,
                                         date=night.date + dt.timedelta(days=7),
                                         house_rule_version=night.house_rule_version)
    people = list(Member.objects.filter(club=club, display_name__startswith="Player")
                  .order_by("display_name"))
    record_night(session, people, users["scorer"], hands=2)
    assert_all_time_in_step(member)
    table = Table.objects.get(session=session, number=1)
    hand = Hand.objects.get(table=table, number=1)
    correct_hand(hand, {"seats": {"E": {"score": 500}}}, users["scorer"])
    assert_all_time_in_step(member)
    void_hand(Hand.objects.get(table=table, number=2), users["scorer"], reason="misdeal")
    assert_all_time_in_step(member)
    api = APIClient()
    api.force_authenticate(users["admin"])
    body = history(api, club, member)
    assert body["span"]["season"] == night.season_id
    assert shown(body) == from_scratch(member, Span(night.season_id))
    assert shown(history(api, club, member, "?all=true")) == from_scratch(member, Span())


def old_guest_names(club) -> list[dict]:
    """The list as it was read before (every seat of the club's every table): the yardstick."""
    from django.db.models import Count, Max
    from django.db.models.functions import Lower

    rows = (Seat.objects.filter(table__session__club=club, member__isnull=True)
            .annotate(key=Lower("guest_name")).values("key")
            .annotate(name=Max("guest_name"), seats=Count("id"),
                      last=Max("table__session__date")).order_by("key"))
    return [{"name": r["name"], "seats": r["seats"], "last": r["last"]} for r in rows]


def test_the_guests_list_reads_the_guests_rows_and_the_open_nights(club, night, users,
                                                                    other_club):
    people = list(Member.objects.filter(club=club, display_name__startswith="Player")
                  .order_by("display_name"))
    # A guest who played on a closed night (recorded hands), twice under two spellings.
    for day, name in ((14, "Zoe Hart"), (21, "zoe hart")):
        session = ClubSession.objects.create(club=club, season=night.season,
                                             date=night.date + dt.timedelta(days=day),
                                             house_rule_version=night.house_rule_version)
        play_hands(seat_table(session, 1, [*people[:3], name]), users["scorer"],
                   random.Random(day), 3)
        session.status = "closed"
        session.save()
    # Tonight: a guest seated at a table with no hand yet, another at a table that played.
    tonight = ClubSession.objects.create(club=club, season=night.season,
                                         date=night.date + dt.timedelta(days=28),
                                         house_rule_version=night.house_rule_version)
    seat_table(tonight, 1, [*people[:3], "Yan Li"])
    play_hands(seat_table(tonight, 2, [*people[4:7], "Ann"]), users["scorer"],
               random.Random(1), 1)
    want = old_guest_names(club)
    assert [g["name"].lower() for g in want] == ["ann", "yan li", "zoe hart"]
    assert [g["seats"] for g in want] == [1, 1, 2]
    assert guest_names(club) == want
    # Another club's guests are not this club's.
    from tests.growth.history import copy_club

    copy_club(night, other_club, 2)
    assert guest_names(club) == want

    # Read by the partial indexes, not by the club's every night or every guest's seat.
    sql = GUEST_SQL.format(**(SQLITE_HINTS if connection.vendor == "sqlite" else PLAIN))
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", {"club": club.pk})
            found = "\n".join(str(row[-1]) for row in cursor.fetchall())
            assert "night_guest_by_club (club_id=?)" in found, found
            assert "session_open_by_club (club_id=?)" in found, found
        else:
            cursor.execute("SET enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}", {"club": club.pk})
            found = "\n".join(row[0] for row in cursor.fetchall())
            cursor.execute("RESET enable_seqscan")
            assert "night_guest_by_club" in found, found
            assert "Seq Scan" not in found, found


def test_the_guests_list_costs_the_same_after_10_and_after_1000_nights(club, night, users):
    api = APIClient()
    api.force_authenticate(users["admin"])
    api.get(f"/api/v1/members/guests/?club={club.slug}")  # the first visit: counted after
    counts = []
    for more in (9, 990):
        copy_nights(ClubSession.objects.filter(club=club).order_by("date").first(), more)
        with CaptureQueriesContext(connection) as queries:
            answer = api.get(f"/api/v1/members/guests/?club={club.slug}")
        assert answer.status_code == 200
        assert answer.json() == [{**g, "last": g["last"].isoformat()}
                                 for g in old_guest_names(club)]
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
