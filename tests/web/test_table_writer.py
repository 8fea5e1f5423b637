"""Issue #24: one phone records a table at a time. Another phone opening the record page sees
who holds it and may take over; the old holder's saves are still accepted; viewers are not
affected; the hold is kept in the database and runs out."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.test import Client
from django.utils import timezone

from clubs.models import Hand, TableWriter
from clubs.table_writer import DEVICE_COOKIE
from tests.web.test_pages_hands import contract_example_post, record_url, table_url

pytestmark = pytest.mark.django_db

ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile"


def phone(users, username: str) -> Client:
    client = Client(HTTP_USER_AGENT=ANDROID)
    client.force_login(users[username])
    return client


def test_the_first_phone_holds_the_table_and_a_second_sees_who(users, table):
    first, second = phone(users, "scorer"), phone(users, "admin")
    opened = first.get(record_url(table))
    assert opened.status_code == 200 and DEVICE_COOKIE in opened.cookies
    held = TableWriter.objects.get(table=table)
    assert held.holder_name == "Scorer"  # the member's name at the club
    assert held.device_label == "Android phone"
    blocked = second.get(record_url(table))
    assert blocked.status_code == 200
    assert "clubs/record_held.html" in [t.name for t in blocked.templates]
    assert f"<strong>{held.holder_name}</strong> is recording this table" in blocked.text
    # The first phone opening the page again keeps it; viewers read the table as ever.
    assert "clubs/record_hand.html" in [t.name for t in first.get(record_url(table)).templates]
    assert second.get(table_url(table)).status_code == 200


def test_taking_over_and_the_old_phone_still_saves(users, table):
    first, second = phone(users, "scorer"), phone(users, "admin")
    form = first.get(record_url(table)).context["client_id"]
    second.get(record_url(table))
    taken = second.post(record_url(table), {"action": "take_over"})
    assert taken.status_code == 302
    assert "clubs/record_hand.html" in [t.name for t in second.get(record_url(table)).templates]
    assert TableWriter.objects.get(table=table).user == users["admin"]
    # The old phone's hand (queued without signal, say) is still saved...
    saved = first.post(record_url(table), {**contract_example_post(table, "save"),
                                           "client_id": str(form)},
                       HTTP_ACCEPT="application/json")
    assert saved.status_code == 201 and Hand.objects.count() == 1
    # ... but the table stays with the phone that took it over.
    assert TableWriter.objects.get(table=table).user == users["admin"]
    assert "clubs/record_held.html" in [t.name for t in first.get(record_url(table)).templates]


def test_a_hold_runs_out(users, table):
    first, second = phone(users, "scorer"), phone(users, "admin")
    first.get(record_url(table))
    TableWriter.objects.filter(table=table).update(expires=timezone.now() - dt.timedelta(seconds=1))
    assert "clubs/record_hand.html" in [t.name for t in second.get(record_url(table)).templates]
    assert TableWriter.objects.get(table=table).user == users["admin"]


def test_a_forged_device_cookie_is_replaced(users, table):
    client = phone(users, "scorer")
    client.cookies[DEVICE_COOKIE] = "<script>"
    answer = client.get(record_url(table))
    assert answer.cookies[DEVICE_COOKIE].value != "<script>"
    assert uuid.UUID(answer.cookies[DEVICE_COOKIE].value)


def test_the_same_scorer_on_a_second_phone_just_continues(users, table):
    """The table is held by a scorer, not a browser: their own second phone (or the same phone
    after its browser was cleared, so without the cookie) opens the record page as theirs, with
    no "Take over"; another scorer still sees who holds it."""
    first, second = phone(users, "scorer"), phone(users, "scorer")
    first.get(record_url(table))
    held = TableWriter.objects.get(table=table)
    second_phone = second.get(record_url(table))
    assert "clubs/record_hand.html" in [t.name for t in second_phone.templates]
    assert "Take over" not in second_phone.text
    now = TableWriter.objects.get(table=table)
    assert now.user == users["scorer"] and now.since == held.since  # the same spell at the table
    assert now.device == second_phone.cookies[DEVICE_COOKIE].value  # the phone in use now
    # Their first phone goes on recording too.
    assert "clubs/record_hand.html" in [t.name for t in first.get(record_url(table)).templates]
    # Another scorer is still held off.
    other = phone(users, "admin").get(record_url(table))
    assert "clubs/record_held.html" in [t.name for t in other.templates]
    assert "Take over" in other.text


def test_a_save_from_the_scorers_other_phone_renews_their_hold(users, table):
    """The hold moved to the phone the scorer opened last; a hand saved from their other one
    still keeps the table theirs for another spell."""
    first, second = phone(users, "scorer"), phone(users, "scorer")
    form = first.get(record_url(table)).context["client_id"]
    second.get(record_url(table))  # the table now follows their second phone
    TableWriter.objects.filter(table=table).update(expires=timezone.now() + dt.timedelta(minutes=1))
    saved = first.post(record_url(table), {**contract_example_post(table, "save"),
                                           "client_id": str(form)},
                       HTTP_ACCEPT="application/json")
    assert saved.status_code == 201
    assert TableWriter.objects.get(table=table).expires > timezone.now() + dt.timedelta(minutes=5)
