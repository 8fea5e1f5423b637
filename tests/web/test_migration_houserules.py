"""A database made before the ``houserules`` app (house-rule models in ``clubs``) migrates with
every session, hand, result, house-rule record and version intact: the move is state only
(houserules 0001, clubs 0006, league 0003), the tables keep their names, and the models'
content types (so permissions and admin history) follow them. Migrating back gives the old
shape with the same rows."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from clubs.models import AuditEntry, ClubSession, Hand, HandEntry, HandResult, Table
from houserules.copies import create_copy, update_copy
from houserules.models import HouseRuleRecord, HouseRuleVersion
from league.models import NightResult
from tests.web.test_stored_results import night

BEFORE = [("clubs", "0005_hand_computed_and_result_facts"), ("league", "0002_fill_night_results")]
# No houserules app yet: migrating to (app, None) unapplies all of its migrations.
NO_HOUSERULES = ("houserules", None)


def snapshot():
    return {
        "sessions": list(ClubSession.objects.order_by("id").values_list(
            "id", "date", "house_rule_version_id", "goulash_rule_version_id")),
        "records": list(HouseRuleRecord.objects.order_by("id").values_list(
            "id", "slug", "name", "club_id", "based_on_id", "overrides")),
        "versions": list(HouseRuleVersion.objects.order_by("id").values_list(
            "id", "record_id", "number", "data")),
        "hands": list(Hand.objects.order_by("id").values_list(
            "id", "number", "winner_id", "discarder_id", "voided", "facts", "computed")),
        "entries": list(HandEntry.objects.order_by("id").values_list("id", "seat_id", "data")),
        "results": list(HandResult.objects.order_by("hand_id", "seat_id").values_list(
            "hand_id", "seat_id", "score", "net", "running_total", "won", "gave", "limit")),
        "nights": list(NightResult.objects.order_by("id").values_list(
            "id", "seat_id", "house_rule_id", "net")),
        "audit": list(AuditEntry.objects.order_by("id").values_list(
            "id", "object_type", "object_id", "action", "note")),
        "club_defaults": list(
            ClubSession.objects.values_list("club_id", "club__default_house_rule_id")),
    }


def content_type_ids(app_label: str) -> dict[str, int]:
    return dict(ContentType.objects.filter(
        app_label=app_label, model__in=("houserulerecord", "houseruleversion"),
    ).values_list("model", "id"))


@pytest.mark.django_db(transaction=True)
def test_the_release_before_houserules_migrates_with_everything_intact(
        table, users, club, club_session):
    # A club copy at version 2, the session played under version 1 of it, and a night.
    copy = create_copy(club, "bmja", "jade-bmja", "Jade BMJA", {"scoring": {"limit": 1500}},
                       users["admin"])
    version_1 = copy.latest_version()
    update_copy(copy, {"scoring": {"limit": 2000}}, users["admin"])
    club.default_house_rule = copy
    club.save(update_fields=["default_house_rule"])
    ClubSession.objects.filter(pk=club_session.pk).update(house_rule_version=version_1)
    night(Table.objects.get(pk=table.pk), users["scorer"], hands=8)
    before = snapshot()
    types = content_type_ids("houserules")
    assert len(before["versions"]) >= 3 and len(before["hands"]) == 8 and before["results"]
    assert [a[1] for a in before["audit"]].count("house_rule") == 2

    executor = MigrationExecutor(connection)
    executor.migrate([*BEFORE, NO_HOUSERULES])  # the house-rule models back in clubs
    old = MigrationExecutor(connection).loader.project_state(BEFORE).apps
    applied = MigrationRecorder(connection).applied_migrations()
    assert not any(app == "houserules" for app, _ in applied)
    OldVersion = old.get_model("clubs", "HouseRuleVersion")
    OldSession = old.get_model("clubs", "ClubSession")
    assert (list(OldVersion.objects.order_by("id").values_list("id", "record_id", "number", "data"))
            == before["versions"])
    assert OldSession.objects.get(pk=club_session.pk).house_rule_version.number == 1
    assert content_type_ids("clubs") == types and content_type_ids("houserules") == {}

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert snapshot() == before
    assert content_type_ids("houserules") == types and content_type_ids("clubs") == {}
    session = ClubSession.objects.select_related("house_rule_version__record").get(
        pk=club_session.pk)
    assert session.house_rule_version.record.slug == "jade-bmja"
    assert session.house_rule_version.data["scoring"]["limit"] == 1500
