"""Importing past seasons from a spreadsheet: a sheet of three seasons with the mistakes clubs
make (a misspelt name, a night that does not add up, two date formats and one unreadable
date) goes through the dry run with every mistake reported, then in, then undone."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils.html import escape
from openpyxl import Workbook

from clubs.models import ClubSession, Member, Season
from history import import_run
from history.import_write import ImportRefused, apply_plan, undo
from history.models import ImportBatch, ImportedTotal
from history.names import match_names
from league.models import NightResult
from league.queries import standings
from league.ranking import PRESETS

HEAD = "Date,Table,Player,Net\n"


def night(date, table, results):
    return "".join(f"{date},{table},{name},{net}\n" for name, net in results)


def three_seasons() -> str:
    """Nine nights over three seasons, ISO dates in 2023, British dd/mm/yyyy later."""
    rows = HEAD
    rows += night("2023-02-01", 1, [("Alice", 40), ("Bob", -10), ("Carol", -10), ("David", -20)])
    rows += night("2023-03-01", 1, [("Alice", -5), ("Bob", 25), ("Carol", 0), ("David", -20)])
    rows += night("2023-04-05", 1, [("Alice", 10), ("Bob", 10), ("Carol", -30), ("David", 10)])
    # 2024: day-first dates; one misspelt name; one night that does not add up.
    rows += night("07/02/2024", 1, [("Alice", 12), ("Bbo", -4), ("Carol", -4), ("David", -4)])
    rows += night("06/03/2024", 1, [("Alice", 12), ("Bob", 4), ("Carol", -4), ("David", -4)])
    rows += night("03/04/2024", 1, [("Alice", -8), ("Bob", 8), ("Carol", 0), ("David", 0)])
    rows += night("03/04/2024", 2, [("Edith", 30), ("Frank", -15), ("Grace Visitor", -15)])
    # 2025: one row's date cannot be read, which refuses its table.
    rows += night("05/02/2025", 1, [("Alice", 3), ("Bob", -1), ("Carol", -1), ("David", -1)])
    rows += "05-Febr-2025,2,Edith,6\n"
    rows += night("05/02/2025", 2, [("Frank", -3), ("Grace Visitor", -3)])
    rows += night("2025-03-05", 1, [("Alice", 0), ("Bob", 0), ("Carol", 0), ("David", 0)])
    return rows


@pytest.fixture
def seasons(club):
    return [Season.objects.create(club=club, name=str(y), start=dt.date(y, 1, 1),
                                  end=dt.date(y, 12, 31)) for y in (2023, 2024, 2025)]


@pytest.fixture
def people(club):
    return {n: Member.objects.create(club=club, display_name=n)
            for n in ("Alice", "Bob", "Carol", "David", "Edith", "Frank")}


def test_names_match_exactly_suggest_or_not(people):
    members = {m.pk: m.display_name for m in people.values()}
    found = match_names(["alice ", "Bbo", "Grace Visitor", "A. Lice"], members)
    assert found["alice "].exact == people["Alice"].pk
    assert found["Bbo"].suggestion == people["Bob"].pk and found["Bbo"].exact is None
    assert found["Grace Visitor"].suggestion is None and found["Grace Visitor"].exact is None


def test_three_seasons_dry_run_in_and_undone(club, seasons, people, users):
    batch = import_run.start(club, three_seasons().encode(), "three-seasons.csv", users["admin"])
    assert batch.mapping["columns"] == {"date": "Date", "table": "Table", "player": "Player",
                                        "net": "Net"}
    plan = import_run.plan_of(batch)
    # Every mistake is reported before anything is written.
    assert plan.needs_choice == ["Bbo", "Grace Visitor"]
    bbo = next(n for n in plan.names if n.name == "Bbo")
    assert bbo.match.suggestion == people["Bob"].pk
    reasons = dict(plan.refusals)
    assert "the night of 7 Feb 2024 at table 1 sums to +0" not in reasons.values()
    assert any("the night of 6 Mar 2024 at table 1 sums to +8, not 0" in r
               for r in reasons.values()), reasons
    assert reasons["lines 18-21"] == "the night of 6 Mar 2024 at table 1 sums to +8, not 0"
    assert "is not a date format this import reads" in reasons["line 33"]
    # Its night cannot be known, so its table is short of it and does not add up either.
    assert reasons["lines 34-35"] == "the night of 5 Feb 2025 at table 2 sums to -6, not 0"
    fates = {line: (fate, words) for line, fate, words in plan.fates}
    assert len(fates) == 38  # every row of the sheet has a fate
    assert fates[2] == ("ok", "1 Feb 2023, table 1: Alice (member), night's net +40")
    assert fates[18][0] == "refused" and fates[33][0] == "refused"
    assert fates[34][0] == "refused"  # Frank at the table the unreadable row belonged to
    assert "(choose: suggested Bob)" in fates[15][1]
    assert ClubSession.objects.filter(club=club).count() == 0  # a dry run writes nothing

    with pytest.raises(ImportRefused, match="Choose for 2 name"):
        apply_plan(batch, plan)
    batch.choices = {"Bbo": f"member:{people['Bob'].pk}", "Grace Visitor": "guest"}
    batch.save()
    plan = import_run.plan_of(batch)
    with pytest.raises(ImportRefused, match="refused: mend the sheet"):
        apply_plan(batch, plan)
    assert ClubSession.objects.filter(club=club).count() == 0
    made = apply_plan(batch, plan, users["admin"], skip_refused=True)
    # 8 nights less the one that did not add up; 2025's second table is refused, its first in.
    assert made == {"sessions": 7, "tables": 8, "player_nights": 31}
    sessions = ClubSession.objects.filter(club=club)
    assert {s.season.name for s in sessions} == {"2023", "2024", "2025"}
    assert all(s.status == "closed" and "totals, not hands" in s.notes for s in sessions)
    # Standings count the imported nights: 2023 summed by hand here.
    table = standings(PRESETS["net"][1], season=seasons[0])
    nets = {row.name: row.net for row in table.rows()}
    assert nets == {"Alice": 45, "Bob": 25, "Carol": -40, "David": -30}
    bob_2024 = NightResult.objects.filter(member=people["Bob"], season=seasons[1], counted=True)
    assert sorted(n.net for n in bob_2024) == [-4, 8]  # "Bbo" came in as Bob
    guest = NightResult.objects.get(guest_name="Grace Visitor", date=dt.date(2024, 4, 3))
    assert (guest.net, guest.place, guest.table_number) == (-15, 2, 2)
    assert guest.tied == 2 and guest.points_zero == 1.5  # 2nd= with Frank: (2 + 1) / 2
    # The same file again is refused while the import stands.
    again = import_run.start(club, three_seasons().encode(), "three-seasons.csv")
    again.choices = batch.choices
    again.save()
    with pytest.raises(ImportRefused):
        apply_plan(again, import_run.plan_of(again), skip_refused=True)

    counts = undo(ImportBatch.objects.get(pk=batch.pk))
    assert counts == {"sessions": 7, "members": 0, "seasons": 0}
    assert not ClubSession.objects.filter(club=club).exists()
    assert not NightResult.objects.filter(club=club).exists()
    assert not ImportedTotal.objects.exists()
    assert ImportBatch.objects.get(pk=batch.pk).status == "undone"
    with pytest.raises(ImportRefused, match="only an applied import"):
        undo(ImportBatch.objects.get(pk=batch.pk))


def test_seasons_and_members_made_by_an_import_go_with_its_undo(club, people):
    sheet = ("Season,Date,Player,Net\n"
             "Winter 2022,3 Nov 2022,Alice,10\nWinter 2022,3 Nov 2022,Zoe New,-10\n")
    batch = import_run.start(club, sheet.encode(), "old.csv")
    batch.choices = {"Zoe New": "new"}
    batch.save()
    made = apply_plan(batch, import_run.plan_of(batch))
    assert made["sessions"] == 1
    season = Season.objects.get(club=club, name="Winter 2022")
    assert (season.start, season.end) == (dt.date(2022, 11, 3), dt.date(2022, 11, 3))
    assert Member.objects.filter(club=club, display_name="Zoe New").exists()
    assert undo(batch) == {"sessions": 1, "members": 1, "seasons": 1}
    assert not Member.objects.filter(club=club, display_name="Zoe New").exists()
    assert not Season.objects.filter(club=club, name="Winter 2022").exists()


def test_a_night_outside_the_season_it_names_is_refused(club, seasons, people):
    sheet = "Season,Date,Player,Net\n2023,5 Jan 2024,Alice,10\n2023,5 Jan 2024,Bob,-10\n"
    plan = import_run.plan_of(import_run.start(club, sheet.encode(), "x.csv"))
    assert dict(plan.refusals) == {"lines 2-3": "the night of 5 Jan 2024 is outside the season "
                                                "2023 (1 Jan 2023 to 31 Dec 2023)"}


def test_hands_per_row_and_xlsx(club, people):
    """One row per player per hand, read from XLSX with real date cells: each hand must sum
    to zero, and the night's totals and best score come from the hands."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Night", "Hand", "Name", "Net", "Score"])
    for hand, nets in enumerate([(30, -10, -10, -10), (-4, 12, -4, -4), (0, 0, 0, 0)], 1):
        for name, net in zip(("Alice", "Bob", "Carol", "David"), nets, strict=True):
            sheet.append([dt.datetime(2024, 5, 1, 19, 30), hand, name, net,
                          max(net, 0) * 2 or None])
    for name, net in zip(("Alice", "Bob", "Carol", "David"), (5, 5, -5, -4), strict=True):
        sheet.append([dt.datetime(2024, 5, 8), 1, name, net, None])
    data = io.BytesIO()
    book.save(data)
    batch = import_run.start(club, data.getvalue(), "hands.xlsx")
    assert batch.mapping["columns"]["hand"] == "Hand"
    plan = import_run.plan_of(batch)
    assert plan.per_hand and plan.needs_choice == []
    assert dict(plan.refusals) == {
        "lines 14-17": "hand 1 of the night of 8 May 2024 at table 1 sums to +1, not 0"}
    apply_plan(batch, plan, skip_refused=True)
    alice = NightResult.objects.get(member=people["Alice"])
    assert (alice.net, alice.hands, alice.best_score, alice.place) == (26, 3, 60, 1)


