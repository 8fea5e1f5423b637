"""Issue #13, isolation: another club's private house rule is "unknown house rule" to an
outsider, worded exactly as a slug nobody has, on every path that names a house rule."""

from __future__ import annotations

import pytest

from houserules.resolve import (
    known_slugs,
    resolve_visible_house_rule,
    visible_house_rules,
)
from scoring.engine import UnknownHouseRule
from tests.hardening.conftest import PRIVATE
from tests.houserules.conftest import hand

DRAGONS = hand("chow b1, chow c5, chow d3, pung dr", "d7 d7", win="d7 discard")
SETTLE = {"rules": PRIVATE, "winner": "E", "discarder": "S",
          "hands": {"E": {"score": 40}, "S": {"score": 0}, "W": {"score": 0}, "N": {"score": 0}}}


def _same_words(first: dict, second: dict, slug_a: str, slug_b: str) -> bool:
    return str(first).replace(slug_a, "X") == str(second).replace(slug_b, "X")


@pytest.mark.parametrize("role", ["outsider", "anonymous"])
def test_an_outsider_cannot_score_under_a_private_rule(api_as, private_rule, role):
    private = api_as(role).post("/api/v1/score", {**DRAGONS, "rules": PRIVATE}, format="json")
    nobody = api_as(role).post("/api/v1/score", {**DRAGONS, "rules": "no-such"}, format="json")
    assert private.status_code == nobody.status_code == 400
    assert _same_words(private.json(), nobody.json(), PRIVATE, "no-such")


def test_a_member_scores_under_the_clubs_private_rule(api_as, private_rule):
    response = api_as("member").post("/api/v1/score", {**DRAGONS, "rules": PRIVATE},
                                     format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["points"] == 60


@pytest.mark.parametrize("role", ["outsider", "anonymous"])
def test_an_outsider_cannot_settle_under_a_private_rule(api_as, private_rule, role):
    private = api_as(role).post("/api/v1/settle", SETTLE, format="json")
    nobody = api_as(role).post("/api/v1/settle", {**SETTLE, "rules": "no-such"}, format="json")
    assert private.status_code == nobody.status_code == 400
    assert list(private.json()) == ["rules"]
    assert _same_words(private.json(), nobody.json(), PRIVATE, "no-such")
    assert api_as("scorer").post("/api/v1/settle", SETTLE, format="json").status_code == 200


def test_an_unknown_rule_lists_only_what_the_visitor_may_name(api_as, private_rule):
    body = api_as("anonymous").post("/api/v1/score", {**DRAGONS, "rules": "nope"},
                                    format="json").json()
    assert PRIVATE not in str(body)
    assert "bmja" in str(body)


def test_an_outsider_admin_cannot_copy_a_private_rule(api_as, private_rule, other_club):
    copy = {"club": other_club.slug, "slug": "far-copy", "name": "Far copy", "overrides": {}}
    private = api_as("outsider").post("/api/v1/house-rules/", {**copy, "base": PRIVATE},
                                      format="json")
    nobody = api_as("outsider").post("/api/v1/house-rules/", {**copy, "base": "no-such"},
                                     format="json")
    assert private.status_code == nobody.status_code == 400
    assert _same_words(private.json(), nobody.json(), PRIVATE, "no-such")
    assert not visible_house_rules(None).filter(slug="far-copy").exists()


def test_an_outsider_admin_cannot_name_a_private_rule_as_goulash_rule(api_as, private_rule,
                                                                      other_club):
    copy = {"club": other_club.slug, "base": "bmja", "slug": "far-copy", "name": "Far copy"}
    private = api_as("outsider").post(
        "/api/v1/house-rules/", {**copy, "overrides": {"goulash_rule": PRIVATE}}, format="json")
    nobody = api_as("outsider").post(
        "/api/v1/house-rules/", {**copy, "overrides": {"goulash_rule": "no-such"}},
        format="json")
    assert private.status_code == nobody.status_code == 400
    assert _same_words(private.json(), nobody.json(), PRIVATE, "no-such")


@pytest.mark.parametrize("role", ["outsider", "anonymous"])
def test_an_outsider_cannot_read_a_private_rule(api_as, private_rule, role):
    assert api_as(role).get(f"/api/v1/house-rules/{PRIVATE}/").status_code == 404
    listed = api_as(role).get("/api/v1/house-rules/").json()["results"]
    assert PRIVATE not in {row["slug"] for row in listed}


def test_a_published_clubs_rule_is_visible_to_anyone(club, users, private_rule):
    club.published = True
    club.save()
    assert resolve_visible_house_rule(PRIVATE, None).slug == PRIVATE
    assert PRIVATE in known_slugs(None)


def test_the_one_function_decides(users, private_rule):
    assert resolve_visible_house_rule(PRIVATE, users["member"]).slug == PRIVATE
    for viewer in (users["outsider"], None):
        with pytest.raises(UnknownHouseRule) as private:
            resolve_visible_house_rule(PRIVATE, viewer)
        with pytest.raises(UnknownHouseRule) as nobody:
            resolve_visible_house_rule("no-such", viewer)
        assert str(private.value).replace(PRIVATE, "X") == str(nobody.value).replace(
            "no-such", "X")


def test_a_session_cannot_tell_another_clubs_private_version_from_none(api_as, private_rule,
                                                                       other_club):
    version = private_rule.latest_version()
    body = {"club": other_club.slug, "date": "2026-12-01"}
    private = api_as("outsider").post("/api/v1/sessions/",
                                      {**body, "house_rule_version": version.pk}, format="json")
    nobody = api_as("outsider").post("/api/v1/sessions/",
                                     {**body, "house_rule_version": 999_999}, format="json")
    assert private.status_code == nobody.status_code == 400
    assert str(private.json()).replace(str(version.pk), "X") == str(nobody.json()).replace(
        "999999", "X")


def test_a_club_cannot_tell_another_clubs_private_rule_from_none(api_as, private_rule,
                                                                 other_club):
    url = f"/api/v1/clubs/{other_club.slug}/"
    private = api_as("outsider").patch(url, {"default_house_rule": private_rule.pk},
                                       format="json")
    nobody = api_as("outsider").patch(url, {"default_house_rule": 999_999}, format="json")
    assert private.status_code == nobody.status_code == 400
    assert str(private.json()).replace(str(private_rule.pk), "X") == str(
        nobody.json()).replace("999999", "X")
