"""The club rating: the worked calculation on the player page equals an independent
computation; a correction changes the lines after it and nothing before; the lines do not
depend on the order the nights were stored in; the pages' queries do not grow with history."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import defaultdict

import pytest
from django.db import connection
from django.db.models import Count
from django.test.utils import CaptureQueriesContext

from clubs.models import ClubSession, Hand, HandResult, Member
from clubs.recording import correct_hand
from history import rating_store
from history.models import RatingLine, RatingPrivacy
from history.rating import Params, SeatResult, TableNight, rate
from league.models import NightResult
from tests.league.conftest import play_hands, seat_table


def independent(club_id, params=None):
    """The formula of issue #26 computed afresh from the league summary, without the rating
    module: member -> [(date, new grade)]."""
    params = params or Params()
    rows = NightResult.objects.filter(club_id=club_id, counted=True).values(
        "date", "table_id", "member_id", "guest_name", "net")
    tables = defaultdict(list)
    for r in rows:
        tables[(r["date"], r["table_id"])].append(r)
    grade, count, out = {}, defaultdict(int), defaultdict(list)
    for date in sorted({d for d, _ in tables}):
        frozen = dict(grade)
        for (d, _t), seats in sorted(tables.items(), key=lambda kv: sorted(
                (str(s["member_id"] or "guest:" + s["guest_name"]), s["net"]) for s in kv[1])):
            if d != date:
                continue
            for me in seats:
                if me["member_id"] is None:
                    continue
                others = [s for s in seats if s is not me]
                beaten = sum(1 if o["net"] < me["net"] else 0.5 if o["net"] == me["net"] else 0
                             for o in others)
                actual = 100 * beaten / len(others)
                mean = sum(params.guest_grade if o["member_id"] is None
                           else frozen.get(o["member_id"], 50.0) for o in others) / len(others)
                par = 50 + frozen.get(me["member_id"], 50.0) - mean
                count[me["member_id"]] += 1
                weight = max(1 / count[me["member_id"]], params.min_weight)
                old = grade.get(me["member_id"], 50.0)
                grade[me["member_id"]] = old + weight * (actual - par)
                out[me["member_id"]].append((date, grade[me["member_id"]]))
    return out


def test_the_formula_on_one_table_of_four():
    """Alice beats everyone; Bob and Carol tie; a guest comes last. Everyone starts at 50."""
    night = TableNight(1, dt.date(2026, 1, 5), (
        SeatResult(1, 40), SeatResult(2, 0), SeatResult(3, 0),
        SeatResult("guest:Zed", -40, member=False)))
    lines = {ln.member: ln for ln in rate([night]).lines}
    assert set(lines) == {1, 2, 3}  # guests are not rated
    assert lines[1].actual == 100 and lines[1].par == 50 and lines[1].new == 100
    assert lines[2].beaten == 1.5 and lines[2].actual == 50 and lines[2].new == 50
    second = TableNight(2, dt.date(2026, 1, 12), (SeatResult(1, -5), SeatResult(2, 5)))
    line = next(ln for ln in rate([night, second]).lines if ln.member == 1 and ln.seq == 2)
    # Alice (100) against Bob (50): par 50 + 100 - 50 = 100; lost: actual 0; weight 1/2.
    assert (line.par, line.actual, line.weight, line.new) == (100, 0, 0.5, 50)


@pytest.fixture
def rated_season(club, make_season, bmja_version):
    season = make_season(bmja_version, seed=11, nights=5, hands=5)
    rating_store.turn_on(club)
    return season


def page_lines(client, club, member) -> list[tuple[str, float]]:
    page = client.get(f"/clubs/{club.slug}/history/players/{member.pk}/").content.decode()
    return [(d, float(v)) for d, v in re.findall(r'data-date="([\d-]+)" data-new="([-\d.]+)"', page)]


def test_the_worked_calculation_on_the_page_equals_an_independent_one(
        client_as, club, rated_season, members):
    client = client_as("member")
    expected = independent(club.pk)
    assert len(expected) >= 6
    for member in members:
        shown = page_lines(client, club, member)
        want = [(d.isoformat(), round(g, 4)) for d, g in expected.get(member.pk, [])]
        assert [(d, round(g, 4)) for d, g in shown] == want, member


def test_a_correction_changes_the_lines_after_it_and_nothing_before(
        client_as, club, rated_season, users):
    dates = sorted(set(RatingLine.objects.filter(club=club).values_list("date", flat=True)))
    before = {(m, t): (d, new) for m, t, d, new in
              RatingLine.objects.values_list("member_id", "table_id", "date", "new")}
    middle = dates[2]
    table = ClubSession.objects.get(club=club, date=middle).tables.get(number=1)
    last = min(NightResult.objects.filter(table=table), key=lambda n: n.net)
    hand = Hand.objects.filter(table=table).order_by("number").first()
    seat_wind = HandResult.objects.get(hand=hand, seat_id=last.seat_id).seat_wind
    # The night's last player wins a limit hand: their place at the table changes.
    entry = {"winner": seat_wind, "win_from": "wall", "discarder": None,
             "seats": {w: {"score": 1000 if w == seat_wind else 0}
                       for w in HandResult.objects.filter(hand=hand).values_list("seat_wind", flat=True)}}
    correct_hand(hand, entry, users["scorer"])
    assert NightResult.objects.get(seat_id=last.seat_id).place < last.place
    rating_store.ensure_fresh(club)
    after = {(m, t): (d, new) for m, t, d, new in
             RatingLine.objects.values_list("member_id", "table_id", "date", "new")}
    assert set(after) == set(before)
    assert all(after[k] == before[k] for k in before if before[k][0] < middle)
    changed = {k for k in before if after[k] != before[k]}
    assert changed and all(before[k][0] >= middle for k in changed)
    expected = independent(club.pk)
    for (member, _table), (date, new) in after.items():
        assert round(new, 6) in [round(g, 6) for d, g in expected[member] if d == date]


def test_the_lines_do_not_depend_on_the_order_of_storage(club, other_club, bmja_version, users):
    """Two clubs with the same nights, stored in opposite orders (and on one date two nights
    at different tables for the same members): the same lines, member by member."""
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    plan = []
    rng = random.Random(5)
    for week in range(6):
        date = dt.date(2025, 1, 6) + dt.timedelta(weeks=week)
        people = rng.sample(names, 4)
        plan.append((date, 1, people, rng.randrange(1000)))
        if week == 3:  # an afternoon and an evening the same day
            plan.append((date, 2, rng.sample(names, 3) + ["Visitor"], rng.randrange(1000)))
    lines = {}
    for club_, order in ((club, plan), (other_club, list(reversed(plan)))):
        members = {n: Member.objects.create(club=club_, display_name=n) for n in names}
        for date, session_no, people, seed in order:
            session = ClubSession.objects.create(club=club_, date=date,
                                                 house_rule_version=bmja_version,
                                                 notes=str(session_no))
            table = seat_table(session, 1, [members.get(p, p) for p in people])
            play_hands(table, users["scorer"], random.Random(seed), 4)
        rating_store.turn_on(club_)
        lines[club_.pk] = sorted(
            (m, d.isoformat(), round(new, 9)) for m, d, new in RatingLine.objects.filter(
                club=club_).values_list("member__display_name", "date", "new"))
    assert lines[club.pk] == lines[other_club.pk]
    assert len(lines[club.pk]) == 6 * 4 + 3


def test_hidden_ratings_and_the_rating_table(client_as, club, rated_season, members, users):
    client = client_as("member")
    page = client.get(f"/clubs/{club.slug}/history/rating/").content.decode()
    rated = [m for m in members if RatingLine.objects.filter(member=m).exists()]
    assert all(m.display_name in page for m in rated)
    RatingPrivacy.objects.create(member=rated[0], hidden=True)
    page = client.get(f"/clubs/{club.slug}/history/rating/").content.decode()
    assert f">{rated[0].display_name}</a>" not in page
    player = client.get(f"/clubs/{club.slug}/history/players/{rated[0].pk}/").content.decode()
    assert "keeps their rating private" in player and "rating-lines" not in player
    # The member who hides it still sees their own, and may show it again.
    own = Member.objects.get(club=club, user=users["member"])
    answer = client.post(f"/clubs/{club.slug}/history/players/{own.pk}/privacy/", {"hidden": "1"})
    assert answer.status_code == 302 and RatingPrivacy.objects.get(member=own).hidden
    answer = client.post(f"/clubs/{club.slug}/history/players/{rated[1].pk}/privacy/",
                         {"hidden": "1"}, follow=True)
    assert "Only the member themselves" in answer.content.decode()
    assert not RatingPrivacy.objects.filter(member=rated[1]).exists()


def test_snapshots_are_frozen(client_as, club, rated_season, users):
    client = client_as("admin")
    last = RatingLine.objects.filter(club=club).order_by("-date").first().date
    answer = client.post(f"/clubs/{club.slug}/history/rating/snapshots/", {"as_of": last},
                         follow=True)
    assert "Snapshot of the rating as of" in answer.content.decode()
    from history.models import RatingSnapshot

    snap = RatingSnapshot.objects.get()
    rows = snap.data["rows"]
    assert rows and rows == [{**r, "last": r["last"].isoformat()}
                             for r in rating_store.table_as_of(club, last)]
    RatingLine.objects.filter(club=club).delete()
    page = client.get(f"/clubs/{club.slug}/history/rating/snapshots/{snap.pk}/").content.decode()
    assert rows[0]["name"] in page
    assert client_as("member").post(
        f"/clubs/{club.slug}/history/rating/snapshots/").status_code == 403


def test_a_snapshot_date_that_cannot_be_read_is_said_and_keeps_nothing(client_as, club,
                                                                      rated_season):
    # Found in QA (issue #26): a date that is not one ("30/02/2024", typed where a browser
    # has no date picker) kept a snapshot as of today.
    from history.models import RatingSnapshot

    answer = client_as("admin").post(f"/clubs/{club.slug}/history/rating/snapshots/",
                                     {"as_of": "30/02/2024"}, follow=True)
    assert ("No snapshot was kept: the date &#x27;30/02/2024&#x27; is not a date; write it as "
            "2024-12-31.") in answer.content.decode()
    assert not RatingSnapshot.objects.exists()


def test_a_new_night_counts_when_next_read(client_as, club, rated_season, members, users,
                                           bmja_version):
    before = RatingLine.objects.filter(club=club).count()
    session = ClubSession.objects.create(club=club, season=rated_season,
                                         date=dt.date(2026, 6, 1), house_rule_version=bmja_version)
    table = seat_table(session, 1, members[:4])
    play_hands(table, users["scorer"], random.Random(1), 3)
    client_as("member").get(f"/clubs/{club.slug}/history/rating/")
    assert RatingLine.objects.filter(club=club).count() == before + 4


@pytest.mark.parametrize("role, status", [("anonymous", 404), ("outsider", 404),
                                          ("member", 200), ("scorer", 200), ("admin", 200)])
def test_who_may_see_the_rating_and_player_pages(client_as, club, members, role, status):
    client = client_as(role)
    assert client.get(f"/clubs/{club.slug}/history/rating/").status_code == status
    assert client.get(f"/clubs/{club.slug}/history/players/{members[0].pk}/").status_code == status
    settings_status = {"member": 403, "scorer": 403, "admin": 200}.get(role, status)
    assert client.get(f"/clubs/{club.slug}/history/rating/settings/").status_code == settings_status


def test_a_published_club_shows_them_to_anyone(client, club, members):
    club.published = True
    club.save()
    assert client.get(f"/clubs/{club.slug}/history/rating/").status_code == 200
    assert client.get(f"/clubs/{club.slug}/history/players/{members[0].pk}/").status_code == 200


def test_settings_turn_it_on_and_off(client_as, club, make_season, bmja_version):
    make_season(bmja_version, seed=2, nights=2, hands=3)
    client = client_as("admin")
    answer = client.post(f"/clubs/{club.slug}/history/rating/settings/",
                         {"enabled": "on", "provisional_nights": 4, "min_weight": 5,
                          "guest_grade": 50})
    assert answer.status_code == 400 and "from 0.01 to 1" in answer.content.decode()
    answer = client.post(f"/clubs/{club.slug}/history/rating/settings/",
                         {"enabled": "on", "provisional_nights": 99999, "min_weight": 0.2,
                          "guest_grade": 50})
    assert answer.status_code == 400
    assert "from 0 to 100" in answer.content.decode()
    assert "9223372036854775807" not in answer.content.decode()
    client.post(f"/clubs/{club.slug}/history/rating/settings/",
                {"enabled": "on", "provisional_nights": 4, "min_weight": 0.2, "guest_grade": 45})
    assert RatingLine.objects.filter(club=club).exists()
    client.post(f"/clubs/{club.slug}/history/rating/settings/",
                {"provisional_nights": 4, "min_weight": 0.2, "guest_grade": 45})
    assert not RatingLine.objects.filter(club=club).exists()


def test_the_pages_queries_do_not_grow_with_history(client_as, club, make_season, bmja_version,
                                                    members):
    client = client_as("member")
    counts = []
    for seed, nights in ((1, 2), (2, 5)):
        make_season(bmja_version, seed=seed, nights=nights, hands=4)
        rating_store.turn_on(club)
        for url in (f"/clubs/{club.slug}/history/rating/",
                    f"/clubs/{club.slug}/history/players/{members[0].pk}/"):
            client.get(url)  # the first read may recompute
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts.append(len(ctx.captured_queries))
        ClubSession.objects.filter(club=club).delete()
    assert counts[:2] == counts[2:], counts


def test_the_api_gives_the_rating_table_and_a_members_lines(club, rated_season, members, users,
                                                           admin_api):
    from rest_framework.test import APIClient

    answer = admin_api.get(f"/api/v1/clubs/{club.slug}/rating/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["enabled"] and body["params"]["min_weight"] == 0.1
    want = rating_store.table_as_of(club, None)
    assert [(r["member_id"], r["grade"]) for r in body["rows"]] == [
        (r["member_id"], r["grade"]) for r in want]
    member = next(m for m in members if RatingLine.objects.filter(member=m).exists())
    history = admin_api.get(f"/api/v1/clubs/{club.slug}/members/{member.pk}/history/").json()
    assert [round(x["new"], 6) for x in history["rating"]] == [
        round(g, 6) for _d, g in independent(club.pk)[member.pk]]
    assert history["hands"] == HandResult.objects.filter(member=member).count()
    RatingPrivacy.objects.create(member=member)
    history = admin_api.get(f"/api/v1/clubs/{club.slug}/members/{member.pk}/history/").json()
    assert history["rating"] is None
    assert member.pk not in [r["member_id"] for r in admin_api.get(
        f"/api/v1/clubs/{club.slug}/rating/").json()["rows"]]
    bad = admin_api.get(f"/api/v1/clubs/{club.slug}/members/{member.pk}/history/?start=2026-05-01&end=2026-01-01")
    assert bad.status_code == 400 and "end" in bad.json()
    assert admin_api.get(f"/api/v1/clubs/{club.slug}/rating/?as_of=soon").status_code == 400
    outsider = APIClient()
    outsider.force_authenticate(users["outsider"])
    assert outsider.get(f"/api/v1/clubs/{club.slug}/rating/").status_code == 404
    assert APIClient().get(f"/api/v1/clubs/{club.slug}/rating/").status_code in (401, 403, 404)


def test_tonights_hands_count_as_they_are_recorded(client_as, club, rated_season, members,
                                                   users, bmja_version):
    """Hands appended to a night mark nothing (the hot path): tonight's night, open, is read
    afresh each time, so the rating follows every hand."""
    from django.utils import timezone

    session = ClubSession.objects.create(club=club, season=None, date=timezone.localdate(),
                                         house_rule_version=bmja_version)
    table = seat_table(session, 1, members[:4])
    rng = random.Random(8)
    for _ in range(4):
        play_hands(table, users["scorer"], rng, 1)
        client_as("member").get(f"/clubs/{club.slug}/history/rating/")
        expected = independent(club.pk)
        for member in members[:4]:
            line = RatingLine.objects.get(member=member, table=table)
            assert round(line.new, 6) == round(expected[member.pk][-1][1], 6)


def test_the_rating_beside_the_season_standings(client_as, club, rated_season, members, users):
    """On the standings page, after the season's table (beside it on a wide screen), only
    when the club has opted in; a member who hides their rating is left out for others."""
    client = client_as("member")
    url = f"/clubs/{club.slug}/league/{rated_season.pk}/"
    page = client.get(url).content.decode()
    assert 'id="standings"' in page and 'id="rating-beside"' in page
    assert page.index('id="standings"') < page.index('id="rating-beside"')
    rows = rating_store.table_as_of(club, None)
    beside = page[page.index('id="rating-beside"'):]
    assert all(f">{r['name']}</a>" in beside for r in rows)
    assert 'id="rating-link"' not in page  # the panel links to the rating's own page
    assert f'href="/clubs/{club.slug}/history/rating/"' in beside
    hidden = Member.objects.get(pk=rows[0]["member_id"])
    RatingPrivacy.objects.create(member=hidden, hidden=True)
    beside = client.get(url).content.decode().split('id="rating-beside"')[1]
    assert f">{hidden.display_name}</a>" not in beside
    # The member who hides it sees their own line (the login moved to that member).
    Member.objects.filter(club=club, user=users["member"]).update(user=None)
    hidden.user = users["member"]
    hidden.save()
    beside = client.get(url).content.decode().split('id="rating-beside"')[1]
    assert f">{hidden.display_name}</a>" in beside
    # The all-time table has it too.
    assert 'id="rating-beside"' in client.get(f"/clubs/{club.slug}/league/all-time/").content.decode()
    # Not opted in: the standings alone, with the link to the rating's page as before.
    client_as("admin").post(f"/clubs/{club.slug}/history/rating/settings/",
                            {"provisional_nights": 6, "min_weight": 0.1, "guest_grade": 50})
    page = client.get(url).content.decode()
    assert 'id="rating-beside"' not in page and 'id="rating-link"' in page


def test_a_past_seasons_standings_show_the_rating_as_of_its_last_day(
        client_as, club, make_season, bmja_version):
    old = make_season(bmja_version, seed=3, nights=3, hands=3)
    last = max(ClubSession.objects.filter(season=old).values_list("date", flat=True))
    old.end = last
    old.save()
    rating_store.turn_on(club)
    page = client_as("member").get(f"/clubs/{club.slug}/league/{old.pk}/").content.decode()
    assert f"as of {last:%-d %b %Y}, the season's last day" in page


def test_the_standings_page_with_the_rating_costs_the_same_queries(
        client_as, club, make_season, bmja_version, members):
    client = client_as("member")
    counts = []
    for seed, nights in ((1, 2), (2, 6)):
        season = make_season(bmja_version, seed=seed, nights=nights, hands=4)
        rating_store.turn_on(club)
        for url in (f"/clubs/{club.slug}/league/{season.pk}/",
                    f"/clubs/{club.slug}/league/all-time/"):
            client.get(url)
            with CaptureQueriesContext(connection) as ctx:
                page = client.get(url)
            assert page.status_code == 200 and 'id="rating-beside"' in page.content.decode()
            counts.append(len(ctx.captured_queries))
        ClubSession.objects.filter(club=club).delete()
    assert counts[:2] == counts[2:], counts


@pytest.mark.parametrize("per_table", [3, 5])
def test_tables_of_three_and_five_with_guests_on_the_page(client_as, club, make_season,
                                                          house_rule_versions, members,
                                                          per_table):
    """Tables of three, and of five (one sits out each hand, and played the night), each with
    a guest: the page's lines equal the independent computation; a guest is never rated but
    counts for the others' par; the calculation shows how many were beaten of how many."""
    make_season(house_rule_versions[f"bmja-{per_table}-players"], seed=per_table, nights=4,
                per_table=per_table, hands=5)
    rating_store.turn_on(club)
    sizes = {n for n in NightResult.objects.filter(club=club).values("table_id")
             .annotate(n=Count("id")).values_list("n", flat=True)}
    assert sizes == {per_table}
    assert NightResult.objects.filter(club=club, member=None).exists()  # the guest
    assert not RatingLine.objects.filter(club=club).exclude(players=per_table).exists()
    client = client_as("member")
    expected = independent(club.pk)
    for member in members:
        shown = page_lines(client, club, member)  # four decimals: compared to 1e-4
        want = expected.get(member.pk, [])
        assert [d for d, _g in shown] == [d.isoformat() for d, _g in want]
        assert all(abs(g - w) <= 1e-4 for (_d, g), (_e, w) in zip(shown, want, strict=True))
    some = next(m for m in members if m.pk in expected)
    page = client.get(f"/clubs/{club.slug}/history/players/{some.pk}/").content.decode()
    assert f"/{per_table - 1}</td>" in page  # beaten "x/(players - 1)"