def test_the_command_dry_run_import_and_undo(club, seasons, people, tmp_path, capsys):
    path = tmp_path / "three.csv"
    path.write_text(three_seasons())
    call_command("import_results", str(path), "--club", club.slug, "--dry-run")
    out = capsys.readouterr().out
    assert "Bbo (1 rows): CHOOSE (suggested: Bob" in out
    assert "line 18: REFUSED: the night of 6 Mar 2024 at table 1 sums to +8, not 0" in out
    assert "Dry run: nothing was written." in out
    assert not ClubSession.objects.exists() and not ImportBatch.objects.exists()
    with pytest.raises(CommandError, match="Choose for 2 name"):
        call_command("import_results", str(path), "--club", club.slug)
    with pytest.raises(CommandError, match="refused"):
        call_command("import_results", str(path), "--club", club.slug,
                     "--name", "Bbo=Bob", "--unmatched", "guest")
    call_command("import_results", str(path), "--club", club.slug, "--name", "Bbo=Bob",
                 "--unmatched", "guest", "--skip-refused")
    batch = ImportBatch.objects.get(status="applied")
    assert ClubSession.objects.filter(club=club).count() == 7
    call_command("import_results", "--undo", str(batch.pk))
    assert not ClubSession.objects.exists()
    with pytest.raises(CommandError, match="no column 'Points'"):
        call_command("import_results", str(path), "--club", club.slug, "--net", "Points")
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(CommandError, match="not an XLSX workbook"):
        call_command("import_results", str(bad), "--club", club.slug)


