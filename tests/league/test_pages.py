"""The standings page, the player page, league rules and publishing: who may see and change
what, and the standings page's query count (issue #17)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import ClubSession, Member
from clubs.recording import record_hand
from league.models import SeasonLeague, Snapshot
from tests.league.conftest import play_hands, seat_table

pytestmark = pytest.mark.django_db


def entry(winner="E", scores=(100, 10, 20, 30), discarder=None, limit_score=None):
    return {"winner": winner, "discarder": discarder,
            "win_from": "discard" if discarder else "wall",
            "seats": {w: {"score": s} for w, s in zip("ESWN", scores, strict=True)}}


@pytest.fixture
def played(club, season, members, users, bmja_version):
    """Two nights: four members at table 1 each night, a guest at table 2 on the first."""
    for day, people in ((5, members[:4]), (12, [members[0], members[2], members[4],
                                                members[5]])):
        session = ClubSession.objects.create(club=club, season=season,
                                             date=dt.date(2026, 3, day),
                                             house_rule_version=bmja_version)
        table = seat_table(session, 1, people)
        record_hand(table, entry("E", discarder="S"), users["scorer"])
        record_hand(table, entry("S"), users["scorer"])
    session = ClubSession.objects.get(date=dt.date(2026, 3, 5))
    table = seat_table(session, 2, [members[6], members[7], members[8], "Visitor"])
    record_hand(table, entry("N", scores=(4, 8, 16, 300)), users["scorer"])
    return season


def url(club, season, name="league-season", **kw):
    return reverse(name, args=[club.slug, season.pk, *kw.values()])


def test_members_read_the_standings_with_gate_and_tie_break_stated(client_as, club, played):
    page = client_as("member").get(url(club, played))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ranked by net points summed over nights." in text
    assert "Ties broken by table points, then Mah Jongs made" in text
    assert "Guests (not ranked)" in text and "Visitor" in text
    assert 'id="standings"' in text


@pytest.mark.parametrize(("role", "published", "status"), [
    ("anonymous", False, 404), ("outsider", False, 404), ("anonymous", True, 200),
    ("outsider", True, 200), ("member", False, 200),
])
def test_who_may_read_the_standings(client_as, club, played, role, published, status):
    club.published = published
    club.save()
    assert client_as(role).get(url(club, played)).status_code == status


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("scorer", 403), ("admin", 200)])
def test_only_club_admins_change_league_rules(client_as, club, played, role, status):
    assert client_as(role).get(url(club, played, "league-rules")).status_code == status


def test_published_clubs_are_read_only_to_the_public(client, club, played):
    club.published = True
    club.save()
    assert client.post(url(club, played, "league-publish")).status_code == 302  # to log in
    assert not Snapshot.objects.exists()
    assert client.get(url(club, played, "league-rules")).status_code == 302


def test_an_admin_picks_a_preset_then_adjusts_and_the_standings_follow(client_as, club, played):
    admin = client_as("admin")
    answer = admin.post(url(club, played, "league-rules"), {"preset": "table-points"})
    assert answer.status_code == 302
    assert SeasonLeague.objects.get(season=played).measure == "table_points"
    page = admin.get(url(club, played)).content.decode()
    assert "Ranked by table points (4 / 2 / 1 / 0 by place at the table, ties sharing)" in page
    form = {"measure": "net", "combine": "sum", "points": "4-2-1-0", "min_nights": 2,
            "min_share": 0, "tie_break_1": "nights", "tie_break_2": "mahjongs"}
    assert admin.post(url(club, played, "league-rules"), form).status_code == 302
    page = admin.get(url(club, played)).content.decode()
    assert "Ranked from 2 nights played" in page and "1 of 2 nights" in page
    assert "Ties broken by nights played, then Mah Jongs made" in page


def test_bad_league_rules_say_what_to_mend(client_as, club, played):
    answer = client_as("admin").post(url(club, played, "league-rules"), {
        "measure": "net", "combine": "best", "points": "4-2-1-0", "min_nights": 0,
        "min_share": 0, "tie_break_1": "net", "tie_break_2": "net"})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Best nights needs how many nights count" in text
    assert "Name each tie-break once." in text


def test_publishing_freezes_a_dated_snapshot(client_as, club, played):
    admin = client_as("admin")
    answer = admin.post(url(club, played, "league-publish"), {"as_of": "2026-03-06"})
    snapshot = Snapshot.objects.get()
    assert answer.status_code == 302 and snapshot.as_of == dt.date(2026, 3, 6)
    assert snapshot.data["season_nights"] == 1  # as of the 6th: the first night only
    page = admin.get(url(club, played, "league-snapshot", s=snapshot.pk)).content.decode()
    assert "Frozen" in page and "Ranked by net points" in page
    assert client_as("member").post(url(club, played, "league-publish")).status_code == 403


def test_filters_date_range_house_rule_table_and_as_of(client_as, club, played, members):
    member = client_as("member")
    names = lambda r: r.content.decode()  # noqa: E731
    page = names(member.get(url(club, played), {"table": 2}))
    assert members[6].display_name in page and members[1].display_name not in page
    page = names(member.get(url(club, played), {"as_of": "2026-03-05"}))
    assert members[5].display_name not in page
    page = names(member.get(url(club, played), {"start": "2026-03-10", "end": "2026-03-20"}))
    assert members[1].display_name not in page and members[5].display_name in page
    bad = member.get(url(club, played), {"start": "2026-03-20", "end": "2026-03-10"})
    assert bad.status_code == 400 and "The end date is before the start" in bad.content.decode()
    other = members[0].club.house_rules.model.objects.exclude(slug="bmja").first()
    page = names(member.get(url(club, played), {"house_rule": other.pk}))
    assert "No one is ranked yet." in page


def test_the_player_page_has_nights_chart_best_hand_and_rates(client_as, club, played, members):
    from clubs.models import HandResult

    alice = members[0]
    won = HandResult.objects.filter(member=alice, won=True).first()
    HandResult.objects.filter(pk=won.pk).update(limit="limit")  # as a full entry would store
    page = client_as("member").get(url(club, played, "league-player", m=alice.pk))
    text = page.content.decode().split("<main>")[1]
    assert page.status_code == 200
    assert "<svg" in text and "running total" in text and "<script" not in text
    assert text.count("<tr>") == 3  # the header and two nights
    hands = HandResult.objects.filter(member=alice).count()
    wins = HandResult.objects.filter(member=alice, won=True).count()
    assert f"Mah Jong rate: {round(100 * wins / hands)}% ({wins} of {hands} hands)" in text
    assert "Given-away rate:" in text
    assert f"Best hand: {won.score}" in text
    assert f"hand {won.hand.number}: limit ({won.score})" in text


def test_the_standings_page_query_count_is_constant(client_as, club, season, members, users,
                                                    bmja_version):
    import random

    member = client_as("member")
    member.get(url(club, season))  # the session and role caches warm

    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert member.get(url(club, season)).status_code == 200
        return len(ctx)

    rng = random.Random(5)
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 4, 1),
                                         house_rule_version=bmja_version)
    play_hands(seat_table(session, 1, members[:4]), users["scorer"], rng, 2)
    small = count()
    for day in range(2, 6):
        session = ClubSession.objects.create(club=club, season=season,
                                             date=dt.date(2026, 4, day),
                                             house_rule_version=bmja_version)
        extra = [Member.objects.create(club=club, display_name=f"New {day} {i}")
                 for i in range(2)]
        play_hands(seat_table(session, 1, members[day:day + 2] + extra), users["scorer"],
                   rng, 6)
        play_hands(seat_table(session, 2, members[:4]), users["scorer"], rng, 3)
    assert count() == small


def test_the_club_page_links_to_the_league_tables(client_as, club, played):
    page = client_as("member").get(reverse("club", args=[club.slug])).content.decode()
    assert f'href="/clubs/{club.slug}/league/"' in page
    league = client_as("member").get(reverse("league", args=[club.slug])).content.decode()
    assert f'href="/clubs/{club.slug}/league/{played.pk}/"' in league
    assert "All-time standings" in league


def test_another_clubs_ids_are_not_found(client_as, club, other_club, played, members):
    from clubs.models import Season

    member = client_as("member")
    theirs = Season.objects.create(club=other_club, name="Theirs", start=dt.date(2026, 1, 1))
    assert member.get(url(club, theirs)).status_code == 404
    assert member.get(f"/clubs/{club.slug}/league/{played.pk}/players/999/").status_code == 404
    outsider = Member.objects.create(club=other_club, display_name="Stranger")
    assert member.get(url(club, played, "league-player", m=outsider.pk)).status_code == 404


def test_the_admin_lists_league_rules_and_refuses_bad_ones(client_as, club, played, users):
    users["admin"].is_staff = users["admin"].is_superuser = True
    users["admin"].save()
    admin = client_as("admin")
    assert admin.get("/admin/league/nightresult/").status_code == 200
    answer = admin.post("/admin/league/seasonleague/add/", {
        "season": played.pk, "preset": "", "measure": "net", "combine": "best", "points": "4-2-1-0",
        "min_nights": 0, "min_share": 0, "tie_breaks": '["net"]'})
    assert answer.status_code == 200 and "Best nights needs how many nights count" in \
        answer.content.decode()
    assert not SeasonLeague.objects.exists()
