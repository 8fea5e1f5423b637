"""The stored standings (``league.standings_store``: each player's season and all-time rows,
kept by differences as NightResult changes) equal a rebuild from NightResult
(``manage.py refresh_league``) after every kind of write: hands recorded, a correction, a void,
a table voided and restored, a night moved to another season, a guest made a member and two
members merged (and undone), a spreadsheet imported and undone, a table deleted. And the
standings read from them equal the nights summed (the filtered path)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.management import call_command

from clubs import mending
from clubs.members.merge import guest_to_member, merge_members, undo_move
from clubs.models import ClubSession, Hand, Member, Season
from clubs.recording.corrections import correct_hand, void_hand
from history import import_run
from history.import_write import apply_plan, undo
from history.stats import Span, member_stats, scratch_stats
from league.models import Standing, StandingScope
from league.queries import Filters, standings
from league.ranking import PRESETS
from league.standings_store import rebuild
from tests.league.conftest import play_hands, seat_table

pytestmark = pytest.mark.django_db


def stored() -> tuple[list, dict]:
    rows = sorted(
        (r.scope.club_id, r.scope.season_id or 0, r.member_id or 0, r.guest_name, r.nights, r.tables,
         r.hands, r.net, r.mahjongs, r.given, round(r.points_zero, 6),
         round(r.points_half, 6), r.place_sum, *(getattr(r, n) for n in HISTORY_SUMS))
        for r in Standing.objects.select_related("scope"))
    scopes = {(s.club_id, s.season_id): s.nights for s in StandingScope.objects.all()
              if s.nights}
    return rows, scopes


HISTORY_SUMS = ("won_from_wall", "east_hands", "east_won", "east_net", "goulash_hands",
                "goulash_won", "goulash_net", "imported_hands", "imported_net",
                "imported_tables", "place_1", "place_2", "place_3", "place_4", "place_5")


def assert_stats_equal(step: str) -> None:
    """Every member's statistics of every season, read from their stored row, equal those
    summed from their hands (history.stats.scratch_stats)."""
    for member in Member.objects.all():
        for season in Season.objects.filter(club_id=member.club_id):
            span = Span(season.pk)
            assert member_stats(member, span) == scratch_stats(member, span), (step, member)


def assert_rebuild_equal(step: str) -> None:
    kept = stored()
    assert_stats_equal(step)
    rebuild()
    assert stored() == kept, step


def same_as_summed(season, club) -> None:
    """The stored path equals the nights summed (a filter that keeps every night takes that
    path), for every preset and all time."""
    every = Filters(start=dt.date(1900, 1, 1))
    for name, (_, rules) in PRESETS.items():
        assert (standings(rules, season=season).to_json()
                == standings(rules, season=season, filters=every).to_json()), name
    net = PRESETS["net"][1]
    assert (standings(net, club=club).to_json()
            == standings(net, club=club, filters=every).to_json())


def night(club, season, version, date, tables, users, rng, hands=4):
    session = ClubSession.objects.create(club=club, season=season, date=date,
                                         house_rule_version=version)
    made = []
    for number, people in enumerate(tables, 1):
        table = seat_table(session, number, people)
        play_hands(table, users["scorer"], rng, hands)
        made.append(table)
    return session, made


def test_stored_standings_equal_a_rebuild_after_every_kind_of_write(
        club, season, members, users, bmja_version):
    rng = random.Random(7)
    other = Season.objects.create(club=club, name="2027", start=dt.date(2027, 1, 1))
    m = members
    s1, (t1, t2) = night(club, season, bmja_version, dt.date(2026, 3, 1),
                         [m[:4], [m[4], m[5], m[6], "Visitor"]], users, rng)
    assert_rebuild_equal("recorded")
    same_as_summed(season, club)
    s2, (t3,) = night(club, season, bmja_version, dt.date(2026, 3, 8),
                      [[m[0], m[1], "Visitor", m[7]]], users, rng)
    # a night with no season counts all time only
    night(club, None, bmja_version, dt.date(2026, 6, 1), [[m[2], m[3], m[8], m[9]]], users, rng)
    assert_rebuild_equal("three nights")

    first = Hand.objects.filter(table=t1).order_by("number").first()
    correct_hand(first, {"seats": {"E": {"score": 500}}}, users["scorer"])
    assert_rebuild_equal("a correction")
    void_hand(Hand.objects.filter(table=t2).order_by("number").last(), users["scorer"])
    assert_rebuild_equal("a void")
    entry = mending.void_table(t3, user=users["scorer"])
    assert_rebuild_equal("a whole table voided (the night no longer counts)")
    assert StandingScope.objects.get(season=season).nights == 1
    mending.undo(entry, user=users["scorer"])
    assert_rebuild_equal("the void undone")

    s2.season = other
    s2.date = dt.date(2027, 3, 8)
    s2.save()
    assert_rebuild_equal("a night moved to another season")
    same_as_summed(other, club)

    move = guest_to_member(club, "Visitor", None, user=users["admin"], new_name="Vera")
    assert_rebuild_equal("a guest made a member")
    undo_move(move.audit, user=users["admin"])
    assert_rebuild_equal("that undone")
    merged = merge_members(m[0], m[8], user=users["admin"])
    assert_rebuild_equal("two members merged")
    undo_move(merged.audit, user=users["admin"])
    assert_rebuild_equal("the merge undone")

    empty = seat_table(s1, 3, [m[7], m[8], m[9], "Another"])
    mending.delete_table(empty, user=users["scorer"])
    assert_rebuild_equal("an empty table deleted")

    sheet = ("Season,Date,Table,Player,Net\n"
             "2026,3 Mar 2026,5,Alice,10\n2026,3 Mar 2026,5,Zoe New,-10\n"
             "Old,3 Nov 2020,1,Alice,4\nOld,3 Nov 2020,1,Bob,-4\n")
    batch = import_run.start(club, sheet.encode(), "old.csv")
    batch.choices = {"Zoe New": "new"}
    batch.save()
    apply_plan(batch, import_run.plan_of(batch))
    assert_rebuild_equal("an import")
    assert Standing.objects.filter(member__display_name="Zoe New").count() == 2
    same_as_summed(season, club)
    undo(batch)
    assert_rebuild_equal("the import undone")
    assert not Standing.objects.filter(scope__season__name="Old").exists()
    same_as_summed(season, club)

    # refresh_league makes the same rows from scratch
    kept = stored()
    Standing.objects.all().delete()
    call_command("refresh_league", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert stored() == kept


def test_one_query_reads_a_seasons_stored_standings(club, season, members, users,
                                                    bmja_version, django_assert_num_queries):
    rng = random.Random(3)
    night(club, season, bmja_version, dt.date(2026, 3, 1), [members[:4]], users, rng)
    with django_assert_num_queries(1):
        table = standings(PRESETS["net"][1], season=season)
    assert table.season_nights == 1 and len(table.rows()) == 4
    with django_assert_num_queries(1):
        standings(PRESETS["net"][1], club=club)
    assert Member.objects.filter(club=club).exists()


def test_one_query_sums_a_filtered_season(club, season, members, users, bmja_version,
                                          django_assert_num_queries):
    """Filtered, the nights kept are summed with the players' names and the count of those
    nights in one query (it was two: the count apart); best-N reads the night values too."""
    rng = random.Random(3)
    night(club, season, bmja_version, dt.date(2026, 3, 1), [members[:4]], users, rng)
    night(club, season, bmja_version, dt.date(2026, 3, 8), [members[2:6], ["Visitor",
                                                                            *members[6:9]]],
          users, rng)
    later = Filters(start=dt.date(2026, 3, 2))
    for name, (_, rules) in PRESETS.items():
        with django_assert_num_queries(2 if rules.combine == "best" else 1):
            table = standings(rules, season=season, filters=later)
        assert table.season_nights == 1, name
        assert len(table.rows()) == 8 and [r.name for r in table.guests] == ["Visitor"], name
    with django_assert_num_queries(1):
        table = standings(PRESETS["net"][1], club=club, filters=Filters(table=1))
    assert table.season_nights == 2 and len(table.rows()) == 6  # members 0-5 at table 1
    nothing = Filters(start=dt.date(2027, 1, 1))
    with django_assert_num_queries(1):
        table = standings(PRESETS["net"][1], season=season, filters=nothing)
    assert table.season_nights == 0 and table.rows() == []


def test_the_answer_is_the_document_its_serializer_describes(make_season, bmja_version,
                                                            monkeypatch):
    """standings_json renders through StandingsSerializer, whose rows (and itself) are
    rendered field by field without DRF's generic walk (PlainSerializer): the same JSON, byte
    for byte, as DRF's own Serializer.to_representation renders, under every preset and a
    filter, and for a snapshot's stored document (no filters: DRF's walk skips them)."""
    from rest_framework import serializers
    from rest_framework.renderers import JSONRenderer

    from league.serializers import PlainSerializer, StandingsSerializer
    from league.views import standings_json

    season = make_season(bmja_version, seed=5, nights=2, hands=5)
    documents = []
    for filters in (Filters(), Filters(start=dt.date(2026, 1, 1), table=1)):
        for name, (_, rules) in PRESETS.items():
            table = standings(rules, season=season, filters=filters)
            documents.append((name, table, filters))
    older = standings(PRESETS["net"][1], season=season).to_json()  # as a snapshot: no filters

    def rendered():
        return ([JSONRenderer().render(standings_json(table, filters))
                 for _, table, filters in documents]
                + [JSONRenderer().render(StandingsSerializer(older).data)])

    plain = rendered()
    monkeypatch.setattr(PlainSerializer, "to_representation",
                        serializers.Serializer.to_representation)
    generic = rendered()
    assert len(plain) == len(documents) + 1
    for (name, *_), ours, drf in zip([*documents, ("older",)], plain, generic, strict=True):
        assert ours == drf, name
    assert b'"table_points":' in plain[0] and b'"filters":{}' in plain[0]


@pytest.mark.django_db(transaction=True)
def test_a_night_moved_outside_any_transaction(club, season, members, users, bmja_version):
    """A night saved in autocommit (the admin, a shell) still moves its standings: the
    difference is written in a transaction of its own (PostgreSQL refuses a row lock
    outside one)."""
    night(club, season, bmja_version, dt.date(2026, 3, 1), [members[:4]], users,
          random.Random(2))
    later = Season.objects.create(club=club, name="2027", start=dt.date(2027, 1, 1))
    session = ClubSession.objects.get(club=club)
    session.season, session.date = later, dt.date(2027, 3, 1)
    session.save()
    assert_rebuild_equal("moved in autocommit")
    assert Standing.objects.filter(scope__season=later).count() == 4


def test_a_delete_that_failed_takes_nothing_off_a_later_one(club, season, members, users,
                                                              bmja_version):
    """Rows announced by a delete that then failed (pre_delete sent, no post_delete: an error
    or a protected row) are still there: the next delete in the same thread subtracts its own
    rows only."""
    from django.db.models.signals import pre_delete

    from league.models import NightResult

    rng = random.Random(3)
    first, _ = night(club, season, bmja_version, dt.date(2026, 3, 1), [members[:4]], users, rng)
    second, _ = night(club, season, bmja_version, dt.date(2026, 3, 8), [members[:4]], users,
                      rng)
    for row in NightResult.objects.filter(session=first):
        pre_delete.send(sender=NightResult, instance=row, using="default", origin=row)
    second.delete()
    assert NightResult.objects.filter(session=first).count() == 4
    assert_rebuild_equal("a failed delete's rows, then another night deleted")


def test_the_api_reads_a_season_its_rules_and_its_rows_in_one_query(
        make_season, bmja_version, users, club, other_club, django_assert_num_queries):
    """Unfiltered, the season's standings answer is one query whoever asks (the season, its
    club, its league rules, who may see it and the stored rows together), under every preset
    the same document as the page's standings; a season nobody has played yet answers empty
    standings, one the user may not see 404, as does a season id past any integer column."""
    from rest_framework.test import APIClient

    from league.models import SeasonLeague, rules_of
    from league.views import standings_json

    season = make_season(bmja_version, seed=7, nights=2, hands=5)
    client = {role: APIClient() for role in ("admin", "member", "outsider", "anonymous")}
    for role, api in client.items():
        if users[role]:
            api.force_authenticate(users[role])
    path = f"/api/v1/seasons/{season.pk}/standings/"
    for name, (_, rules) in PRESETS.items():
        SeasonLeague.objects.update_or_create(season=season, defaults={
            **rules.to_dict(), "preset": name})
        season = Season.objects.get(pk=season.pk)
        expected = standings_json(standings(rules_of(season), season=season), Filters())
        assert expected["rules"] == {**rules.to_dict(), "description": rules.describe()}
        for role in ("admin", "member"):
            with django_assert_num_queries(2 if rules.combine == "best" else 1):
                answer = client[role].get(path)
            assert answer.json() == expected, (name, role)
    SeasonLeague.objects.filter(season=season).delete()  # no rules: the net preset
    assert client["member"].get(path).json()["rules"]["description"] == (
        PRESETS["net"][1].describe())
    assert client["outsider"].get(path).status_code == 404
    assert client["anonymous"].get(path).status_code == 404
    club.published = True
    club.save()
    with django_assert_num_queries(1):
        assert client["anonymous"].get(path).status_code == 200
    assert client["anonymous"].get(
        f"/api/v1/clubs/{other_club.slug}/standings/").status_code == 404
    empty = Season.objects.create(club=club, name="2027", start=dt.date(2027, 1, 1))
    answer = client["member"].get(f"/api/v1/seasons/{empty.pk}/standings/")
    assert answer.status_code == 200 and answer.json()["rows"] == []
    assert answer.json()["season_nights"] == 0
    assert client["member"].get(f"/api/v1/seasons/{2**70}/standings/").status_code == 404
    # All time: the club and its stored rows, one query.
    with django_assert_num_queries(1):
        all_time = client["member"].get(f"/api/v1/clubs/{club.slug}/standings/")
    assert all_time.json() == standings_json(standings(PRESETS["net"][1], club=club), Filters())
    csv = client["member"].get(f"/api/v1/clubs/{club.slug}/standings/", {"format": "csv"})
    assert f'filename="{club.slug}-all-time.csv"' in csv["Content-Disposition"]
    csv = client["member"].get(path, {"format": "csv"})
    assert f'filename="{club.slug}-{season.name}-standings.csv"' in csv["Content-Disposition"]


def test_the_api_sums_a_filtered_season_with_its_rules_in_one_query(
        make_season, bmja_version, users, club, other_club, django_assert_num_queries):
    """Filtered, the season's standings answer is one query too whoever asks (the season, its
    club, its league rules and who may see it with the nights kept, summed, and their count;
    best-N reads the night values besides), under every preset the same document as the
    page's; a filter that keeps no night answers empty standings in three (the summed read
    finds nothing, then the season and its sums, as before); a season the user may not see,
    or an id past any integer column, 404 before a bad filter's 400; all time the same."""
    from rest_framework.test import APIClient

    from league.models import SeasonLeague, rules_of
    from league.views import standings_json

    season = make_season(bmja_version, seed=7, nights=3, hands=5)
    dates = sorted(ClubSession.objects.filter(season=season).values_list("date", flat=True))
    client = {role: APIClient() for role in ("admin", "member", "outsider", "anonymous")}
    for role, api in client.items():
        if users[role]:
            api.force_authenticate(users[role])
    path = f"/api/v1/seasons/{season.pk}/standings/"
    queries = [({"start": dates[1].isoformat()}, Filters(start=dates[1])),
               ({"as_of": dates[1].isoformat(), "table": "2"}, Filters(as_of=dates[1], table=2)),
               ({"house_rule": str(bmja_version.record_id)},
                Filters(house_rule=bmja_version.record_id))]
    for name, (_, rules) in PRESETS.items():
        SeasonLeague.objects.update_or_create(season=season, defaults={
            **rules.to_dict(), "preset": name})
        season = Season.objects.get(pk=season.pk)
        for query, filters in queries:
            expected = standings_json(standings(rules_of(season), season=season,
                                                filters=filters), filters)
            assert expected["rules"]["description"] == rules.describe()
            assert any(r["group"] == "guest" for r in expected["rows"])
            for role in ("admin", "member"):
                with django_assert_num_queries(2 if rules.combine == "best" else 1):
                    answer = client[role].get(path, query)
                assert answer.json() == expected, (name, query, role)
    assert client["member"].get(path, queries[0][0]).json()["season_nights"] == 2
    SeasonLeague.objects.filter(season=season).delete()  # no rules: the net preset
    with django_assert_num_queries(3):
        answer = client["member"].get(path, {"start": "2027-01-01"})
    assert answer.status_code == 200 and answer.json()["rows"] == []
    assert answer.json()["season_nights"] == 0
    for role in ("outsider", "anonymous"):
        assert client[role].get(path, queries[0][0]).status_code == 404
        assert client[role].get(path, {"table": "x"}).status_code == 404
    assert client["member"].get(path, {"table": "x"}).status_code == 400
    assert client["member"].get(f"/api/v1/seasons/{2**70}/standings/",
                                queries[0][0]).status_code == 404
    club.published = True
    club.save()
    with django_assert_num_queries(1):
        assert client["anonymous"].get(path, queries[0][0]).status_code == 200
    assert client["anonymous"].get(f"/api/v1/clubs/{other_club.slug}/standings/",
                                   {"table": "1"}).status_code == 404
    csv = client["member"].get(path, {"format": "csv", **queries[0][0]})
    assert f'filename="{club.slug}-{season.name}-standings.csv"' in csv["Content-Disposition"]
    # All time: the club and its nights kept, summed, one query.
    with django_assert_num_queries(1):
        all_time = client["member"].get(f"/api/v1/clubs/{club.slug}/standings/", {"table": "1"})
    assert all_time.json() == standings_json(
        standings(PRESETS["net"][1], club=club, filters=Filters(table=1)), Filters(table=1))
    csv = client["member"].get(f"/api/v1/clubs/{club.slug}/standings/",
                               {"format": "csv", "table": "1"})
    assert f'filename="{club.slug}-all-time.csv"' in csv["Content-Disposition"]
