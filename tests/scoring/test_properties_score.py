"""Properties of ``score_hand`` over random legal hands under ``bmja`` (hypothesis):

- the chosen arrangement uses exactly the hand's tiles, no more and no fewer;
- score = points x 2^doubles unless a limit applies;
- the result is the same every time;
- no input, however malformed, raises anything but ``HandError``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import HandError, get_house_rule, parse_hand, score_hand
from scoring.engine.tiles import HONOUR_CODES, SUIT_CODES, chow_tiles

BMJA = get_house_rule("bmja")
PLAYING = SUIT_CODES + HONOUR_CODES
CHOW_STARTS = tuple(c for c in SUIT_CODES if int(c[1]) <= 7)
BONUS = ("f1", "f2", "f3", "f4", "s1", "s2", "s3", "s4")
WINDS = ("E", "S", "W", "N")
SIZE = {"pung": 3, "kong": 4, "pair": 2}


def meld_tiles(kind: str, tile: str, tiles=()) -> list[str]:
    if tiles:
        return list(tiles)
    if kind == "chow":
        return list(chow_tiles(tile))
    return [tile] * SIZE[kind]


@st.composite
def set_specs(draw, chows_allowed: bool):
    kinds = ["pung", "pung", "kong"] + (["chow"] if chows_allowed else [])
    kind = draw(st.sampled_from(kinds))
    tile = draw(st.sampled_from(CHOW_STARTS if kind == "chow" else PLAYING))
    return kind, tile


@st.composite
def winning_hands(draw):
    """Four sets (at most one chow, 004 Sheet 10) and a pair, each set declared exposed,
    declared concealed or held; kongs always declared; the winning tile among the held."""
    counts: Counter = Counter()
    melds, held = [], []
    chows = 0
    for _ in range(4):
        kind, tile = draw(set_specs(chows_allowed=chows == 0))
        chows += kind == "chow"
        tiles = meld_tiles(kind, tile)
        counts.update(tiles)
        way = "declared" if kind == "kong" else draw(st.sampled_from(["declared", "held"]))
        if way == "held":
            held += tiles
        else:
            concealed = draw(st.booleans())
            meld = {"kind": kind, "tile": tile, "concealed": concealed}
            if kind == "kong" and not concealed and draw(st.booleans()):
                meld["added"] = True
            melds.append(meld)
    pair = draw(st.sampled_from(PLAYING))
    counts.update([pair, pair])
    held += [pair, pair]
    assume(max(counts.values()) <= 4)
    return {
        "rules": "bmja",
        "seat_wind": draw(st.sampled_from(WINDS)),
        "prevailing_wind": draw(st.sampled_from(WINDS)),
        "mahjong": True,
        "melds": melds,
        "concealed": draw(st.permutations(held)),
        "bonus": draw(st.lists(st.sampled_from(BONUS), unique=True, max_size=8)),
        "win": {"tile": draw(st.sampled_from(held)),
                "from": draw(st.sampled_from(["wall", "discard", "kong_box"]))},
    }


@st.composite
def losing_hands(draw):
    """Thirteen playing tiles, a few of them declared as exposed pungs or kongs."""
    counts: Counter = Counter()
    melds = []
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["pung", "kong"]))
        tile = draw(st.sampled_from(PLAYING))
        counts.update(meld_tiles(kind, tile))
        melds.append({"kind": kind, "tile": tile})
    held = draw(st.lists(st.sampled_from(PLAYING), min_size=13 - 3 * len(melds),
                         max_size=13 - 3 * len(melds)))
    counts.update(held)
    assume(max(counts.values()) <= 4)
    return {
        "rules": "bmja",
        "seat_wind": draw(st.sampled_from(WINDS)),
        "prevailing_wind": draw(st.sampled_from(WINDS)),
        "mahjong": False,
        "melds": melds,
        "concealed": held,
        "bonus": draw(st.lists(st.sampled_from(BONUS), unique=True, max_size=4)),
        "fishing": draw(st.booleans()),
    }


def given_tiles(data: dict) -> Counter:
    tiles = Counter(data["concealed"])
    for meld in data["melds"]:
        tiles.update(meld_tiles(meld["kind"], meld["tile"]))
    return tiles


def used_tiles(result) -> Counter:
    tiles = Counter(result.loose)
    for meld in result.arrangement:
        tiles.update(meld_tiles(meld.kind, meld.tile, meld.tiles))
    return tiles


def check(data: dict) -> None:
    result = score_hand(parse_hand(data), BMJA)
    assert used_tiles(result) == given_tiles(data)
    if result.limit is None:
        assert result.score == result.points * 2 ** result.doubles
    else:
        assert result.special or result.fishing_for
    assert result.score >= 0
    assert result == score_hand(parse_hand(data), BMJA)


PROPERTY = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@PROPERTY
@given(winning_hands())
def test_winning_hands_use_exactly_their_tiles_and_score_points_times_doubles(data):
    check(data)


@PROPERTY
@given(losing_hands())
def test_losing_hands_use_exactly_their_tiles_and_score_points_times_doubles(data):
    check(data)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=True)
    | st.text(max_size=6) | st.sampled_from(PLAYING + BONUS + ("j", "jb5", "E", "pung")),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=6),
    max_leaves=20,
)
FIELDS = ("rules", "seat_wind", "prevailing_wind", "mahjong", "melds", "concealed", "bonus",
          "win", "goulash", "fishing", "players")


@st.composite
def malformed(draw):
    """A legal hand with some fields replaced by any JSON, or any JSON at all."""
    if draw(st.booleans()):
        return draw(JSON)
    data = dict(draw(st.one_of(winning_hands(), losing_hands())))
    for field in draw(st.lists(st.sampled_from(FIELDS + ("melds.0", "win.tile")),
                               min_size=1, max_size=3)):
        value = draw(JSON)
        if field == "melds.0" and isinstance(data["melds"], list) and data["melds"]:
            data["melds"] = [value, *data["melds"][1:]]
        elif field == "win.tile" and isinstance(data.get("win"), dict):
            data["win"] = {**data["win"], "tile": value}
        else:
            data[field] = value
    return data


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(malformed())
def test_malformed_input_raises_nothing_but_a_hand_error(data):
    try:
        result = score_hand(parse_hand(data), BMJA)
    except HandError as error:
        assert error.problems and all(p.message for p in error.problems)
        error.as_drf()
    else:
        assert result.score >= 0


def same_answers_with_and_without_shortcuts(data: dict) -> None:
    from scoring.engine.arrange import arrangements
    from scoring.engine.context import ScoringContext
    from scoring.engine.plan import count_matches
    from scoring.engine.rules.functions import RULE_FUNCTIONS
    from scoring.engine.score import plan_for

    hand = parse_hand(data)
    plan = plan_for(BMJA)
    side = plan.winner if hand.mahjong else plan.loser
    for arrangement in arrangements(hand, BMJA):
        ctx = ScoringContext(hand, BMJA, arrangement, hand.mahjong)
        every = {step.index: n for step in side
                 if (n := RULE_FUNCTIONS[step.item.rule](ctx, **step.item.kwargs))}
        assert count_matches(side, ScoringContext(hand, BMJA, arrangement, hand.mahjong)) == every


@PROPERTY
@given(st.one_of(winning_hands(), losing_hands()))
def test_the_orchestrators_shortcuts_give_what_asking_every_item_gives(data):
    """The facts a rule function needs (its registration's ``needs``) change how often it is
    asked, never its answer."""
    same_answers_with_and_without_shortcuts(data)


SPECIAL_SHAPES = [
    "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw",  # 13 Unique Wonders (004 Sheet 22)
    "b1 b1 b9 b9 c1 c1 dr dr dg dg we we wn wn",  # All Pair Honours (Sheet 22)
    "we ws ww wn c1 c1 c2 c3 c4 c5 c6 c7 c8 c9",  # Wriggling Snake (Sheet 23)
    "b1 c1 b3 c3 b4 c4 b4 c4 b7 c7 b8 c8 b9 c9",  # Knitting (Sheet 24)
    "b1 c1 d1 b3 c3 d3 b5 c5 d5 b9 c9 d9 b2 d2",  # Triple Knitting (Sheet 24)
    "d1 d1 d1 d2 d3 d4 d5 d6 d7 d8 d9 d9 d9 d5",  # Gates of Heaven (Sheet 27)
]


@pytest.mark.parametrize("tiles", SPECIAL_SHAPES)
def test_the_shortcuts_give_the_same_answers_for_special_shapes(tiles):
    held = tiles.split()
    same_answers_with_and_without_shortcuts({
        "rules": "bmja", "seat_wind": "E", "prevailing_wind": "E", "mahjong": True,
        "concealed": held, "bonus": ["f1", "f2", "f3", "f4"],
        "win": {"tile": held[-1], "from": "wall", "last_wall_tile": True}})
