"""The door in the API: check-ins, rules, draw, swap, accept (201 once, 200 on a repeat, 409
for a revision the caller has not seen), cards; field paths on bad input; who may call it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from clubs.models import Table
from door.models import CheckIn

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(users):
    def as_role(role):
        client = APIClient()
        if users[role] is not None:
            client.force_authenticate(users[role])
        return client
    return as_role


def base(session):
    return f"/api/v1/sessions/{session.pk}/door/"


def test_a_night_through_the_api(api, tonight, members):
    client = api("scorer")
    for member in members[:9]:
        answer = client.post(base(tonight) + "check-ins/", {"member": member.pk}, format="json")
        assert answer.status_code == 201
    # Twice is once.
    assert client.post(base(tonight) + "check-ins/", {"member": members[0].pk},
                       format="json").status_code == 201
    guest = client.post(base(tonight) + "check-ins/", {"guest_name": "Guest One",
                                                       "newcomer": True}, format="json")
    assert guest.status_code == 201 and guest.json()["newcomer"] is True
    gone = client.patch(base(tonight) + f"check-ins/{guest.json()['id']}/", {"left": True},
                        format="json")
    assert gone.status_code == 200 and gone.json()["left"]
    assert CheckIn.objects.filter(session=tonight, left__isnull=True).count() == 9
    first, second = (CheckIn.objects.get(session=tonight, member=m).pk for m in members[:2])
    rule = client.post(base(tonight) + "rules/", {"kind": "together", "first": first,
                                                  "second": second}, format="json")
    assert rule.status_code == 201, rule.json()
    drawn = client.post(base(tonight) + "draw/", {"seed": 4}, format="json")
    assert drawn.status_code == 200
    draw = drawn.json()["draw"]
    assert sorted(len(t["seats"]) for t in draw["tables"]) == [4, 5]
    together = [t for t in draw["tables"] if {first, second} <= {s["check_in"] for s in t["seats"]}]
    assert together
    assert "random_repeats_mean" in draw["quality"]
    # The same seed, the same tables.
    again = client.post(base(tonight) + "draw/", {"seed": 4}, format="json").json()["draw"]
    assert again["tables"] == draw["tables"] and again["revision"] == draw["revision"] + 1
    a = again["tables"][0]["seats"][0]["check_in"]
    b = again["tables"][1]["seats"][0]["check_in"]
    swapped = client.post(base(tonight) + "draw/swap/", {"first": a, "second": b,
                                                         "revision": again["revision"]},
                          format="json")
    assert swapped.status_code == 200
    now = swapped.json()["draw"]
    assert now["tables"][0]["seats"][0]["check_in"] == b
    stale = client.post(base(tonight) + "draw/accept/", {"revision": again["revision"]},
                        format="json")
    assert stale.status_code == 409 and int(stale.json()["current"]) == now["revision"]
    made = client.post(base(tonight) + "draw/accept/", {"revision": now["revision"]},
                       format="json")
    assert made.status_code == 201 and len(made.json()["tables"]) == 2
    repeat = client.post(base(tonight) + "draw/accept/", {"revision": now["revision"]},
                         format="json")
    assert repeat.status_code == 200 and repeat.json()["tables"] == made.json()["tables"]
    assert Table.objects.filter(session=tonight).count() == 2
    pdf = client.get(base(tonight) + "cards/?paper=a6")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    state = client.get(base(tonight)).json()
    assert state["draw"]["accepted"] and len(state["check_ins"]) == 10


def test_bad_requests_name_the_field(api, tonight, members):
    client = api("scorer")
    answer = client.post(base(tonight) + "check-ins/", {}, format="json")
    assert answer.status_code == 400 and "member" in answer.json()
    answer = client.post(base(tonight) + "check-ins/", {"member": 999999}, format="json")
    assert answer.status_code == 400 and "member" in answer.json()
    answer = client.post(base(tonight) + "check-ins/", {"guest_name": "x" * 81}, format="json")
    assert answer.status_code == 400 and "guest_name" in answer.json()
    answer = client.post(base(tonight) + "rules/", {"kind": "fixed", "first": 1}, format="json")
    assert answer.status_code == 400
    answer = client.post(base(tonight) + "draw/", {}, format="json")
    assert answer.status_code == 400 and "draw" in answer.json()
    answer = client.post(base(tonight) + "draw/accept/", {"revision": "x"}, format="json")
    assert answer.status_code == 400 and "revision" in answer.json()
    answer = client.get(base(tonight) + "cards/?paper=a0")
    assert answer.status_code == 400 and "paper" in answer.json()
    answer = client.get(base(tonight) + "cards/")
    assert answer.status_code == 400 and "tables" in answer.json()


@pytest.mark.parametrize(("role", "status"), [("admin", 200), ("scorer", 200),
                                              ("member", 403), ("outsider", 404),
                                              ("anonymous", 404)])
def test_who_may_call_the_door(api, tonight, role, status):
    client = api(role)
    answer = client.get(base(tonight))
    assert answer.status_code in ((status, 403) if status == 401 else (status,))
    if role == "member":
        assert "scorers and admins run the door" in answer.json()["detail"]
    for path, body in (("check-ins/", {"guest_name": "A"}), ("draw/", {}),
                       ("draw/accept/", {"revision": 1})):
        answer = client.post(base(tonight) + path, body, format="json")
        if status == 200:
            assert answer.status_code in (201, 400)
        else:
            assert answer.status_code in ((status, 403) if status == 401 else (status,))


def test_draw_tables_command(tonight, members, capsys, tmp_path):
    from door.checkin import set_members
    set_members(tonight, {m.pk for m in members[:8]})
    call_command("draw_tables", str(tonight.pk), "--seed", "3", "--accept", "--cards",
                 str(tmp_path / "cards.pdf"), "--paper", "a6")
    out = capsys.readouterr().out
    assert "Table 1: East:" in out and "Tables seated." in out
    assert (tmp_path / "cards.pdf").read_bytes().startswith(b"%PDF")
    assert Table.objects.filter(session=tonight).count() == 2
    call_command("draw_tables", str(tonight.pk), "--keep", "--accept")
    assert "Already seated." in capsys.readouterr().out
    with pytest.raises(CommandError, match="no session 999999"):
        call_command("draw_tables", "999999")
