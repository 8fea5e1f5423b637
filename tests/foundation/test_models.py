"""The club models refuse what a club night cannot hold (named constraints in clubs/models)."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from clubs.models import (
    Club,
    ClubSession,
    Hand,
    HandEntry,
    HouseRuleRecord,
    HouseRuleVersion,
    Member,
    Season,
    Seat,
    Table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    club = Club.objects.create(name="Test Club", slug="test")
    record = HouseRuleRecord.objects.create(slug="bmja", name="BMJA")
    version = HouseRuleVersion.objects.create(record=record, number=1, data={"slug": "bmja"})
    session = ClubSession.objects.create(club=club, date=dt.date(2026, 5, 1), house_rule_version=version)
    table = Table.objects.create(session=session, number=1)
    for position, (name, wind) in enumerate(zip("ABCD", "ESWN", strict=True)):
        member = Member.objects.create(club=club, display_name=name)
        Seat.objects.create(table=table, member=member, position=position, starting_wind=wind)
    return table


def seat(table, wind):
    return table.seats.get(starting_wind=wind)



def test_one_hand_number_per_table(table):
    Hand.objects.create(table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"), draw=True)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Hand.objects.create(table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"), draw=True)


def test_a_draw_has_no_winner(table):
    with transaction.atomic(), pytest.raises(IntegrityError, match="hand_draw_has_no_winner"):
        Hand.objects.create(
            table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"),
            draw=True, winner=seat(table, "S"),
        )


def test_the_winner_did_not_discard_to_themself(table):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Hand.objects.create(
            table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"),
            winner=seat(table, "S"), discarder=seat(table, "S"),
        )


def test_one_entry_per_seat_and_per_wind(table):
    hand = Hand.objects.create(
        table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"), winner=seat(table, "E")
    )
    HandEntry.objects.create(hand=hand, seat=seat(table, "E"), seat_wind="E", kind="quick", data={"score": 4})
    with transaction.atomic(), pytest.raises(IntegrityError):
        HandEntry.objects.create(hand=hand, seat=seat(table, "E"), seat_wind="S", kind="quick", data={})
    with transaction.atomic(), pytest.raises(IntegrityError):
        HandEntry.objects.create(hand=hand, seat=seat(table, "S"), seat_wind="E", kind="quick", data={})


def test_seats_hold_a_member_or_a_guest_and_winds_are_unique(table):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(table=table, position=4, starting_wind="")  # nobody named
    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(table=table, guest_name="Visitor", position=4, starting_wind="E")
    with transaction.atomic(), pytest.raises(IntegrityError):
        Seat.objects.create(table=table, guest_name="Visitor", position=5, starting_wind="")
    # 001: a fifth player sits out without a wind; the name comes from the guest.
    dreamer = Seat.objects.create(table=table, guest_name="Visitor", position=4, starting_wind="")
    assert dreamer.name == "Visitor"
    assert seat(table, "E").name == "A"


def test_member_names_and_logins_are_unique_within_a_club(table):
    club = table.session.club
    user = get_user_model().objects.create_user("pat")
    Member.objects.create(club=club, display_name="Pat", user=user)
    Member.objects.create(club=club, display_name="No login 1")
    Member.objects.create(club=club, display_name="No login 2")  # many members without a login
    with transaction.atomic(), pytest.raises(IntegrityError):
        Member.objects.create(club=club, display_name="Pat again", user=user)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Member.objects.create(club=club, display_name="Pat")
    other = Club.objects.create(name="Other", slug="other")
    Member.objects.create(club=other, display_name="Pat", user=user)


def test_season_ends_after_it_starts(table):
    with transaction.atomic(), pytest.raises(IntegrityError):
        Season.objects.create(
            club=table.session.club, name="Backwards", start=dt.date(2026, 6, 1), end=dt.date(2026, 1, 1)
        )


def test_house_rule_versions_are_numbered_once(table):
    record = table.session.house_rule_version.record
    with transaction.atomic(), pytest.raises(IntegrityError):
        HouseRuleVersion.objects.create(record=record, number=1, data={})


def test_a_played_version_cannot_be_deleted(table):
    with pytest.raises(Exception, match="restricted|protected|Cannot delete"):
        table.session.house_rule_version.delete()


def test_a_member_who_played_cannot_be_deleted(table):
    with pytest.raises(ProtectedError):
        seat(table, "E").member.delete()


def test_deleting_a_table_takes_its_hands_and_seats(table):
    Hand.objects.create(
        table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"), winner=seat(table, "N"),
        discarder=seat(table, "W"),
    )
    table.delete()
    assert not Hand.objects.exists() and not Seat.objects.exists()


def test_forms_and_admin_get_a_sentence_not_a_database_error(table):
    """Model validation (used by ModelForms, the admin, DRF ModelSerializers) names the fix."""
    from django.core.exceptions import ValidationError

    hand = Hand(
        table=table, number=1, prevailing_wind="E", dealer=seat(table, "E"),
        draw=True, winner=seat(table, "S"),
    )
    with pytest.raises(ValidationError) as err:
        hand.full_clean()
    assert "A wall game (draw) has no winner" in str(err.value)


def test_records_of_another_club_are_refused_with_a_sentence(table):
    """Relations the database cannot check: seasons, house rules, members, seats of one club."""
    from django.core.exceptions import ValidationError

    session = table.session
    other = Club.objects.create(name="Other", slug="other")
    session.season = Season.objects.create(club=other, name="Theirs", start=dt.date(2026, 1, 1))
    session.house_rule_version.record.club = other
    with pytest.raises(ValidationError) as err:
        session.full_clean()
    assert set(err.value.message_dict) == {"season", "house_rule_version"}

    stranger = Member.objects.create(club=other, display_name="Stranger")
    with pytest.raises(ValidationError, match="seat them as a guest"):
        Seat(table=table, member=stranger, position=4).full_clean()

    other_table = Table.objects.create(session=table.session, number=2)
    elsewhere = Seat.objects.create(table=other_table, guest_name="Elsewhere", position=0, starting_wind="E")
    hand = Hand(table=table, number=1, prevailing_wind="E", dealer=elsewhere, winner=seat(table, "S"))
    with pytest.raises(ValidationError) as err:
        hand.full_clean()
    assert set(err.value.message_dict) == {"dealer"}
    hand.dealer = seat(table, "E")
    hand.save()
    with pytest.raises(ValidationError, match="at this hand's table"):
        HandEntry(hand=hand, seat=elsewhere, seat_wind="E", kind="quick", data={"score": 0}).full_clean()
