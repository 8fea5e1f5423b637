"""A guest made a member and a member entered twice merged: the seats, results, night
summaries, table states and check-ins move together, are audited, refused with a sentence
when they would seat one member twice a night, and can be undone."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from clubs.members.merge import (
    MoveRefused,
    guest_names,
    guest_to_member,
    merge_members,
    undo_move,
)
from clubs.models import AuditEntry, ClubSession, HandResult, Member, Seat, Table
from clubs.table_state import build_table_state
from door.models import CheckIn
from league.models import NightResult, rules_of
from league.queries import standings
from league.summary import refresh_all
from tests.members.conftest import play_hands, seat_table


def night(club, season, version, day):
    return ClubSession.objects.create(club=club, season=season, date=dt.date(2026, 3, day),
                                      house_rule_version=version)


def summary_rows():
    fields = ("seat_id", "member_id", "guest_name", "net", "hands", "place", "season_id")
    return sorted(NightResult.objects.values_list(*fields))


def assert_derived_in_step(users):
    """Every derived copy agrees with what a rebuild from the seats gives."""
    stored = summary_rows()
    refresh_all()
    assert summary_rows() == stored
    for table in Table.objects.all():
        replayed = build_table_state(table).snapshot()["seats"]
        assert table.state["seats"] == replayed
    for r in HandResult.objects.select_related("seat"):
        assert r.member_id == r.seat.member_id


@pytest.fixture
def played(club, season, members, bmja_version, users):
    """Three nights: the guest 'Zoe Hart' plays on nights 1 and 2 (as 'zoe hart ' once), Alice
    on all three; 'Ann' and her duplicate 'Ann L' on different nights."""
    rng = random.Random(7)
    alice, bob, carol, david, edith, frank = members[:6]
    ann = Member.objects.create(club=club, display_name="Ann")
    ann2 = Member.objects.create(club=club, display_name="Ann L", joined=dt.date(2025, 5, 1))
    t1 = seat_table(night(club, season, bmja_version, 1), 1, [alice, bob, "Zoe Hart", ann])
    t2 = seat_table(night(club, season, bmja_version, 8), 1, [alice, carol, "zoe hart", ann2])
    t3 = seat_table(night(club, season, bmja_version, 15), 1, [alice, david, edith, frank])
    for t in (t1, t2, t3):
        play_hands(t, users["scorer"], rng, 5)
    return {"tables": (t1, t2, t3), "ann": ann, "ann2": ann2, "alice": alice}


def test_guest_becomes_a_new_member(club, season, played, users):
    def groups():
        rows = standings(rules_of(season), season=season).to_json()["rows"]
        return {r["name"]: r["group"] for r in rows}

    assert groups()["Zoe Hart"] == "guest"
    assert [g["name"].lower() for g in guest_names(club)] == ["zoe hart"]
    move = guest_to_member(club, "ZOE HART", user=users["admin"])
    zoe = move.member
    assert zoe.display_name == "Zoe Hart" and zoe.joined == dt.date(2026, 3, 1)
    assert move.nights == 2 and move.hands == 10
    assert not Seat.objects.filter(member__isnull=True).exists()
    assert HandResult.objects.filter(member=zoe).count() == 10
    assert NightResult.objects.filter(member=zoe).count() == 2
    assert_derived_in_step(users)
    entry = AuditEntry.objects.get(object_type="member", object_id=str(zoe.pk))
    assert entry.user == users["admin"] and "Zoe Hart" in entry.note
    assert entry.before["guest"] == "Zoe Hart" and entry.before["member_created"]
    assert groups()["Zoe Hart"] != "guest"

    undo_move(entry, user=users["admin"])
    assert not Member.objects.filter(pk=zoe.pk).exists()
    assert sorted(Seat.objects.filter(member__isnull=True).values_list("guest_name", flat=True)) \
        == ["Zoe Hart", "zoe hart"]
    assert_derived_in_step(users)
    with pytest.raises(MoveRefused, match="undone already"):
        undo_move(entry)


def test_guest_given_to_an_existing_member(club, played, members, users):
    grace = members[6]
    move = guest_to_member(club, "Zoe Hart", grace, user=users["admin"])
    assert move.member == grace and Seat.objects.filter(member=grace).count() == 2
    assert_derived_in_step(users)
    undo_move(move.audit)
    assert Member.objects.filter(pk=grace.pk).exists()  # she was a member before
    assert Seat.objects.filter(member=grace).count() == 0


def test_refused_when_the_member_played_that_night(club, played, users):
    alice = played["alice"]
    with pytest.raises(MoveRefused) as err:
        guest_to_member(club, "Zoe Hart", alice)
    message = err.value.errors["member"][0]
    assert "Alice and the guest 'Zoe Hart' both played at table 1 on 1 March 2026" in message
    assert Seat.objects.filter(member__isnull=True).count() == 2  # nothing moved
    assert not AuditEntry.objects.filter(object_type="member").exists()


def test_refused_for_two_guests_of_one_name_on_one_night(club, season, bmja_version, members,
                                                          users):
    session = night(club, season, bmja_version, 20)
    seat_table(session, 1, ["Sam", *members[:3]])
    seat_table(session, 2, ["sam", *members[3:6]])
    with pytest.raises(MoveRefused, match="played at tables 1 and 2 on 20 March 2026"):
        guest_to_member(club, "Sam")
    one = Seat.objects.get(guest_name="Sam")
    move = guest_to_member(club, "Sam", seat_ids=[one.pk], new_name="Sam Smith")
    assert move.member.display_name == "Sam Smith" and move.seat_ids == (one.pk,)


def test_refused_names(club, played, members, other_club):
    with pytest.raises(MoveRefused, match="No guest called 'Nobody'"):
        guest_to_member(club, "Nobody")
    with pytest.raises(MoveRefused) as err:
        guest_to_member(club, "Zoe Hart", new_name="Alice")
    assert "already has a member called 'Alice'" in err.value.errors["new_name"][0]
    outsider = Member.objects.create(club=other_club, display_name="Zed")
    with pytest.raises(MoveRefused, match="member of this club"):
        guest_to_member(club, "Zoe Hart", outsider)


def test_merge_two_members(club, played, users):
    ann, ann2 = played["ann"], played["ann2"]
    ann2.user = users["member"]._meta.model.objects.create_user("ann-l", password="x-y-z-12345")
    ann2.role = "scorer"
    ann2.save()
    move = merge_members(ann, ann2, user=users["admin"])
    ann.refresh_from_db()
    assert not Member.objects.filter(pk=ann2.pk).exists()
    assert ann.user.username == "ann-l" and ann.role == "scorer"
    assert ann.joined == dt.date(2025, 5, 1)
    assert Seat.objects.filter(member=ann).count() == 2 and move.nights == 1
    assert NightResult.objects.filter(member=ann).count() == 2
    assert_derived_in_step(users)

    undo_move(move.audit, user=users["admin"])
    ann.refresh_from_db()
    back = Member.objects.get(pk=ann2.pk)
    assert back.display_name == "Ann L" and back.user.username == "ann-l"
    assert back.role == "scorer" and ann.role == "member" and ann.user is None
    assert ann.joined is None
    assert Seat.objects.filter(member=back).count() == 1
    assert_derived_in_step(users)


def test_merge_refused(club, played, members, users):
    alice, ann = played["alice"], played["ann"]
    with pytest.raises(MoveRefused, match="both played at table 1 on 1 March 2026"):
        merge_members(alice, ann)
    with pytest.raises(MoveRefused, match="two different members"):
        merge_members(ann, ann)
    admin = Member.objects.get(user=users["admin"])
    scorer = Member.objects.get(user=users["scorer"])
    with pytest.raises(MoveRefused, match="each have their own login"):
        merge_members(admin, scorer)


def test_check_ins_follow(club, played, members, users):
    t1, t2, t3 = played["tables"]
    CheckIn.objects.create(session=t1.session, guest_name="Zoe hart")
    move = guest_to_member(club, "Zoe Hart")
    assert CheckIn.objects.get(session=t1.session).member == move.member
    undo_move(move.audit)
    back = CheckIn.objects.get(session=t1.session)
    assert back.member is None and back.guest_name == "Zoe Hart"
    # A merge takes every check-in of the duplicate, seated or not that night.
    ann, ann2 = played["ann"], played["ann2"]
    CheckIn.objects.create(session=t3.session, member=ann2)
    merge_members(ann, ann2)
    assert CheckIn.objects.get(session=t3.session).member == ann


def test_merge_refused_when_both_checked_in(club, played):
    t3 = played["tables"][2]
    ann, ann2 = played["ann"], played["ann2"]
    CheckIn.objects.create(session=t3.session, member=ann)
    CheckIn.objects.create(session=t3.session, member=ann2)
    with pytest.raises(MoveRefused, match="Ann is already checked in on 15 March 2026"):
        merge_members(ann, ann2)
    assert Member.objects.filter(pk=ann2.pk).exists()


def test_undo_refused_once_the_seats_moved_on(club, played, members, users):
    move = guest_to_member(club, "Zoe Hart")
    Seat.objects.filter(pk=move.seat_ids[0]).update(member=members[8])
    with pytest.raises(MoveRefused, match="changed since"):
        undo_move(move.audit)
