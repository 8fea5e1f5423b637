"""The demo club: members, a season and a club night with recorded hands, loaded idempotently.

The three full hands are the BMJA course's scoring practice (004 Sheet 19), read from the
shared worked examples beside the repository so the demo shows exactly what the engines are
checked against; a copy of those hands is kept here for a clone without that folder. Only what
a scorer would enter is stored; scores, payments and standings are derived from it (and the
derived cache rebuilt at the end).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.models import (
    Club,
    ClubSession,
    EntryKind,
    Hand,
    HandEntry,
    Member,
    MemberRole,
    Season,
    Seat,
    Table,
    Wind,
)
from houserules.sync import ensure_builtin_house_rules

REPO = Path(__file__).resolve().parent.parent
EXAMPLES_FILE = REPO.parent / "shared" / "examples" / "bmja-scoring-practice.json"

CLUB_NAME = "Demo Mah-Jong Club"
CLUB_SLUG = "demo"
HOUSE_RULE = "bmja"
# Demo-only logins, documented in the README; never load the demo into a live service.
LOGINS = {"demo-admin": "mahjong-demo", "demo-scorer": "mahjong-demo"}
MEMBERS = [
    ("Alice Archer", MemberRole.ADMIN, "demo-admin"),
    ("Bob Barnes", MemberRole.SCORER, "demo-scorer"),
    ("Carol Chen", MemberRole.MEMBER, None),
    ("David Dunn", MemberRole.MEMBER, None),
    ("Eve Evans", MemberRole.MEMBER, None),
    ("Frank Fong", MemberRole.MEMBER, None),
    ("Grace Green", MemberRole.MEMBER, None),
    ("Harry Hall", MemberRole.MEMBER, None),
]
SEASON = ("2026 League", dt.date(2026, 1, 1), dt.date(2026, 12, 31))
SESSION_DATE = dt.date(2026, 11, 14)
# Table 1 in drawn order round the table: East, South, West, North at the first hand.
TABLE = ["Alice Archer", "Bob Barnes", "Carol Chen", "David Dunn"]

# Sheet 19's hands as the sheet lists them, used only when the shared examples are absent.
FALLBACK_EXAMPLES = [
    {
        "name": "Hand 1", "seat_wind": "S", "prevailing_wind": "E", "goulash": False,
        "win_from": "discard",
        "melds": [
            {"kind": "pung", "tile": "b1", "concealed": False},
            {"kind": "pung", "tile": "dr", "concealed": False},
            {"kind": "pung", "tile": "b6", "concealed": True},
            {"kind": "kong", "tile": "b9", "concealed": False},
            {"kind": "pair", "tile": "we", "concealed": True},
        ],
        "bonus": ["f2"],
    },
    {
        "name": "Hand 2", "seat_wind": "N", "prevailing_wind": "E", "goulash": False,
        "win_from": "wall",
        "melds": [
            {"kind": "chow", "tile": "c2", "concealed": True},
            {"kind": "pung", "tile": "c8", "concealed": False},
            {"kind": "pung", "tile": "wn", "concealed": False},
            {"kind": "pung", "tile": "ws", "concealed": True},
            {"kind": "pair", "tile": "c9", "concealed": True},
        ],
        "bonus": ["f4", "s1"],
    },
    {
        "name": "Hand 3", "seat_wind": "W", "prevailing_wind": "W", "goulash": True,
        "win_from": "discard", "last_discard": True,
        "melds": [
            {"kind": "pung", "tile": "d4", "concealed": False},
            {"kind": "pung", "tile": "d8", "concealed": False},
            {"kind": "pung", "tile": "ww", "concealed": False},
            {"kind": "kong", "tile": "d9", "concealed": True},
            {"kind": "pair", "tile": "d6", "concealed": True},
        ],
        "bonus": ["f3", "s3"],
    },
]


def load_examples(path: Path = EXAMPLES_FILE) -> list[dict]:
    if path.is_file():
        return json.loads(path.read_text())["hands"]
    return FALLBACK_EXAMPLES


def _tiles(kind: str, tile: str) -> list[str]:
    if kind == "chow":
        return [f"{tile[0]}{int(tile[1:]) + step}" for step in range(3)]
    return [tile] * {"pair": 2, "pung": 3, "kong": 4}[kind]


def contract_hand(example: dict) -> dict:
    """The contract's hand JSON a scorer would type for one of Sheet 19's winning hands.

    Exposed sets and concealed kongs are declared melds; the other concealed sets are tiles
    still held. The winning tile completes the pair, as the sheet's points for the concealed
    pungs show.
    """
    melds, held = [], []
    for meld in example["melds"]:
        kind, tile = meld["kind"], meld["tile"]
        if meld["concealed"] and kind != "kong":
            held += _tiles(kind, tile)
        else:
            melds.append({"kind": kind, "tile": tile, "concealed": meld["concealed"]})
    pair = next(m["tile"] for m in example["melds"] if m["kind"] == "pair")
    return {
        "seat_wind": example["seat_wind"],
        "prevailing_wind": example["prevailing_wind"],
        "mahjong": True,
        "melds": melds,
        "concealed": held,
        "bonus": list(example["bonus"]),
        "win": {
            "tile": pair,
            "from": example["win_from"],
            "last_wall_tile": False,
            "last_discard": bool(example.get("last_discard", False)),
            "robbed_kong": False,
            "kong_replacement": False,
            "original_call": False,
        },
        "goulash": bool(example["goulash"]),
        "fishing": False,
    }


@dataclass(frozen=True)
class DemoHand:
    """One recorded hand: who dealt, who won (by starting seat name), what each seat entered.

    ``entries`` maps a player's name to an example index (a full hand) or a quick score.
    """

    prevailing: str
    dealer: str
    winner: str | None
    discarder: str | None
    win_source: str
    entries: dict[str, int | dict]
    goulash: bool = False
    draw: bool = False


def _quick(score: int) -> dict:
    return {"score": score}


# A club night under BMJA rotation (004 Sheet 16): the deal passes after every Mah Jong except
# East's, stays after a wall game (followed by a goulash), and the round's wind moves on when
# the first East deals again. Hands 1, 2 and 12 are Sheet 19's hands 1, 2 and 3.
A, B, C, D = TABLE
HANDS = [
    DemoHand("E", A, B, C, "discard", {A: _quick(12), B: 0, C: _quick(36), D: _quick(0)}),
    DemoHand("E", B, A, None, "wall", {B: _quick(8), C: _quick(24), D: _quick(4), A: 1}),
    DemoHand("E", C, C, None, "wall", {C: _quick(104), D: _quick(16), A: _quick(0), B: _quick(28)}),
    DemoHand("E", C, None, None, "", {C: _quick(0), D: _quick(0), A: _quick(0), B: _quick(0)},
             draw=True),
    DemoHand("E", C, D, B, "discard", {C: _quick(8), D: _quick(256), A: _quick(0), B: _quick(12)},
             goulash=True),
    DemoHand("E", D, A, None, "wall", {D: _quick(20), A: _quick(144), B: _quick(0), C: _quick(6)}),
    DemoHand("S", A, B, D, "discard", {A: _quick(0), B: _quick(96), C: _quick(32), D: _quick(8)}),
    DemoHand("S", B, C, A, "discard", {B: _quick(16), C: _quick(480), D: _quick(0), A: _quick(40)}),
    DemoHand("S", C, D, None, "wall", {C: _quick(10), D: _quick(128), A: _quick(24), B: _quick(0)}),
    DemoHand("S", D, A, C, "discard", {D: _quick(36), A: _quick(208), B: _quick(4), C: _quick(0)}),
    DemoHand("W", A, None, None, "", {A: _quick(0), B: _quick(0), C: _quick(0), D: _quick(0)},
             draw=True),
    DemoHand("W", A, C, B, "discard", {A: _quick(16), B: _quick(0), C: 2, D: _quick(48)},
             goulash=True),
]

WIND_ORDER = [Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH]


def seat_wind(player: str, dealer: str) -> str:
    """The wind a player plays under when ``dealer`` is East (winds follow the seating)."""
    return WIND_ORDER[(TABLE.index(player) - TABLE.index(dealer)) % 4]


@transaction.atomic
def load_demo_club() -> Club:
    versions = ensure_builtin_house_rules()
    if HOUSE_RULE not in versions:
        raise LookupError(f"The scoring engine has no built-in house rule {HOUSE_RULE!r}.")
    version = versions[HOUSE_RULE]
    club, _ = Club.objects.update_or_create(
        slug=CLUB_SLUG,
        defaults={"name": CLUB_NAME, "published": True, "default_house_rule": version.record},
    )
    users = _logins()
    members = {}
    for name, role, username in MEMBERS:
        members[name], _ = Member.objects.update_or_create(
            club=club,
            display_name=name,
            defaults={"role": role, "user": users.get(username), "active": True},
        )
    season, _ = Season.objects.update_or_create(
        club=club, name=SEASON[0], defaults={"start": SEASON[1], "end": SEASON[2]}
    )
    session = ClubSession.objects.filter(club=club, date=SESSION_DATE).first()
    if session is None:
        session = ClubSession(
            club=club,
            date=SESSION_DATE,
            season=season,
            house_rule_version=version,
            notes="Demo club night: Sheet 19's scoring practice among quick-entry hands.",
        )
        session.freeze_goulash_rule()
        session.save()
    table, _ = Table.objects.get_or_create(session=session, number=1)
    seats = {}
    for position, name in enumerate(TABLE):
        seats[name], _ = Seat.objects.update_or_create(
            table=table,
            position=position,
            defaults={"member": members[name], "guest_name": "", "starting_wind": WIND_ORDER[position]},
        )
    _record_hands(table, seats, users.get("demo-scorer"))
    # The night's results and running totals are a derived cache: rebuild it from the entries
    # with the same code that records hands, so sheets and league tables show the demo night.
    from clubs.recording import recompute_table

    recompute_table(table)
    return club


def _logins() -> dict:
    User = get_user_model()
    users = {}
    for username, password in LOGINS.items():
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
        # The demo admin may use the Django admin; the scorer records hands only.
        user.is_staff = user.is_superuser = username == "demo-admin"
        user.save()
        users[username] = user
    return users


def _record_hands(table: Table, seats: dict, scorer) -> None:
    examples = load_examples()
    for number, demo in enumerate(HANDS, start=1):
        hand, _ = Hand.objects.update_or_create(
            table=table,
            number=number,
            defaults={
                "prevailing_wind": demo.prevailing,
                "dealer": seats[demo.dealer],
                "winner": seats[demo.winner] if demo.winner else None,
                "discarder": seats[demo.discarder] if demo.discarder else None,
                "win_source": demo.win_source,
                "draw": demo.draw,
                "goulash": demo.goulash,
                "created_by": scorer,
            },
        )
        for name, entry in demo.entries.items():
            if isinstance(entry, int):
                kind, data = EntryKind.FULL, contract_hand(examples[entry])
            else:
                kind, data = EntryKind.QUICK, entry
            HandEntry.objects.update_or_create(
                hand=hand,
                seat=seats[name],
                defaults={"seat_wind": seat_wind(name, demo.dealer), "kind": kind, "data": data},
            )