@pytest.mark.parametrize("role, status", [("anonymous", 404), ("outsider", 404),
                                          ("member", 403), ("scorer", 403), ("admin", 200)])
def test_the_import_page_is_for_club_admins(client_as, club, role, status):
    assert client_as(role).get(f"/clubs/{club.slug}/history/imports/").status_code == status


def test_the_import_pages_upload_choose_import_undo(client_as, club, seasons, people):
    client = client_as("admin")
    upload = io.BytesIO(three_seasons().encode())
    upload.name = "three.csv"
    answer = client.post(f"/clubs/{club.slug}/history/imports/", {"file": upload})
    batch = ImportBatch.objects.get()
    assert answer.status_code == 302 and answer.url.endswith(f"/imports/{batch.pk}/")
    page = client.get(answer.url).content.decode()
    assert "sums to +8, not 0" in page and "suggested: Bob" in page
    assert "is not a date format" in page
    form = {"map-date": "Date", "map-table": "Table", "map-player": "Player", "map-net": "Net",
            "map-day_first": "on", "name:Bbo": f"member:{people['Bob'].pk}",
            "name:Grace Visitor": "guest", "action": "import"}
    answer = client.post(f"/clubs/{club.slug}/history/imports/{batch.pk}/", form, follow=True)
    assert "Nothing was written" in answer.content.decode()
    answer = client.post(f"/clubs/{club.slug}/history/imports/{batch.pk}/",
                         {**form, "skip_refused": "1"}, follow=True)
    assert "Imported 7 nights" in answer.content.decode()
    assert ClubSession.objects.filter(club=club).count() == 7
    listed = client.get(f"/clubs/{club.slug}/history/imports/").content.decode()
    assert f"import {batch.pk}, imported " in listed and "7 nights, 31 player-nights" in listed
    answer = client.post(f"/clubs/{club.slug}/history/imports/{batch.pk}/undo/", follow=True)
    assert "undone" in answer.content.decode()
    assert not ClubSession.objects.exists()
    # The list says when it was imported and when undone (it said "undone <the import's
    # time>: ...; undone <date>"), found undoing an import through the page.
    listed = client.get(f"/clubs/{club.slug}/history/imports/").content.decode()
    batch.refresh_from_db()
    assert (f"import {batch.pk}, imported {batch.applied:%-d %b %Y %H:%M}: 7 nights, "
            f"31 player-nights; undone {batch.undone:%-d %b %Y %H:%M}") in listed
    bad = io.BytesIO(b"\x00\x01binary")
    bad.name = "x.csv"
    answer = client.post(f"/clubs/{club.slug}/history/imports/", {"file": bad})
    assert answer.status_code == 400 and "not a CSV text file" in answer.content.decode()