def test_provisional_until_n_nights_on_the_page_and_in_the_api(client_as, club, make_season,
                                                               bmja_version, admin_api):
    make_season(bmja_version, seed=9, nights=5, hands=3)
    rating_store.turn_on(club, provisional_nights=3)
    rows = admin_api.get(f"/api/v1/clubs/{club.slug}/rating/").json()["rows"]
    assert rows and all(r["provisional"] == (r["nights"] < 3) for r in rows)
    assert all(("place" in r) != r["provisional"] for r in rows)
    page = client_as("member").get(f"/clubs/{club.slug}/history/rating/").content.decode()
    provisional = [r["name"] for r in rows if r["provisional"]]
    for name in provisional:
        assert re.search(rf">{re.escape(name)}</a> <span class=\"small muted\">provisional", page)


def test_snapshots_and_hiding_ones_rating_in_the_api(club, rated_season, members, users,
                                                     admin_api):
    from rest_framework.test import APIClient

    from history.models import RatingSnapshot

    url = f"/api/v1/clubs/{club.slug}/rating/snapshots/"
    last = RatingLine.objects.filter(club=club).order_by("-date").first().date
    made = admin_api.post(url, {"as_of": last.isoformat()}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["as_of"] == last.isoformat() and body["params"]["provisional_nights"] == 6
    assert [(r["member_id"], r["grade"]) for r in body["rows"]] == [
        (r["member_id"], r["grade"]) for r in rating_store.table_as_of(club, last)]
    future = admin_api.post(url, {"as_of": "2999-01-01"}, format="json")
    assert future.status_code == 400 and "happened" in future.json()["as_of"][0]
    assert admin_api.post(url, {"as_of": "soon"}, format="json").status_code == 400
    listed = admin_api.get(url).json()
    assert [s["id"] for s in listed] == [body["id"]]
    one = admin_api.get(f"{url}{body['id']}/").json()
    assert one["rows"] == body["rows"]
    # Frozen: the lines rebuilt with other parameters leave it as it was.
    rating_store.turn_on(club, min_weight=0.5)
    assert admin_api.get(f"{url}{body['id']}/").json()["rows"] == body["rows"]

    member_api = APIClient()
    member_api.force_authenticate(users["member"])
    assert member_api.post(url, {}, format="json").status_code == 403
    # A member hides their own rating through the API: gone from the snapshot and the table
    # for others, kept for themselves; nobody else may hide it.
    own = Member.objects.get(club=club, user=users["member"])
    shown = body["rows"][0]["member_id"]
    Member.objects.filter(pk=own.pk).update(user=None)
    Member.objects.filter(pk=shown).update(user=users["member"])
    privacy = f"/api/v1/clubs/{club.slug}/members/{shown}/rating-privacy/"
    assert admin_api.put(privacy, {"hidden": True}, format="json").status_code == 403
    assert member_api.put(privacy, {"hidden": "maybe"}, format="json").status_code == 400
    answer = member_api.put(privacy, {"hidden": True}, format="json")
    assert answer.status_code == 200 and answer.json() == {"hidden": True}
    assert admin_api.get(privacy).json() == {"hidden": True}
    assert shown not in [r["member_id"] for r in admin_api.get(f"{url}{body['id']}/").json()["rows"]]
    assert shown in [r["member_id"] for r in member_api.get(f"{url}{body['id']}/").json()["rows"]]
    assert shown not in [r["member_id"] for r in admin_api.get(
        f"/api/v1/clubs/{club.slug}/rating/").json()["rows"]]
    assert member_api.put(privacy, {"hidden": False}, format="json").json() == {"hidden": False}
    assert shown in [r["member_id"] for r in admin_api.get(f"{url}{body['id']}/").json()["rows"]]
    # The rating turned off: no new snapshot, said why.
    RatingSnapshot.objects.all().delete()
    from history.models import RatingSettings

    RatingSettings.objects.filter(club=club).update(enabled=False)
    off = admin_api.post(url, {}, format="json")
    assert off.status_code == 400 and "Turn the rating on" in str(off.json())


def test_the_rating_command_prints_the_table_and_keeps_a_snapshot(club, rated_season, other_club):
    import io

    from django.core.management import CommandError, call_command

    from history.models import RatingSnapshot

    out = io.StringIO()
    call_command("rating", "--club", club.slug, stdout=out)
    rows = rating_store.table_as_of(club, None)
    assert rows[0]["name"] in out.getvalue() and f"{rows[0]['grade']:6.1f}" in out.getvalue()
    last = RatingLine.objects.filter(club=club).order_by("-date").first().date
    out = io.StringIO()
    call_command("rating", "--club", club.slug, "--snapshot", "--as-of", last.isoformat(),
                 stdout=out)
    snap = RatingSnapshot.objects.get(club=club)
    assert snap.as_of == last and f"Snapshot {snap.pk}" in out.getvalue()
    for bad, words in ((["--as-of", "next week"], "YYYY-MM-DD"),
                       (["--as-of", "2999-01-01", "--snapshot"], "a day that has happened")):
        with pytest.raises(CommandError, match=words):
            call_command("rating", "--club", club.slug, *bad)
    with pytest.raises(CommandError, match="has not turned the rating on"):
        call_command("rating", "--club", other_club.slug)
    with pytest.raises(CommandError, match="No club"):
        call_command("rating", "--club", "nowhere")


@pytest.mark.parametrize("which", ["one table", "every table"])
def test_a_summary_rebuilt_from_scratch_is_rated_again(club, rated_season, which):
    """``manage.py refresh_league`` rebuilds the summary from the hand results; a night whose
    rows change there (no hand added, so no hand count moves) is rated again on the next read."""
    from django.db.models import F

    from clubs.models import Table
    from league.summary import refresh_all

    middle = sorted(set(RatingLine.objects.filter(club=club).values_list("date", flat=True)))[2]
    table = ClubSession.objects.get(club=club, date=middle).tables.get(number=1)
    # The hand results changed behind the summary's back (a repair in the database): every
    # score at the table turned round, so the night's places turn round too.
    HandResult.objects.filter(hand__table=table).update(net=-F("net"))
    refresh_all(Table.objects.filter(pk=table.pk) if which == "one table" else None)
    rating_store.ensure_fresh(club)
    expected = independent(club.pk)
    lines = RatingLine.objects.filter(club=club).values_list("member_id", "date", "new")
    for member, date, new in lines:
        assert round(new, 6) in [round(g, 6) for d, g in expected[member] if d == date]
