"""parse_hand: the contract's hand JSON (shared/contract/README.md, "A hand") to a Hand."""

import pytest

from scoring.engine.errors import HandError, Problem
from scoring.engine.hand import Hand, Meld, Win
from scoring.engine.parse import parse_hand

CONTRACT_HAND = {
    "rules": "bmja",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "mahjong": True,
    "melds": [
        {"kind": "pung", "tile": "b1", "concealed": False},
        {"kind": "kong", "tile": "b9", "concealed": False},
        {"kind": "kong", "tile": "dr", "concealed": True},
        {"kind": "chow", "tile": "c2", "concealed": False},
    ],
    "concealed": ["b6", "b6", "b6", "we", "we"],
    "bonus": ["f2", "s2"],
    "win": {"tile": "we", "from": "discard", "last_wall_tile": False, "last_discard": False,
            "robbed_kong": False, "kong_replacement": False, "original_call": False},
    "goulash": False,
    "fishing": False,
}


def problems_of(data) -> list[Problem]:
    with pytest.raises(HandError) as info:
        parse_hand(data)
    return info.value.problems


def test_contract_example_parses():
    hand = parse_hand(CONTRACT_HAND)
    assert isinstance(hand, Hand)
    assert hand.seat_wind == "S" and hand.prevailing_wind == "E" and hand.mahjong
    assert hand.melds[1] == Meld("kong", "b9") and hand.melds[1].how == "claimed"
    assert hand.melds[2].how == "concealed"
    assert hand.concealed == ("b6", "b6", "b6", "we", "we")
    assert hand.bonus == ("f2", "s2")
    assert hand.win == Win("we", "discard")
    assert hand.rules == "bmja" and hand.players is None


def test_any_case_is_accepted_and_answered_lower_case():
    data = {**CONTRACT_HAND, "seat_wind": "s", "concealed": ["B6", "b6", "B6", "WE", "We"],
            "melds": [{"kind": "PUNG", "tile": "B1"}], "win": {"tile": "WE", "from": "Wall"}}
    hand = parse_hand(data)
    assert hand.seat_wind == "S"
    assert hand.concealed == ("b6", "b6", "b6", "we", "we")
    assert hand.melds == (Meld("pung", "b1"),)
    assert hand.win.tile == "we" and hand.win.source == "wall"


def test_losing_hand_needs_no_win_and_players_optional():
    hand = parse_hand({"seat_wind": "W", "prevailing_wind": "E", "concealed": ["b1"] * 3,
                       "players": 3})
    assert not hand.mahjong and hand.win is None and hand.players == 3


def test_added_kong_and_joker_tiles():
    hand = parse_hand({**CONTRACT_HAND, "goulash": True, "melds": [
        {"kind": "kong", "tile": "b9", "added": True},
        {"kind": "pung", "tile": "c4", "tiles": ["c4", "c4", "JC4"]}]})
    assert hand.melds[0].how == "added"
    assert hand.melds[1].tiles == ("c4", "c4", "jc4")


def test_every_problem_is_listed_with_its_path():
    data = {
        "seat_wind": "X",
        "prevailing_wind": None,
        "mahjong": "yes",
        "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "triple", "tile": "zz"}, 7],
        "concealed": ["b6", "x9", 5],
        "bonus": "f1",
    }
    found = {(p.path, p.code) for p in problems_of(data)}
    assert found == {
        ("seat_wind", "bad_wind"),
        ("prevailing_wind", "missing_field"),
        ("mahjong", "wrong_type"),
        ("melds.1.kind", "bad_meld_kind"),
        ("melds.1.tile", "unknown_tile"),
        ("melds.2", "wrong_type"),
        ("concealed", "unknown_tile"),
        ("concealed", "wrong_type"),
        ("bonus", "wrong_type"),
    }


def test_unknown_tile_message_says_how_to_mend():
    [problem] = problems_of({**CONTRACT_HAND, "concealed": ["b6", "b6", "b6", "we", "q1"]})
    assert problem.path == "concealed" and problem.code == "unknown_tile"
    assert "'q1' (tile 5) is not a tile" in problem.message and "b1-b9" in problem.message


def test_win_is_required_for_mahjong_and_refused_otherwise():
    missing = problems_of({**CONTRACT_HAND, "win": None})
    assert [(p.path, p.code) for p in missing] == [("win", "missing_field")]
    extra = problems_of({**CONTRACT_HAND, "mahjong": False})
    assert [(p.path, p.code) for p in extra] == [("win", "win_without_mahjong")]


def test_win_fields_checked():
    found = {(p.path, p.code) for p in problems_of(
        {**CONTRACT_HAND, "win": {"tile": 3, "from": "sky", "last_discard": "no"}})}
    assert found == {("win.tile", "wrong_type"), ("win.from", "bad_win_source"),
                     ("win.last_discard", "wrong_type")}


def test_missing_meld_fields_and_players():
    found = {(p.path, p.code) for p in problems_of(
        {**CONTRACT_HAND, "melds": [{"concealed": 1}], "players": True})}
    assert found == {("melds.0.kind", "missing_field"), ("melds.0.tile", "missing_field"),
                     ("melds.0.concealed", "wrong_type"), ("players", "wrong_type")}


@pytest.mark.parametrize("data", [None, [], "hand", 3, 2.5, True])
def test_not_an_object(data):
    [problem] = problems_of(data)
    assert problem.path == "" and problem.code == "wrong_type"


def test_huge_lists_are_refused_without_reading_each_element():
    found = problems_of({**CONTRACT_HAND, "concealed": ["b1"] * 100000,
                         "melds": [{}] * 1000})
    assert {(p.path, p.code) for p in found} == {
        ("concealed", "wrong_tile_count"), ("melds", "too_many_melds")}


def test_as_drf_shape_lists_with_empty_entries():
    """contract "Errors": DRF body, a list with {} for each valid entry of a list field."""
    with pytest.raises(HandError) as info:
        parse_hand({**CONTRACT_HAND, "seat_wind": "Q", "concealed": ["zz"],
                    "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "b0"},
                              {"kind": "pung", "tile": "b2"}]})
    body = info.value.as_drf()
    assert body["seat_wind"] == ["'Q' is not a wind: use E, S, W or N."]
    assert body["melds"][0] == {} and body["melds"][2] == {}
    assert list(body["melds"][1]) == ["tile"] and len(body["melds"]) == 3
    assert len(body["concealed"]) == 1 and "'zz'" in body["concealed"][0]


def test_prefixed_nests_under_a_settlement_seat():
    with pytest.raises(HandError) as info:
        parse_hand({**CONTRACT_HAND, "melds": [{"kind": "pung", "tile": "b0"}]})
    nested = info.value.prefixed("hands.E")
    assert nested.problems[0].path == "hands.E.melds.0.tile"
    body = nested.as_drf()
    assert list(body["hands"]["E"]["melds"][0]) == ["tile"]


def test_whole_hand_problem_goes_to_non_field_errors():
    err = HandError([Problem("", "wrong_type", "Send an object.")])
    assert err.as_drf() == {"non_field_errors": ["Send an object."]}
    assert err.prefixed("hands.N").as_drf() == {"hands": {"N": ["Send an object."]}}
