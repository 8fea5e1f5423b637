"""The admin lists, adds and shows every club record for a superuser (demo data loaded)."""

import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db

CLUB_MODELS = [model for model in admin.site._registry
               if model._meta.app_label in ("clubs", "houserules")]


def test_every_club_model_is_registered():
    names = {model.__name__ for model in CLUB_MODELS}
    assert names >= {
        "Club", "Member", "Season", "HouseRuleRecord", "HouseRuleVersion", "ClubSession",
        "Table", "Seat", "Hand", "HandEntry", "HandResult", "AuditEntry",
    }


@pytest.mark.parametrize("model", CLUB_MODELS, ids=lambda m: m.__name__)
def test_changelist_and_change_page_load(admin_client, demo_club, model):
    opts = model._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    response = admin_client.get(url)
    assert response.status_code == 200
    obj = model.objects.first()
    if obj is not None:
        change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        assert admin_client.get(change).status_code == 200


def test_changelist_filters_work(admin_client, demo_club):
    url = reverse("admin:clubs_hand_changelist")
    response = admin_client.get(url, {"draw__exact": "1"})
    assert response.status_code == 200
    assert response.context["cl"].result_count == 2


def test_the_demo_admin_sees_the_demo_club(client, demo_club):
    from clubs import demo as demo_data

    assert client.login(username="demo-admin", password=demo_data.LOGINS["demo-admin"])
    response = client.get(reverse("admin:clubs_club_changelist"))
    assert response.status_code == 200
    assert "Demo Mah-Jong Club" in response.content.decode()


def test_correcting_a_quick_score_in_the_admin_rebuilds_the_results(admin_client, demo_club):
    """Nothing derived is the record: an admin correction recomputes the night's results."""
    from clubs.models import HandEntry, HandResult

    entry = HandEntry.objects.get(hand__number=1, seat_wind="W")
    url = reverse("admin:clubs_handentry_change", args=[entry.pk])
    response = admin_client.post(url, {
        "hand": entry.hand_id, "seat": entry.seat_id, "seat_wind": "W", "kind": "quick",
        "data": '{"score": 40}',
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    result = HandResult.objects.get(hand__number=1, seat_wind="W")
    assert result.score == 40


def test_giving_a_seat_to_another_member_in_the_admin_renames_the_stored_rows(admin_client,
                                                                             demo_club):
    """A seat's player is named on the stored results and the league's nights: an admin change
    of the seat rebuilds them, as a hand's does."""
    from clubs.models import HandResult, Member, Seat
    from league.models import NightResult

    seat = Seat.objects.filter(table__session__club=demo_club, member__isnull=False).first()
    other = Member.objects.create(club=demo_club, display_name="Newcomer")
    url = reverse("admin:clubs_seat_change", args=[seat.pk])
    response = admin_client.post(url, {
        "table": seat.table_id, "position": seat.position, "starting_wind": seat.starting_wind,
        "member": other.pk, "guest_name": "",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    assert set(HandResult.objects.filter(seat=seat).values_list("member_id", flat=True)) == {
        other.pk}
    assert NightResult.objects.filter(seat_id=seat.pk, member=other).exists()
    seat.table.refresh_from_db()
    named = {row[0]: row[1] for row in seat.table.state["seats"]}
    assert named[seat.pk] == "Newcomer"


@pytest.fixture
def one_of_each(demo_club):
    """The demo club's records, and an audit entry (the demo loader leaves none)."""
    from clubs.models import AuditAction, AuditEntry

    AuditEntry.objects.create(club=demo_club, action=AuditAction.UPDATE, object_type="hand",
                              object_id="1", note="typo")
    return demo_club


@pytest.mark.parametrize("label", ["clubs.auditentry", "clubs.handresult",
                                   "houserules.houseruleversion"])
def test_read_only_records_cannot_be_added_or_changed(admin_client, one_of_each, label):
    """Audit entries, derived results and frozen versions are shown, never edited."""
    from django.apps import apps

    app_label, model_name = label.split(".")
    model = apps.get_model(app_label, model_name)
    assert admin_client.get(reverse(f"admin:{app_label}_{model_name}_add")).status_code == 403
    obj = model.objects.first()
    change = reverse(f"admin:{app_label}_{model_name}_change", args=[obj.pk])
    page = admin_client.get(change)
    assert page.status_code == 200 and not page.context["has_change_permission"]


@pytest.mark.parametrize(("label", "deletable"),
                         [("clubs.auditentry", False), ("houserules.houseruleversion", False),
                          ("clubs.handresult", True)])
def test_only_derived_results_may_be_deleted_of_the_read_only_records(
    admin_client, one_of_each, label, deletable
):
    from django.apps import apps

    app_label, model_name = label.split(".")
    obj = apps.get_model(app_label, model_name).objects.first()
    delete = reverse(f"admin:{app_label}_{model_name}_delete", args=[obj.pk])
    assert (admin_client.get(delete).status_code == 200) == deletable


@pytest.mark.parametrize("model_name", ["club", "clubsession", "table"])
def test_changelist_queries_do_not_grow_with_the_rows(admin_client, demo_club, model_name):
    """Counts and player names come in the list's own queries, not one query per row."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club, ClubSession, Seat, Table

    url = reverse(f"admin:clubs_{model_name}_changelist")

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert admin_client.get(url).status_code == 200
        return len(ctx.captured_queries)

    before = queries()
    for n in range(3):  # three more rows of the listed kind
        club = Club.objects.create(name=f"Extra {n}", slug=f"extra-{n}")
        session = ClubSession.objects.create(
            club=club, date=demo_club.sessions.first().date,
            house_rule_version=demo_club.sessions.first().house_rule_version,
        )
        table = Table.objects.create(session=session, number=1)
        Seat.objects.create(table=table, guest_name=f"Guest {n}", position=0, starting_wind="E")
    assert queries() == before
