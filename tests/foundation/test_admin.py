"""The admin lists, adds and shows every club record for a superuser (demo data loaded)."""

import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db

CLUB_MODELS = [model for model in admin.site._registry if model._meta.app_label == "clubs"]


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
