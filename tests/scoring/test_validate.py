"""validate_hand: impossible hands are errors, each with a path, a code and a mending sentence
(contract "A hand", last bullet; 004 Sheets 10, 11, 30; 001 "How wild tiles can be used")."""

import pytest

from scoring.engine.errors import HandError
from scoring.engine.hand import Hand, Meld, Win
from scoring.engine.parse import parse_hand
from scoring.engine.rules.model import HouseRule, ScoringParams
from scoring.engine.validate import _nth_copy, meld_wild_count, validate_hand

RULE = HouseRule(slug="t", name="t", description="t")
JOKER_RULE = HouseRule(slug="j", name="j", description="j",
                       scoring=ScoringParams(wild_tiles="joker", wild_max_in_pung=1,
                                             wild_max_in_kong=2))
NO_CHOWS = HouseRule(slug="three", name="three", description="3 players",
                     scoring=ScoringParams(max_chows=0, players=3))

HAND1 = {  # 004 Sheet 19 hand 1, all concealed but the melds the sheet shows exposed
    "seat_wind": "S", "prevailing_wind": "E", "mahjong": True,
    "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
              {"kind": "kong", "tile": "b9"}],
    "concealed": ["b6", "b6", "b6", "we", "we"],
    "bonus": ["f2"],
    "win": {"tile": "we", "from": "discard"},
}


def problems(data, rule=RULE, **kwargs):
    hand = parse_hand(data) if isinstance(data, dict) else data
    with pytest.raises(HandError) as info:
        validate_hand(hand, rule, **kwargs)
    return [(p.path, p.code, p.message) for p in info.value.problems]


def codes(data, rule=RULE, **kwargs):
    return {(path, code) for path, code, _ in problems(data, rule, **kwargs)}


def test_sheet_19_hand_1_is_valid():
    validate_hand(parse_hand(HAND1), RULE)


def test_fifth_copy_message():
    data = {**HAND1, "concealed": ["b6", "b6", "b6", "we", "b6"],
            "melds": [{"kind": "pung", "tile": "b6"}, {"kind": "pung", "tile": "dr"},
                      {"kind": "kong", "tile": "b9"}], "win": {"tile": "b6"}}
    found = problems(data)
    assert ("concealed", "fifth_copy") in {(p, c) for p, c, _ in found}
    message = next(m for p, c, m in found if c == "fifth_copy")
    assert message.startswith("A seventh b6: a set has only four of each tile.")


@pytest.mark.parametrize("copies, words", [
    (5, "A fifth"), (8, "An eighth"), (9, "A ninth"), (11, "An 11th"), (12, "A 12th"),
    (18, "An 18th"), (21, "A 21st"), (22, "A 22nd"), (23, "A 23rd"), (80, "An 80th"),
    (111, "A 111th"),
])
def test_copies_past_four_are_counted_in_good_english(copies, words):
    assert _nth_copy(copies) == words


def test_an_eighth_copy_is_named_so():
    data = {**HAND1, "concealed": ["b6", "b6", "b6", "b6", "b6"],
            "melds": [{"kind": "pung", "tile": "b6"}, {"kind": "pung", "tile": "dr"},
                      {"kind": "kong", "tile": "b9"}], "win": {"tile": "b6"}}
    message = next(m for _, c, m in problems(data) if c == "fifth_copy")
    assert message.startswith("An eighth b6: a set has only four of each tile.")


