"""The web tests' club, roles and clients, and a generator of recorded seasons."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from clubs.models import ClubSession, Member, Season, Seat, Table
from clubs.recording import HandInputError, next_hand_of, record_hand
from tests.web import conftest as web

# The web tests' fixtures, shared here.
admin_api, bmja_version, client_as, club = web.admin_api, web.bmja_version, web.client_as, web.club
fast_password_hashing, house_rule_versions = web.fast_password_hashing, web.house_rule_versions
other_club, players, users = web.other_club, web.players, web.users

NAMES = ("Alice", "Bob", "Carol", "David", "Edith", "Frank", "Grace", "Harry", "Ivy", "Jack")


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", start=dt.date(2026, 1, 1))


@pytest.fixture
def members(club):
    return [Member.objects.create(club=club, display_name=name) for name in NAMES]


def seat_table(session, number, people, winds="ESWN"):
    """``people``: members, or strings for guests; a fifth (or more than ``winds``) sits out."""
    table = Table.objects.create(session=session, number=number)
    for position, who in enumerate(people):
        Seat.objects.create(
            table=table, position=position,
            member=None if isinstance(who, str) else who,
            guest_name=who if isinstance(who, str) else "",
            starting_wind=winds[position] if position < len(winds) else "")
    return table


def random_entry(rng: random.Random, winds: list[str]) -> dict:
    if rng.random() < 0.12:
        return {"draw": True, "seats": {w: {"score": rng.choice([0, 4, 8])} for w in winds}}
    winner = rng.choice(winds)
    others = [w for w in winds if w != winner]
    discarder = rng.choice(others) if others and rng.random() < 0.6 else None
    return {
        "winner": winner, "discarder": discarder,
        "win_from": "discard" if discarder else "wall",
        "seats": {w: {"score": rng.choice([20, 40, 100, 250, 500, 1000]) if w == winner
                      else rng.choice([0, 2, 8, 16, 30])} for w in winds},
    }


def play_hands(table, user, rng: random.Random, hands: int) -> int:
    recorded = 0
    for _ in range(hands):
        _, seating, _, _ = next_hand_of(table)
        winds = sorted(set(seating.winds.values()), key="ESWN".index)
        try:
            record_hand(table, random_entry(rng, winds), user)
            recorded += 1
        except HandInputError:
            continue  # a score this house rule refuses: the generator tries another hand
        table.refresh_from_db()
    return recorded


@pytest.fixture
def make_season(club, season, members, users):
    """make_season(rule version, seed, nights, players per table) -> the season, recorded by
    the scorer through clubs.recording (so the summary is kept by the signal)."""

    def make(version, seed=1, nights=3, per_table=4, hands=6, guest=True):
        rng = random.Random(seed)
        for night in range(nights):
            session = ClubSession.objects.create(
                club=club, season=season, date=dt.date(2026, 2, 1) + dt.timedelta(weeks=night),
                house_rule_version=version)
            pool = rng.sample(members, len(members))
            people = pool[: per_table * 2 - (1 if guest else 0)] + (["Visitor"] if guest else [])
            rng.shuffle(people)
            winds = "ESWN"[:min(per_table, 4)]
            for number in (1, 2):
                chosen = people[(number - 1) * per_table: number * per_table]
                table = seat_table(session, number, chosen, winds=winds)
                play_hands(table, users["scorer"], rng, hands)
        return season

    return make