def test_comparisons_leave_imported_nights_out(club, seasons, people, users, bmja_version):
    """Imported nights have totals, not hands: a rule comparison of their season replays only
    the recorded tables, and says nothing of the imported ones."""
    from compare.scope import resolve_scope
    from tests.league.conftest import play_hands, seat_table

    batch = import_run.start(club, three_seasons().encode(), "three.csv")
    batch.choices = {"Bbo": "guest", "Grace Visitor": "guest"}
    batch.save()
    apply_plan(batch, import_run.plan_of(batch), skip_refused=True)
    assert resolve_scope({"season": seasons[0].pk}, users["admin"]).tables == []
    played = ClubSession.objects.create(club=club, season=seasons[0], date=dt.date(2023, 6, 7),
                                        house_rule_version=bmja_version)
    table = seat_table(played, 1, list(people.values())[:4])
    import random

    play_hands(table, users["scorer"], random.Random(3), 4)
    assert resolve_scope({"season": seasons[0].pk}, users["admin"]).tables == [table.pk]


def test_refresh_league_keeps_imported_nights(club, seasons, people):
    from django.core.management import call_command as run

    batch = import_run.start(club, three_seasons().encode(), "three.csv")
    batch.choices = {"Bbo": "guest", "Grace Visitor": "guest"}
    batch.save()
    apply_plan(batch, import_run.plan_of(batch), skip_refused=True)
    before = sorted(NightResult.objects.values_list("seat_id", "net", "place", "counted"))
    run("refresh_league", stdout=io.StringIO())
    assert sorted(NightResult.objects.values_list("seat_id", "net", "place", "counted")) == before


def test_an_imported_guest_made_a_member_later(club, seasons, people, users):
    """The clubs app's own move makes an imported guest a member: their imported nights, with
    their nets, are the member's; the rating is marked to recompute from the first."""
    from clubs.members.merge import guest_to_member
    from history import rating_store
    from history.models import RatingLine, RatingSettings

    rating_store.turn_on(club)
    batch = import_run.start(club, three_seasons().encode(), "three.csv")
    batch.choices = {"Bbo": f"member:{people['Bob'].pk}", "Grace Visitor": "guest"}
    batch.save()
    apply_plan(batch, import_run.plan_of(batch), skip_refused=True)
    rating_store.ensure_fresh(club)
    move = guest_to_member(club, "Grace Visitor", None, user=users["admin"])
    grace = move.member
    assert sorted(NightResult.objects.filter(member=grace).values_list("net", flat=True)) == [-15]
    assert RatingSettings.objects.get(club=club).stale_from == dt.date(2024, 4, 3)
    rating_store.ensure_fresh(club)
    assert RatingLine.objects.filter(member=grace).count() == 1
    assert ImportedTotal.objects.filter(seat__member=grace).get().net == -15