def test_fifth_copy_counts_jokers_standing_in():
    data = {**HAND1, "goulash": True, "concealed": ["b6", "b6", "b6", "we", "we"],
            "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                      {"kind": "pung", "tile": "b6", "tiles": ["b6", "b6", "jb6"]}]}
    data["concealed"] = ["b6", "b6", "b9", "we", "we"]
    assert ("concealed", "fifth_copy") in codes(data, JOKER_RULE)


def test_wrong_tile_count_for_mahjong_and_losing_hands():
    """A Mah Jong hand has 14 tiles, kongs counting 3; a losing hand 13 (004 Sheet 30)."""
    short = {**HAND1, "concealed": ["b6", "b6", "b6", "we"], "win": {"tile": "b6"}}
    [(path, code, message)] = problems(short)
    assert (path, code) == ("concealed", "wrong_tile_count") and "has 13" in message
    losing = {**HAND1, "mahjong": False, "win": None}
    [(path, code, message)] = problems(losing)
    assert (path, code) == ("concealed", "wrong_tile_count") and "13 playing tiles" in message
    losing_short = {**losing, "concealed": ["b6", "b6", "b6"]}
    assert codes(losing_short) == {("concealed", "wrong_tile_count")}
    validate_hand(parse_hand(losing_short), RULE, allow_short_losing=True)
    validate_hand(parse_hand({**losing, "concealed": ["b6", "b6", "b6", "we"]}), RULE)


def test_chow_on_honours_and_out_of_sequence_sheet_10():
    data = {**HAND1, "melds": [{"kind": "chow", "tile": "we"}, {"kind": "chow", "tile": "b8"},
                               {"kind": "kong", "tile": "b9"}]}
    found = codes(data, HouseRule(slug="a", name="a", description="a",
                                  scoring=ScoringParams(max_chows=None)))
    assert found == {("melds.0.tile", "chow_on_honours"), ("melds.1.tile", "chow_out_of_sequence")}


def test_too_many_chows_sheet_10_one_per_hand():
    data = {**HAND1, "melds": [{"kind": "chow", "tile": "b1"}, {"kind": "chow", "tile": "c2"},
                               {"kind": "kong", "tile": "b9"}]}
    [(path, code, message)] = problems(data)
    assert (path, code) == ("melds", "too_many_chows") and "allows 1" in message


def test_no_chows_for_three_players_001():
    data = {**HAND1, "melds": [{"kind": "chow", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                               {"kind": "kong", "tile": "b9"}]}
    [(path, code, message)] = problems(data, NO_CHOWS)
    assert (path, code) == ("melds", "too_many_chows") and "no chows" in message


def test_chow_in_goulash_sheet_11_item_11():
    data = {**HAND1, "goulash": True,
            "melds": [{"kind": "chow", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                      {"kind": "kong", "tile": "b9"}]}
    assert codes(data) == {("melds", "chow_in_goulash")}


def test_joker_not_allowed_outside_a_joker_goulash():
    data = {**HAND1, "concealed": ["b6", "b6", "jb6", "we", "we"]}
    assert codes(data) == {("concealed", "joker_not_allowed")}
    assert codes({**data, "goulash": True}) == {("concealed", "joker_not_allowed")}
    assert codes(data, JOKER_RULE) == {("concealed", "joker_not_allowed")}
    validate_hand(parse_hand({**data, "goulash": True}), JOKER_RULE)


def test_too_many_jokers_in_a_meld_001():
    """001: one wild tile in a pair or pung, at most two in a kong, never all wild."""
    base = {**HAND1, "goulash": True}
    pung = {**base, "melds": [{"kind": "pung", "tile": "b1", "tiles": ["b1", "j", "jb1"]},
                              {"kind": "pung", "tile": "dr"}, {"kind": "kong", "tile": "b9"}]}
    [(path, code, message)] = problems(pung, JOKER_RULE)
    assert (path, code) == ("melds.0.tiles", "too_many_jokers") and "allows 1" in message
    kong = {**base, "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                              {"kind": "kong", "tile": "b9", "tiles": ["b9", "b9", "j", "j"]}]}
    validate_hand(parse_hand(kong), JOKER_RULE)
    all_wild = {**base, "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                                  {"kind": "kong", "tile": "b9", "tiles": ["j"] * 4}]}
    assert codes(all_wild, JOKER_RULE) == {("melds.2.tiles", "wild_only_set")}


def test_two_bamboo_wild_limit_sheet_11_item_4():
    """004 Sheet 11 item 4: not more than one 2 bamboo in any pung or kong."""
    data = {**HAND1, "goulash": True,
            "melds": [{"kind": "pung", "tile": "b1"}, {"kind": "pung", "tile": "dr"},
                      {"kind": "kong", "tile": "b9", "tiles": ["b9", "b9", "b2", "b2"]}]}
    assert codes(data) == {("melds.2.tiles", "too_many_jokers")}
    one = {**data, "melds": [*data["melds"][:2],
                             {"kind": "kong", "tile": "b9", "tiles": ["b9", "b9", "b9", "b2"]}]}
    validate_hand(parse_hand(one), RULE)
    assert meld_wild_count(parse_hand(one).melds[2], "b2") == 1


def test_meld_tiles_must_match_the_meld():
    data = {**HAND1, "melds": [{"kind": "pung", "tile": "b1", "tiles": ["b1", "b1", "b3"]},
                               {"kind": "pung", "tile": "dr", "tiles": ["dr", "dr"]},
                               {"kind": "kong", "tile": "b9"}]}
    assert codes(data) == {("melds.0.tiles", "meld_tiles_mismatch"),
                           ("melds.1.tiles", "wrong_tile_count")}


def test_win_tile_missing():
    data = {**HAND1, "win": {"tile": "c5", "from": "discard"}}
    [(path, code, message)] = problems(data)
    assert (path, code) == ("win.tile", "win_tile_missing") and "c5" in message
    in_meld = {**HAND1, "win": {"tile": "dr", "from": "discard"}}
    validate_hand(parse_hand(in_meld), RULE)


def test_bonus_not_playable_and_not_bonus():
    data = {**HAND1, "concealed": ["b6", "b6", "b6", "we", "f1"], "bonus": ["b3", "f2", "f2"]}
    found = codes(data)
    assert ("concealed", "bonus_not_playable") in found
    assert ("bonus", "not_bonus") in found and ("bonus", "fifth_copy") in found


def test_hand_built_in_code_bad_wind_kind_and_pairs():
    hand = Hand(seat_wind="X", prevailing_wind="E", mahjong=True,
                melds=(Meld("triple", "b1"), Meld("pair", "b2"), Meld("pair", "b3"),
                       Meld("pung", "f1"), Meld("pung", "b4", added=True)),
                concealed=("b5",) * 3 + ("b6",) * 3, win=Win("b5", "wall"))
    assert codes(hand) == {("seat_wind", "bad_wind"), ("melds.0.kind", "bad_meld_kind"),
                           ("melds.3.tile", "bonus_not_playable"), ("melds.4.added", "bad_added"),
                           ("melds", "too_many_pairs"), ("concealed", "wrong_tile_count")}


def test_win_missing_or_not_allowed_for_hands_built_in_code():
    hand = Hand(seat_wind="E", prevailing_wind="E", mahjong=True,
                concealed=("b1",) * 3 + ("b2",) * 3 + ("b3",) * 3 + ("b4",) * 3 + ("b5",) * 2)
    assert codes(hand) == {("win", "missing_field")}
    losing = Hand(seat_wind="E", prevailing_wind="E", mahjong=False, concealed=hand.concealed[:13],
                  win=Win("b1"))
    assert codes(losing) == {("win", "win_without_mahjong")}


def test_every_problem_is_listed_together():
    data = {**HAND1, "concealed": ["b6", "b6", "jb6", "we", "f3"],
            "melds": [{"kind": "chow", "tile": "dr"}, {"kind": "chow", "tile": "c2"},
                      {"kind": "kong", "tile": "b9"}], "win": {"tile": "c9"}}
    found = {code for _, code in codes(data)}
    assert {"joker_not_allowed", "bonus_not_playable", "chow_on_honours", "win_tile_missing"} <= found
