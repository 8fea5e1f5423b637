"""Comparisons of recorded play: the API resource, its exports, the pages and who may see
them (issue #16 part 3)."""

from __future__ import annotations

import io

import openpyxl
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.models import Hand, Table
from compare.models import Comparison

RULES = ["bmja", "guide"]


def test_create_read_and_export(demo, demo_member_api):
    made = demo_member_api.post("/api/v1/comparisons/",
                                {"season": demo["season"].pk, "rules": RULES}, format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert body["status"] == "done" and body["tables_done"] == body["tables_total"] == 1
    assert [p["name"] for p in body["report"]["players"]]
    again = demo_member_api.get(f"/api/v1/comparisons/{body['id']}/").json()
    assert again["report"] == body["report"]
    csv = demo_member_api.get(f"/api/v1/comparisons/{body['id']}/export/?as=csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    text = b"".join(csv.streaming_content).decode()
    assert "bmja total" in text and "Carol Chen" in text
    xlsx = demo_member_api.get(f"/api/v1/comparisons/{body['id']}/export/?as=xlsx")
    book = openpyxl.load_workbook(io.BytesIO(b"".join(xlsx.streaming_content)))
    assert book.sheetnames[0] == "Players"
    bad = demo_member_api.get(f"/api/v1/comparisons/{body['id']}/export/?as=pdf")
    assert bad.status_code == 400 and "as" in bad.json()


def test_bad_requests_say_what_to_mend(demo, demo_member_api):
    missing = demo_member_api.post("/api/v1/comparisons/", {"season": 999999, "rules": RULES},
                                   format="json")
    assert missing.status_code == 400
    assert missing.json() == {"season": ["No such season, or not one you may see."]}
    nothing = demo_member_api.post("/api/v1/comparisons/", {"rules": RULES}, format="json")
    assert nothing.status_code == 400 and "scope" in nothing.json()
    dates = demo_member_api.post("/api/v1/comparisons/", {"club": "demo", "from": "2026-12-01",
                                                          "to": "2026-01-01", "rules": RULES},
                                 format="json")
    assert dates.status_code == 400 and "to" in dates.json()
    assert APIClient().post("/api/v1/comparisons/", {"season": demo["season"].pk,
                                                      "rules": RULES}, format="json"
                            ).status_code in (401, 403)


def test_a_private_clubs_play_and_comparisons_stay_private(demo, outsider_club, demo_member_api):
    demo["club"].published = False
    demo["club"].save()
    outsider = APIClient()
    outsider.force_authenticate(outsider_club["user"])
    refused = outsider.post("/api/v1/comparisons/", {"session": demo["session"].pk,
                                                     "rules": RULES}, format="json")
    assert refused.status_code == 400
    made = demo_member_api.post("/api/v1/comparisons/", {"session": demo["session"].pk,
                                                         "rules": RULES}, format="json").json()
    assert outsider.get(f"/api/v1/comparisons/{made['id']}/").status_code == 404
    assert outsider.get("/api/v1/comparisons/").json()["results"] == []
    # A member may not name the outsider's private rule either.
    hidden = demo_member_api.post("/api/v1/comparisons/", {"session": demo["session"].pk,
                                                           "rules": ["bmja", "far-secret"]},
                                  format="json")
    assert hidden.status_code == 400 and "far-secret" in hidden.json()["rules"]["1"][0]


def test_the_report_page(client, demo, demo_scorer):
    client.force_login(demo_scorer)
    start = client.post("/clubs/demo/compare/", {"season": demo["season"].pk,
                                                  "rules": ["bmja", "guide"]})
    assert start.status_code == 302
    page = client.get(start["Location"])
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="compare-players"' in text and "Carol Chen" in text
    assert "How the replay reads what was recorded" in text
    assert "3 hands were rescored from tiles" in text
    assert "Download" in text
    comparison = Comparison.objects.get()
    csv = client.get(f"/compare/{comparison.pk}/export/csv/")
    assert csv.status_code == 200
    assert client.get(f"/compare/{comparison.pk}/export/doc/").status_code == 400


def test_the_form_says_what_is_missing(client, demo, demo_scorer):
    client.force_login(demo_scorer)
    answer = client.post("/clubs/demo/compare/", {"rules": ["bmja", "guide"]})
    assert answer.status_code == 400
    assert "Choose one of: a season, a club night" in answer.content.decode()


def test_a_running_comparison_shows_its_progress(client, demo, demo_scorer):
    from compare import runs
    from compare.rule_choice import chosen_rules
    from compare.scope import resolve_scope

    scope = resolve_scope({"session": demo["session"].pk}, demo_scorer)
    comparison = runs.start(scope, chosen_rules(RULES, demo_scorer), demo_scorer, background=True,
                            shared=True)
    text = client.get(f"/compare/{comparison.pk}/").content.decode()
    assert '<progress max="1" value="0"' in text and "0 of 1 tables" in text


def test_a_recorded_hand_under_other_rules(client, demo):
    hand = Hand.objects.get(table=demo["table"], number=1)  # Sheet 19 hand 1, tiles
    url = (f"/clubs/demo/sessions/{demo['session'].pk}/tables/{demo['table'].pk}/hands/"
           f"{hand.pk}/compare/")
    page = client.get(url + "?rules=bmja&rules=guide&rules=balsall-common")
    assert page.status_code == 200
    text = page.content.decode()
    assert "864" in text and "2000" in text
    table_page = client.get(f"/clubs/demo/sessions/{demo['session'].pk}/tables/{demo['table'].pk}/")
    assert url in table_page.content.decode()
    assert client.get(url + "?rules=nope").status_code == 400


def test_the_preview_compares_the_hand_being_entered(client, demo):
    """The record page's "compare with..." posts the hand being entered; nothing is saved."""
    from clubs.recording import next_hand_of

    client.force_login(get_user_model().objects.get(username="demo-scorer"))
    table = demo["table"]
    record = f"/clubs/demo/sessions/{demo['session'].pk}/tables/{table.pk}/record/"
    number, seating, _, _ = next_hand_of(table)
    by_wind = seating.seat_ids
    data = {"expected_number": str(number), "winner": str(by_wind["E"]), "win_source": "wall",
            "discarder": "", "compare_rules": ["bmja", "guide"]}
    for wind, score in zip("ESWN", (100, 10, 20, 30), strict=True):
        data.update({f"seat{by_wind[wind]}-mode": "quick", f"seat{by_wind[wind]}-score": str(score)})
    preview = client.post(record, {**data, "action": "preview"})
    assert preview.status_code == 200
    assert "record/compare/" in preview.content.decode()
    hands = Hand.objects.count()
    answer = client.post(record + "compare/", data)
    assert answer.status_code == 200, answer.content.decode()[:2000]
    text = answer.content.decode()
    assert 'id="rule-bmja"' in text and 'id="rule-guide"' in text
    assert Hand.objects.count() == hands
    assert client.post(record + "compare/", {}).status_code == 400


def _rows(text: str, title: str) -> list[list[str]]:
    """One titled block of a CSV download with several blocks."""
    import csv as csv_module

    blocks = text.split("\n\n")
    block = next(b for b in blocks if b.startswith(title))
    return list(csv_module.reader(io.StringIO(block)))[1:]


def test_the_downloads_name_tables_by_their_number_and_leave_unfit_rules_empty(client, demo,
                                                                            demo_scorer):
    """Issue #25: CSV, XLSX and JSON say "table 3" as the night's pages do, never the
    database id, and a rule that does not fit the table has empty cells, not 0 and place 1."""
    import json

    Table.objects.filter(pk=demo["table"].pk).update(number=3)
    client.force_login(demo_scorer)
    start = client.post("/clubs/demo/compare/", {"session": demo["session"].pk,
                                                  "rules": ["bmja", "bmja-3-players",
                                                            "west-wind-goulash"]})
    comparison = Comparison.objects.get()
    page = client.get(start["Location"]).content.decode()
    assert "Table 3 under bmja-3-players" in page
    assert "this rule fits none of the tables compared" in page
    text = b"".join(client.get(f"/compare/{comparison.pk}/export/csv/").streaming_content)
    text = text.decode()
    players = _rows(text, "Players")
    assert players[0][0] == "player"
    assert all(row[5:8] == ["", "", ""] for row in players[1:])  # bmja-3-players: empty
    changes = _rows(text, "Hands that change most")
    assert changes[1:] and {row[1] for row in changes[1:]} == {"3"}
    invalid = _rows(text, "Not valid under a rule")
    assert invalid[1:] and {row[1] for row in invalid[1:]} == {"3"}
    unfit = _rows(text, "Tables a rule does not fit")
    assert unfit[1][:3] == [str(comparison.report["refused"][0]["date"]), "3", "bmja-3-players"]
    assert "Table 3 had 4" in unfit[1][3]
    data = json.loads(b"".join(
        client.get(f"/compare/{comparison.pk}/export/json/").streaming_content))
    assert {c["table"] for c in data["Hands that change most"]} == {3}
    assert all(p["bmja-3-players total"] is None and p["bmja-3-players place"] is None
               for p in data["Players"])
    book = openpyxl.load_workbook(io.BytesIO(b"".join(
        client.get(f"/compare/{comparison.pk}/export/xlsx/").streaming_content)))
    sheet = book["Hands that change most"]
    assert {row[1] for row in sheet.iter_rows(min_row=2, values_only=True)} == {3}


def test_the_compare_form_says_two_to_eight_rules_first(client, demo, demo_scorer):
    client.force_login(demo_scorer)
    form = client.get("/clubs/demo/compare/").content.decode()
    assert "Tick 2 to 8 house rules" in form
    one = client.post("/clubs/demo/compare/", {"session": demo["session"].pk, "rules": ["bmja"]})
    assert one.status_code == 400 and "you ticked 1" in one.content.decode()
    assert not Comparison.objects.exists()


def test_the_rules_to_tick_are_named_as_everywhere_else(client, demo, demo_scorer):
    """QA phone pass (26 Nov 2026): the "What if" page and "Compare the rules" listed the rules
    to tick by their short names ("bmja-west-wind", "demo-bmja-2"), where starting a night and
    the house rules page name them ("BMJA (British Mah Jong Association, U3A course)", the
    club's own "Our Tuesday rules"): the secretary could not tell which was the club's."""
    import re

    from houserules.copies import create_copy

    create_copy(demo["club"], "bmja", "demo-bmja-2", "Our Tuesday rules")
    client.force_login(demo_scorer)
    for page in ("/clubs/demo/compare/", "/compare/rules/"):
        html = client.get(page).content.decode()
        labels = dict(re.findall(r'value="([^"]+)"[^>]*>\s*([^<]+?)\s*</label>', html))
        assert labels["demo-bmja-2"] == "Our Tuesday rules", (page, labels)
        assert labels["bmja"] == "BMJA (British Mah Jong Association, U3A course)", page
