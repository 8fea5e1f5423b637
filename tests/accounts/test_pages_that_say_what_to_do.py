"""Issue #22: a 403 says who may do it and whom to ask; a 404 for a club's object says how to
get back; no page speaks the engines' or the API's language."""

from __future__ import annotations

from dataclasses import fields

import pytest

from clubs.models import Member
from clubs.plain_words import for_people
from compare.rule_diff import LABELS, SECTIONS
from scoring.engine import builtin_house_rules

pytestmark = pytest.mark.django_db


def test_a_403_names_the_role_and_whom_to_ask(client_as, club, users):
    Member.objects.create(club=club, display_name="Zoe", role="admin")
    page = client_as("member").get(f"/clubs/{club.slug}/invitations/")
    text = page.content.decode()
    assert page.status_code == 403
    assert "Only a club admin of Jade Dragon Club can do this." in text
    assert "You are a member of Jade Dragon Club." in text
    assert "ask Admin or Zoe (the club's admins)" in text
    assert f'href="/clubs/{club.slug}/"' in text


def test_a_404_in_a_club_says_how_to_get_back(client_as, club, club_session):
    page = client_as("scorer").get(f"/clubs/{club.slug}/sessions/{club_session.pk}/tables/999/")
    text = page.content.decode()
    assert page.status_code == 404
    assert "No such table at Jade Dragon Club" in text
    assert f'href="/clubs/{club.slug}/"' in text and "Back to Jade Dragon Club" in text


@pytest.mark.parametrize("role", ("outsider", "anonymous"))
def test_a_404_never_names_a_club_the_visitor_cannot_see(client_as, club, role):
    page = client_as(role).get(f"/clubs/{club.slug}/sessions/999/")
    text = page.content.decode()
    assert page.status_code == 404
    if role == "outsider":
        assert "Jade Dragon" not in text and "No club at this address" in text
        assert "Jade Dragon" not in client_as(role).get("/clubs/nowhere/").content.decode()


def test_an_api_address_that_does_not_exist_answers_json(client):
    answer = client.get("/api/v1/no-such-thing/")
    assert answer.status_code == 404 and "/api/v1/docs/" in answer.json()["detail"]


def test_the_engines_words_are_put_in_a_clubs_words():
    assert for_people("Corresponding flower (your own wind; line 920 says the prevailing)") \
        == "Corresponding flower (your own wind)"
    refusal = ('Not a valid Mah Jong under this house rule: these tiles make seven pairs, which '
               'none of its special hands accepts. Check the tiles, or send "mahjong": false.')
    assert for_people(refusal).endswith("or record this hand as not going Mah Jong.")
    short = ("This house rule does not count a losing hand with too few tiles (its switch "
             "count_short_losing_hands, 004 Sheet 30 item 1).")
    assert for_people(short) == ("This house rule does not count a losing hand with too few "
                                 "tiles.")


def test_every_rule_parameter_has_a_label_in_a_clubs_words():
    for rule in builtin_house_rules().values():
        for section, _title in SECTIONS:
            for f in fields(getattr(rule, section)):
                assert f"{section}.{f.name}" in LABELS, f"label {section}.{f.name} in compare"


def test_the_rules_page_shows_no_document_line_numbers(client):
    for rules in ("rules=bmja&rules=guide", "rules=guide&rules=bmja"):
        page = client.get(f"/compare/rules/?{rules}&everything=1").content.decode()
        assert "line 920" not in page and "count short losing hands" not in page
    assert "Corresponding flower (your own wind)" in page


def test_the_house_rules_pages_cite_no_files_or_lines(client_as, club):
    page = client_as("member").get(f"/clubs/{club.slug}/house-rules/").content.decode()
    guide = client_as("member").get(f"/clubs/{club.slug}/house-rules/guide/").content.decode()
    for text in (page, guide):
        assert ".txt" not in text and "line 920" not in text and "scoring.limit" not in text
    assert "The general guide to Mahjong. Only the player who goes Mahjong scores:" in guide


def test_a_descriptions_settings_are_named_in_words():
    from clubs.plain_words import description_for_people

    assert description_for_people("ordinary hands may pass the limit (switch "
                                  "special_or_ordinary_if_greater; four ...)") == (
        "ordinary hands may pass the limit (the setting “special or ordinary if greater”; "
        "four ...)")
    assert for_people("from the kong_box") == "from the kong_box"  # a value, not a setting


def test_the_record_pages_questions_not_the_apis_fields():
    assert for_people("A wall game has no winner and no discarder: leave them null, or set "
                      "draw to false.") == ("A wall game has no winner and no discarder: choose "
                                            "who went Mah Jong, or Wall game, not both.")
    assert for_people("A tile from the wall has no discarder: leave it null, or say the hand "
                      "was won on a discard.") == (
        "A tile from the wall has no discarder: leave “Who discarded” empty, or answer “On a "
        "discard”.")
