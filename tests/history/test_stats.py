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


def test_imported_nights_count_where_totals_suffice_and_are_named_where_not(
        client_as, admin_api, club, players, users, bmja_version, season):
    """Three nights imported from a sheet (totals) and one recorded hand by hand: nights,
    their net and places count all four; the hand statistics only the recorded one, and the
    page and the API say how many imported nights they leave out."""
    from history import import_run
    from history.import_write import apply_plan
    from league.models import NightResult

    alice = players[0]
    sheet = "Date,Table,Player,Net\n" + "".join(
        f"{date},1,Alice,{a}\n{date},1,Bob,{b}\n{date},1,Carol,{c}\n{date},1,David,{d}\n"
        for date, a, b, c, d in (("2026-01-07", 40, -10, -10, -20),
                                 ("2026-01-14", -5, 25, 0, -20),
                                 ("2026-01-21", 10, 10, -30, 10)))
    batch = import_run.start(club, sheet.encode(), "old.csv", users["admin"])
    apply_plan(batch, import_run.plan_of(batch), users["admin"])
    session = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 4),
                                         house_rule_version=bmja_version)
    table = seat_table(session, 1, players)
    play_hands(table, users["scorer"], random.Random(4), 6)
    recorded = HandResult.objects.filter(member=alice)
    recorded_net = sum(r.net for r in recorded)

    stats = member_stats(alice)
    assert stats.nights.played == 4 and stats.nights.imported == 3
    assert stats.nights.net == 40 - 5 + 10 + recorded_net
    night = NightResult.objects.get(member=alice, table=table)
    want = {1: 1, 3: 1}  # 1st on 7 Jan; 3rd on 14 Jan; 1st= of three on 21 Jan
    want[1] += 1
    want[night.place] = want.get(night.place, 0) + 1
    assert dict(stats.nights.places) == want
    assert stats.hands == recorded.count() and stats.net == recorded_net
    # The season of the recorded night only: nothing imported in it.
    assert member_stats(alice, Span(start=dt.date(2026, 3, 1))).nights.imported == 0

    body = client_as("member").get(f"/clubs/{club.slug}/history/players/{alice.pk}/")
    body = body.content.decode()
    assert "Nights played: <strong>4</strong> (3 imported, entered as totals)" in body
    assert "3 imported nights have totals only" in body
    answer = admin_api.get(f"/api/v1/clubs/{club.slug}/members/{alice.pk}/history/").json()
    assert answer["nights"] == {"played": 4, "imported": 3, "net": stats.nights.net,
                                "places": [{"place": p, "nights": n}
                                           for p, n in sorted(want.items())]}
    assert answer["hands"] == recorded.count()
    # The rating reads the same per-night summary: the imported nights are rated too.
    from history import rating_store
    from history.models import ImportedTable, RatingLine

    rating_store.turn_on(club)
    imported = ImportedTable.objects.values("table_id")
    assert RatingLine.objects.filter(member=alice, table_id__in=imported).count() == 3
    assert RatingLine.objects.filter(member=alice).count() == 4


def test_the_wall_sources_are_defined_once_in_league_and_read_by_history():
    """history.stats counts hands won from the wall with the tuple league.summary's stored
    sums use (history depends on league): one definition, so the page's figure and the stored
    one cannot drift apart."""
    import ast

    from history import stats
    from league import summary

    assert stats.FROM_WALL is summary.FROM_WALL
    assert all(f"'{source}'" in summary.HISTORY_CASES["won_from_wall"]
               for source in summary.FROM_WALL)
    defined = [
        str(path.relative_to(REPO))
        for package in ("history", "league")
        for path in sorted((REPO / package).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Assign)
        and any(getattr(target, "id", None) == "FROM_WALL" for target in node.targets)
    ]
    assert defined == ["league/summary.py"]


def test_one_season_and_every_season_at_once_is_refused_saying_which_to_drop(
        client_as, admin_api, club, players, season):
    """``?season=N&all=true`` answered every season and said nothing: the API now answers 400
    with both field paths, the page a form error; either alone is still answered."""
    alice = players[0]
    api = f"/api/v1/clubs/{club.slug}/members/{alice.pk}/history/"
    both = admin_api.get(f"{api}?season={season.pk}&all=true")
    assert both.status_code == 400
    errors = both.json()
    assert set(errors) == {"season", "all"}
    assert "drop 'season' or 'all'" in errors["season"][0]
    assert admin_api.get(f"{api}?season={season.pk}&all=false").status_code == 200
    assert admin_api.get(f"{api}?season={season.pk}").status_code == 200
    assert admin_api.get(f"{api}?all=true").status_code == 200

    page = f"/clubs/{club.slug}/history/players/{alice.pk}/"
    member = client_as("member")
    refused = member.get(f"{page}?season={season.pk}&all=true")
    assert refused.status_code == 400
    assert "drop &#x27;all&#x27; from the address" in refused.content.decode()
    assert member.get(f"{page}?season={season.pk}").status_code == 200
    assert member.get(f"{page}?season=all&all=true").status_code == 200


def test_tied_best_hands_are_the_earliest_on_both_pages(client_as, club, players, users,
                                                        bmja_version, season):
    """Equal best scores: the league's player page and the player history name the same hand,
    the earliest (the earliest night, then the lower table number, then the lower hand number),
    over a season (stored rows) and every season (summed from the hands) alike. Before, the
    league page took a night's tied hands in the index's order and the history the later."""
    from league.queries import best_hand

    alice = players[0]
    first = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 4),
                                       house_rule_version=bmja_version)
    later = ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, 11),
                                       house_rule_version=bmja_version)

    def alice_wins(table, times):
        for _ in range(times):
            record_hand(table, {"winner": "E", "win_from": "discard", "discarder": "S",
                                "seats": {"E": {"score": 40}, "S": {"score": 0},
                                          "W": {"score": 0}, "N": {"score": 0}}},
                        users["scorer"])
            table.refresh_from_db()

    # Recorded out of order: the later night first, then table 2 before table 1.
    alice_wins(seat_table(later, 1, players), 1)
    alice_wins(seat_table(first, 2, players), 2)
    alice_wins(seat_table(first, 1, players), 3)
    # East keeps the deal on a win: alice is East for each of her wins.
    assert HandResult.objects.filter(member=alice, won=True, score=40).count() == 6
    best = best_hand(alice, season)
    assert (best.session.date, best.hand.table.number, best.hand.number) == (
        dt.date(2026, 3, 4), 1, 1)
    for span in (Span(season=season.pk), Span(every=True)):
        largest = member_stats(alice, span).largest
        assert (largest["date"], largest["table"], largest["hand"]) == (
            dt.date(2026, 3, 4), 1, 1), span

    league = client_as("member").get(
        f"/clubs/{club.slug}/league/{season.pk}/players/{alice.pk}/").content.decode()
    assert "Best hand: 40 (4 Mar 2026, hand 1)" in league
    history = client_as("member").get(
        f"/clubs/{club.slug}/history/players/{alice.pk}/?season={season.pk}").content.decode()
    assert "Largest hand: 40, 4 Mar 2026, table 1, hand 1" in history
