"""Comparisons that cannot be abused (issue #21): each person and club a bounded share of the
workers (a 429 or a form error past it), large work only in the background, only the club's
members start comparisons of its play, the public sees what the club chose to show, and the
workers take turns between people instead of serving a flood first."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.house_rule_copies import create_copy
from clubs.models import Member, MemberRole
from compare import runs
from compare.models import Comparison
from compare.rule_choice import chosen_rules
from compare.scope import resolve_scope
from tests.compare.factory import make_nights

RULES = ["bmja", "guide"]


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _post(client, body):
    return client.post("/api/v1/comparisons/", {"rules": RULES, **body}, format="json")


def _queued(scope_spec, user, **kwargs):
    return runs.start(resolve_scope(scope_spec, user), chosen_rules(RULES, user), user,
                      background=True, **kwargs)


@pytest.fixture
def admin_user(demo):
    return get_user_model().objects.get(username="demo-admin")


@pytest.fixture
def stranger(db, demo):
    """Signed in, a member of another club, nothing to do with the demo club (published)."""
    user = get_user_model().objects.create_user("stranger", password="x")
    assert demo["club"].published
    return user


def test_a_person_has_a_bounded_share_then_a_429_with_a_sentence(demo, demo_scorer, settings):
    settings.COMPARE_USER_LIMIT = 2
    client = _api(demo_scorer)
    for _ in range(2):
        assert _post(client, {"session": demo["session"].pk, "background": True}
                     ).status_code == 201
    refused = _post(client, {"session": demo["session"].pk, "background": True})
    assert refused.status_code == 429
    assert refused["Retry-After"]
    assert refused.json() == {"detail": (
        "You already have 2 comparisons running or queued, the most one person may have at "
        "once (2): start this one when one of them has finished.")}
    assert Comparison.objects.count() == 2
    # A finished one frees its place.
    Comparison.objects.filter(pk=Comparison.objects.first().pk).update(status=Comparison.DONE)
    assert _post(client, {"session": demo["session"].pk, "background": True}).status_code == 201


def test_a_club_has_a_bounded_share(demo, demo_scorer, admin_user, settings):
    settings.COMPARE_CLUB_LIMIT = 1
    assert _post(_api(demo_scorer), {"session": demo["session"].pk, "background": True}
                 ).status_code == 201
    refused = _post(_api(admin_user), {"session": demo["session"].pk, "background": True})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith(
        "Demo Mah-Jong Club already has 1 comparison running or queued, the most one club may "
        "have at once (1)")


def test_the_page_says_so_as_a_form_error(client, demo, demo_scorer, settings):
    settings.COMPARE_USER_LIMIT = 1
    _queued({"session": demo["session"].pk}, demo_scorer)
    client.force_login(demo_scorer)
    page = client.post("/clubs/demo/compare/", {"session": demo["session"].pk, "rules": RULES})
    assert page.status_code == 429
    assert "You already have 1 comparison running or queued" in page.content.decode()
    assert Comparison.objects.count() == 1


def test_large_work_runs_only_in_the_background(demo, demo_scorer, settings):
    settings.COMPARE_INLINE_LIMIT = 10  # the demo night is 12 hands: 24 hand-replays
    client = _api(demo_scorer)
    refused = _post(client, {"session": demo["session"].pk, "background": False})
    assert refused.status_code == 400
    assert refused.json() == {"background": [
        "This comparison is 24 hand-replays (12 hands under 2 rules); above 10 a comparison "
        "runs only on the background workers, so leave background out (or send true) and "
        "follow its progress."]}
    assert not Comparison.objects.exists()
    queued = _post(client, {"session": demo["session"].pk})
    assert queued.status_code == 201 and queued.json()["status"] == "running"
    assert queued.json()["report"] is None  # not run inside the request


def test_only_the_clubs_members_start_or_restart_its_comparisons(client, demo, demo_scorer,
                                                                  stranger):
    refused = _post(_api(stranger), {"session": demo["session"].pk})
    assert refused.status_code == 403
    assert refused.json() == {"detail": "Only Demo Mah-Jong Club's members start comparisons "
                                        "of its play; you may read the comparisons it shows."}
    shown = _queued({"session": demo["session"].pk}, demo_scorer, shared=True)
    assert _api(stranger).post(f"/api/v1/comparisons/{shown.pk}/resume/").status_code == 403
    client.force_login(stranger)
    page = client.post("/clubs/demo/compare/", {"session": demo["session"].pk, "rules": RULES})
    assert page.status_code == 403
    assert "Only Demo Mah-Jong Club&#x27;s members start comparisons" in page.content.decode()
    assert client.post(f"/compare/{shown.pk}/resume/").status_code == 403
    assert Comparison.objects.count() == 1
    assert 'id="compare-form"' not in client.get("/clubs/demo/compare/").content.decode()


def test_the_public_sees_only_what_the_club_chose_to_show(client, demo, demo_scorer, stranger):
    hidden = _queued({"session": demo["session"].pk}, demo_scorer)
    shown = _queued({"session": demo["session"].pk}, demo_scorer, shared=True)
    for viewer in (APIClient(), _api(stranger)):
        listed = [c["id"] for c in viewer.get("/api/v1/comparisons/").json()["results"]]
        assert listed == [str(shown.pk)]
        assert viewer.get(f"/api/v1/comparisons/{hidden.pk}/").status_code == 404
        assert viewer.get(f"/api/v1/comparisons/{shown.pk}/").status_code == 200
    assert client.get(f"/compare/{hidden.pk}/").status_code == 404
    page = client.get("/clubs/demo/compare/").content.decode()
    assert str(shown.pk) in page and str(hidden.pk) not in page
    member = _api(demo_scorer).get("/api/v1/comparisons/").json()["results"]
    assert {c["id"] for c in member} == {str(hidden.pk), str(shown.pk)}


def test_a_members_other_private_clubs_rule_is_not_named_on_this_club(demo, demo_scorer,
                                                                        outsider_club):
    """Someone in two clubs may not put the private one's rule on the published one's pages."""
    Member.objects.create(club=outsider_club["club"], user=demo_scorer, display_name="Scorer",
                          role=MemberRole.MEMBER)
    refused = _post(_api(demo_scorer), {"session": demo["session"].pk,
                                        "rules": ["bmja", "far-secret"]})
    assert refused.status_code == 400
    assert refused.json()["rules"]["1"][0].startswith(
        "'far-secret' is another club's private house rule")
    assert not Comparison.objects.exists()
    # The club's own copies are fine.
    create_copy(club=demo["club"], base_slug="bmja", new_slug="demo-own", name="Demo's own",
                overrides={"scoring": {"limit": 800}})
    assert _post(_api(demo_scorer), {"session": demo["session"].pk,
                                     "rules": ["bmja", "demo-own"]}).status_code == 201


@pytest.mark.django_db(transaction=True)
def test_the_workers_take_turns_between_people(demo, demo_scorer, admin_user, settings):
    """One person queues three seasons (six turns of eight tables); another's one-table
    comparison comes after them all, and is still replayed on the worker's second turn."""
    settings.COMPARE_USER_LIMIT = 10
    flood = [make_nights(demo["club"], nights=2, tables=8, hands=2, season_name=f"s{i}")
             for i in range(3)]
    for season in flood:
        _queued({"season": season.pk}, demo_scorer)
    small = _queued({"table": demo["table"].pk}, admin_user)
    turns = []
    while (claimed := runs.claim("one-worker")) is not None:
        comparison_id, tables = claimed
        turns.append(comparison_id)
        for table_id in tables:
            runs.run_part(comparison_id, table_id)
        runs.finish(comparison_id)
    assert turns.index(str(small.pk)) == 1
    assert len(turns) == 3 * 16 // runs.TABLES_PER_TASK + 1
    small.refresh_from_db()
    assert small.status == Comparison.DONE


@pytest.mark.django_db(transaction=True)
def test_two_workers_busy_on_a_flood_leave_the_next_turn_to_someone_else(
        demo, demo_scorer, admin_user, settings, monkeypatch):
    settings.COMPARE_USER_LIMIT = 10
    monkeypatch.setattr(runs, "TABLES_PER_TASK", 1)
    season = make_nights(demo["club"], nights=2, tables=4, hands=4)
    big = _queued({"season": season.pk}, demo_scorer)
    assert runs.claim("worker-1")[0] == str(big.pk)
    small = _queued({"table": demo["table"].pk}, admin_user)
    assert runs.claim("worker-2")[0] == str(small.pk)  # the flood's owner is already served
