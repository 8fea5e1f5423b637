"""A right-to-left override typed into a name would turn the words after it backwards on
other people's screens ("Zoë won" on a button): the direction controls are taken out of every
form and API body before a view reads them (config.middleware.StripDirectionControls)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from clubs.models import Member

OVERRIDE = "\u202e"


@pytest.mark.parametrize("encoded", [True, False])  # as a browser sends a form; multipart
def test_a_page_form_stores_the_name_without_the_override(client_as, club, encoded):
    data = {"display_name": f"Zo{OVERRIDE}ë\u2066 Li\u2069", "role": "member"}
    address = reverse("add-member", args=[club.slug])
    if encoded:
        answer = client_as("admin").post(address, urlencode(data),
                                         content_type="application/x-www-form-urlencoded")
    else:
        answer = client_as("admin").post(address, data)
    assert answer.status_code == 302
    assert Member.objects.filter(club=club, display_name="Zoë Li").exists()


@pytest.mark.parametrize("escaped", [False, True])
def test_an_api_body_stores_the_name_without_the_override(admin_api, club, escaped):
    name = f"Ra{OVERRIDE}ff\u202a"
    body = json.dumps({"club": club.slug, "display_name": name, "role": "member"},
                      ensure_ascii=escaped)
    answer = admin_api.post("/api/v1/members/", body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["display_name"] == "Raff"
    assert Member.objects.filter(club=club, display_name="Raff").exists()


def test_right_to_left_names_and_their_marks_stay(admin_api, club):
    name = "\u05e9\u05e8\u05d4 Levi\u200f"
    answer = admin_api.post("/api/v1/members/", {"club": club.slug, "display_name": name,
                                                 "role": "member"}, format="json")
    assert answer.status_code == 201
    assert answer.json()["display_name"] == name
