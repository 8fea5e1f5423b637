"""A NUL character (which PostgreSQL cannot store) anywhere in a request is a clear 400."""

import json

import pytest

from config.middleware import MESSAGE

pytestmark = pytest.mark.django_db


def test_nul_in_a_json_string_is_refused_before_any_view(client):
    body = json.dumps({"rules": "bmja", "seat_wind": "S\u0000", "prevailing_wind": "E"})
    response = client.post("/api/v1/score", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"detail": MESSAGE}


def test_nul_in_a_query_parameter_is_refused(client):
    response = client.get("/api/v1/house-rules/", {"club": "demo\u0000"})
    assert response.status_code == 400
    assert response.json() == {"detail": MESSAGE}


def test_nul_in_a_page_form_gives_the_form_back_with_its_error(client):
    """Issue 14: a browser's form post with a NUL gets the form, the error on the field."""
    response = client.post("/accounts/login/", "username=a%00&password=x",
                           content_type="application/x-www-form-urlencoded")
    text = response.content.decode()
    assert response.status_code == 200
    assert "<form" in text and "Null characters are not allowed" in text


def test_nul_in_a_form_post_to_the_api_is_still_refused(client):
    response = client.post("/api/v1/score", "rules=bmja%00",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.json() == {"detail": MESSAGE}


def test_nul_in_a_multipart_form_is_left_to_the_form_which_refuses_it_on_the_field(client):
    response = client.post("/accounts/login/", {"username": "a\u0000", "password": "x"})
    assert response.status_code == 200
    assert "Null characters are not allowed" in response.content.decode()


def test_an_escaped_backslash_before_u0000_is_ordinary_text(client):
    # The JSON text "\\u0000" is a backslash followed by "u0000", not a NUL: the view decides.
    body = json.dumps({"rules": "bmja", "seat_wind": "\\u0000", "prevailing_wind": "E",
                       "mahjong": False})
    response = client.post("/api/v1/score", body, content_type="application/json")
    assert response.status_code == 400
    assert "seat_wind" in response.json()