def test_numbers_past_what_a_night_holds_and_days_that_do_not_exist(client_as, club, people):
    """Found importing a small sheet through the page: 99999999999999999999 against
    -99999999999999999999 summed to 0, passed the dry run, and Import was a 500 (too large for
    SQLite's INTEGER); '31/02/2025' was called 'not a date format this import reads', though
    it is written as one."""
    sheet = (HEAD + night("2025-04-01", 1, [("Alice", 99999999999999999999),
                                            ("Bob", -99999999999999999999)])
             + night("31/02/2025", 1, [("Carol", 5), ("David", -5)])
             + night("2025-04-08", 1, [("Alice", "1e300"), ("Bob", "-1e300")]))
    plan = import_run.plan_of(import_run.start(club, sheet.encode(), "huge.csv"))
    reasons = dict(plan.refusals)
    assert reasons["line 2"] == ("the net '99999999999999999999' is not a whole number from "
                                 "-1,000,000,000 to 1,000,000,000")
    assert reasons["line 4"] == ("'31/02/2025' is not a day of the calendar (that month is "
                                 "shorter): mend the day or the month")
    assert "line 6" in reasons and "line 7" in reasons
    assert not [f for f in plan.fates if f[1] == "ok"]
    # Hands each within bounds that add up, over a night, past what a night may hold.
    per_hand = "Date,Hand,Player,Net\n" + "".join(
        f"2025-05-06,{h},{name},{net}\n" for h in (1, 2, 3)
        for name, net in (("Alice", 900_000_000), ("Bob", -900_000_000)))
    plan = import_run.plan_of(import_run.start(club, per_hand.encode(), "hands.csv"))
    assert dict(plan.refusals) == {"lines 2-7": (
        "a player's net at the night of 6 May 2025 at table 1 comes to 2,700,000,000 either "
        "way, past the 1,000,000,000 a night may hold")}
    # Through the page: refused in words, never a 500.
    admin = client_as("admin")
    batch = import_run.start(club, sheet.encode(), "huge.csv")
    answer = admin.post(f"/clubs/{club.slug}/history/imports/{batch.pk}/", {
        "map-date": "Date", "map-table": "Table", "map-player": "Player", "map-net": "Net",
        "map-day_first": "on", "action": "import", "skip_refused": "on"})
    assert answer.status_code in (200, 302)
    assert ClubSession.objects.filter(club=club).count() == 0


def test_a_nights_score_column_is_taken_for_the_net(club, people):
    """A sheet headed Date, Table, Player, Score (one row a player a night): its Score was
    guessed as the optional hand score and the required net left unmapped, so the dry run
    refused every row until the secretary swapped them (found importing through the page).
    With a hand column, Score stays the hand's score."""
    from history.import_plan import guess_mapping

    assert guess_mapping(["Date", "Table", "Player", "Score"]) == {
        "date": "Date", "table": "Table", "player": "Player", "net": "Score"}
    assert guess_mapping(["Date", "Hand", "Player", "Net", "Score"])["score"] == "Score"
    assert "net" not in guess_mapping(["Date", "Hand", "Player", "Score"])
    sheet = "Date,Table,Player,Score\n" + night("2025-03-06", 1, [("Alice", 12), ("Bob", -12)])
    plan = import_run.plan_of(import_run.start(club, sheet.encode(), "scores.csv"))
    assert plan.refusals == [] and [f[1] for f in plan.fates] == ["ok", "ok"]


def test_nights_no_season_holds_are_said_in_the_dry_run(client_as, club, people, capsys,
                                                        tmp_path):
    # Found in QA (issue #26): a sheet of three past seasons without a Season column, for a
    # club whose seasons start this year, went in with every night in no season (so in no
    # season's standings) and the dry run never said so.
    Season.objects.create(club=club, name="2024", start=dt.date(2024, 1, 1),
                          end=dt.date(2024, 12, 31))
    batch = import_run.start(club, three_seasons().encode(), "three.csv")
    said = ("5 nights fall in no season: in the all-time standings, the statistics and the "
            "rating, but in no season's standings. Make the seasons first, or give the sheet a "
            "Season column.")
    assert import_run.plan_of(batch).no_season_words() == said
    page = client_as("admin").get(f"/clubs/{club.slug}/history/imports/{batch.pk}/")
    assert escape(said) in page.content.decode()
    sheet = tmp_path / "three.csv"
    sheet.write_text(three_seasons())
    call_command("import_results", str(sheet), "--club", club.slug, "--dry-run")
    assert said in capsys.readouterr().out
    Season.objects.create(club=club, name="2023", start=dt.date(2023, 1, 1),
                          end=dt.date(2023, 12, 31))
    Season.objects.create(club=club, name="2025", start=dt.date(2025, 1, 1),
                          end=dt.date(2025, 12, 31))
    assert import_run.plan_of(batch).no_season_words() == ""
