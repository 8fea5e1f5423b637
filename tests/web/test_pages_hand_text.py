"""The typed hand text a scorer enters on the record page (clubs/hand_text.py).

Tile codes and meld shapes follow /work/shared/contract/README.md ("Tile codes", "A hand").
"""

import pytest

from clubs.hand_text import (
    HandTextError,
    melds_to_text,
    parse_bonus,
    parse_hand_text,
    parse_melds,
    parse_tiles,
)


def test_contract_example_hand_typed_as_text_gives_the_contract_json():
    """The contract's example hand (contract README, "A hand") typed in three fields."""
    result = parse_hand_text(
        melds="pung b1, kong b9 exposed, kong dr concealed, chow c2",
        concealed="b6 b6 b6 we we",
        bonus="f2 s2",
    )
    assert result == {
        "melds": [
            {"kind": "pung", "tile": "b1", "concealed": False},
            {"kind": "kong", "tile": "b9", "concealed": False},
            {"kind": "kong", "tile": "dr", "concealed": True},
            {"kind": "chow", "tile": "c2", "concealed": False},
        ],
        "concealed": ["b6", "b6", "b6", "we", "we"],
        "bonus": ["f2", "s2"],
    }


def test_any_case_and_separators_are_accepted_and_answered_lower_case():
    """Contract: "parsers accept any case and answer with lower case"."""
    assert parse_tiles("B6,b6;  WE\nDr") == ["b6", "b6", "we", "dr"]
    assert parse_melds("PUNG DG\nkong B9 Added") == [
        {"kind": "pung", "tile": "dg", "concealed": False},
        {"kind": "kong", "tile": "b9", "concealed": False, "added": True},
    ]


def test_jokers_are_tiles():
    """Contract tile table: `j` + the code it stands for, or a bare `j`."""
    assert parse_tiles("j jb5 b5") == ["j", "jb5", "b5"]


def test_empty_fields_give_empty_lists():
    assert parse_hand_text() == {"melds": [], "concealed": [], "bonus": []}


@pytest.mark.parametrize(
    ("text", "word"),
    [("b6 b10 we", "b10"), ("b6 x1", "x1"), ("dragon", "dragon")],
)
def test_an_unknown_tile_is_named_in_the_message(text, word):
    with pytest.raises(HandTextError) as err:
        parse_tiles(text)
    [message] = err.value.errors["concealed"]
    assert f"'{word}' is not a tile" in message


def test_a_flower_among_held_tiles_is_sent_to_the_bonus_field():
    with pytest.raises(HandTextError) as err:
        parse_tiles("b6 f1")
    assert "put it under bonus tiles" in err.value.errors["concealed"][0]


def test_a_playing_tile_among_bonus_tiles_is_refused():
    with pytest.raises(HandTextError) as err:
        parse_bonus("f1 b6")
    assert "'b6' is not a flower or season" in err.value.errors["bonus"][0]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("pong b1", "'pong' in 'pong b1' is not a set"),
        ("pung", "'pung' needs its tile"),
        ("pung b10", "'b10' is not a tile"),
        ("pung f1", "'f1' is not a tile"),
        ("chow we", "a chow is a run in one suit"),
        ("chow c8", "lowest tile, 1 to 7"),
        ("pung b1 sideways", "'sideways' in 'pung b1 sideways' is not understood"),
        ("pung b1 added", "only a kong can be 'added'"),
    ],
)
def test_a_wrong_meld_names_the_wrong_word(text, fragment):
    with pytest.raises(HandTextError) as err:
        parse_melds(text)
    assert fragment in err.value.errors["melds"][0]


def test_every_problem_is_reported_by_field_at_once():
    with pytest.raises(HandTextError) as err:
        parse_hand_text(melds="pung zz", concealed="b6 q", bonus="b1")
    assert set(err.value.errors) == {"melds", "concealed", "bonus"}


def test_melds_round_trip_through_text():
    typed = "pung b1, kong b9 concealed, kong dr added, chow c2"
    assert melds_to_text(parse_melds(typed)) == typed


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [
        ("pong b1", "Did you mean 'pung'?"),
        ("kan b9", "Did you mean 'kong'?"),
        ("chi c2", "Did you mean 'chow'?"),
        ("pung b1 concealde", "Did you mean 'concealed'?"),
    ],
)
def test_a_near_miss_gets_a_suggestion(text, suggestion):
    with pytest.raises(HandTextError) as err:
        parse_melds(text)
    assert err.value.errors["melds"][0].endswith(suggestion)


def test_a_word_far_from_any_gets_no_guess():
    with pytest.raises(HandTextError) as err:
        parse_melds("xyzzy b1")
    assert "Did you mean" not in err.value.errors["melds"][0]
