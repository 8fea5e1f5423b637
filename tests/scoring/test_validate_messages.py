"""Each error code's path and sentence: what is wrong and how to mend it (developer guide;
contract "Errors"). One row per code; the hand is built in code where JSON could not say it."""

import pytest

from scoring.engine.errors import HandError
from scoring.engine.hand import Hand, Meld, Win
from scoring.engine.parse import parse_hand
from scoring.engine.rules.model import HouseRule
from scoring.engine.validate import validate_hand

RULE = HouseRule(slug="t", name="t", description="t")
TILES = ("b6",) * 3 + ("dr",) * 3 + ("b9",) * 3 + ("c1",) * 3 + ("we", "we")


def built(**changes):
    values = {"seat_wind": "S", "prevailing_wind": "E", "mahjong": True, "concealed": TILES,
              "win": Win("we", "discard"), **changes}
    return Hand(**values)


CASES = [
    ("bad_wind", "seat_wind", built(seat_wind="SW"), "use E, S, W or N"),
    ("bad_meld_kind", "melds.0.kind", built(melds=(Meld("set", "b1"),),
                                            concealed=TILES[3:]), "use pung, kong, chow or pair"),
    ("unknown_tile", "melds.0.tile", built(melds=(Meld("pung", "b0"),), concealed=TILES[3:]),
     "give the set's own tile"),
    ("unknown_tile", "concealed", built(concealed=(*TILES[:-1], "zz")), "is not a tile"),
    ("bonus_not_playable", "concealed", built(concealed=(*TILES[:-1], "s1")), "Move it to 'bonus'"),
    ("bonus_not_playable", "win.tile", built(win=Win("f1")), "Give the playing tile"),
    ("not_bonus", "bonus", built(bonus=("b5",)), "only f1-f4 and s1-s4"),
    ("fifth_copy", "bonus", built(bonus=("f1", "f1")), "only one of each flower"),
    ("fifth_copy", "concealed", built(melds=(Meld("kong", "b6"),), concealed=TILES[:-2] + ("b6",
                                      "b6")), "a set has only four of each tile"),
    ("bad_added", "melds.0.added", built(melds=(Meld("kong", "b1", True, True),),
                                         concealed=TILES[3:]), "either concealed"),
    ("chow_on_honours", "melds.0.tile", built(melds=(Meld("chow", "wn"),), concealed=TILES[3:]),
     "winds and dragons cannot form chows"),
    ("chow_out_of_sequence", "melds.0.tile", built(melds=(Meld("chow", "b9"),),
                                                   concealed=TILES[3:]), "lowest tile, 1 to 7"),
    ("too_many_chows", "melds", built(melds=(Meld("chow", "b1"), Meld("chow", "c4")),
                                      concealed=TILES[6:]), "allows 1"),
    ("chow_in_goulash", "melds", built(goulash=True, melds=(Meld("chow", "b1"),),
                                       concealed=TILES[3:]), "not allowed in a goulash"),
    ("too_many_pairs", "melds", built(melds=(Meld("pair", "b1"), Meld("pair", "b2")),
                                      concealed=TILES[:-2] + ("b3", "b3")), "one pair"),
    ("wrong_tile_count", "concealed", built(concealed=TILES[:-1]), "has 14 playing tiles"),
    ("wrong_tile_count", "melds.0.tiles", built(melds=(Meld("pung", "b1", tiles=("b1",)),),
                                                concealed=TILES[3:]), "list each tile"),
    ("meld_tiles_mismatch", "melds.0.tiles", built(melds=(Meld("pung", "b1",
                                                               tiles=("b1", "b1", "c1")),),
                                                   concealed=TILES[3:]), "does not belong"),
    ("joker_not_allowed", "concealed", built(concealed=(*TILES[:-1], "jwe")), "goulash"),
    ("joker_not_allowed", "melds.0.tiles", built(melds=(Meld("pung", "b1",
                                                             tiles=("b1", "b1", "j")),),
                                                 concealed=TILES[3:]), "goulash"),
    ("too_many_jokers", "melds.0.tiles", built(goulash=True, melds=(
        Meld("kong", "b1", tiles=("b1", "b1", "b2", "b2")),), concealed=TILES[3:]), "allows 1"),
    ("wild_only_set", "melds.0.tiles", built(goulash=True, melds=(
        Meld("pair", "b1", tiles=("b2", "b2")),), concealed=TILES[:-2]), "needs a real tile"),
    ("win_tile_missing", "win.tile", built(win=Win("d5")), "is not in the hand"),
    ("missing_field", "win", built(win=None), "needs 'win'"),
    ("win_without_mahjong", "win", built(mahjong=False, concealed=TILES[:-1]), "Only the Mah Jong"),
    ("bad_win_source", "win.from", built(win=Win("we", "sky")), "use wall, discard"),
]


@pytest.mark.parametrize(("code", "path", "hand", "phrase"), CASES,
                         ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_each_code_has_its_path_and_a_mending_sentence(code, path, hand, phrase):
    with pytest.raises(HandError) as info:
        validate_hand(hand, RULE)
    matching = [p for p in info.value.problems if p.code == code and p.path == path]
    assert matching, info.value.problems
    assert phrase in matching[0].message
    assert matching[0].message.endswith(".")


def test_the_contract_example_message_for_a_fifth_tile():
    """contract "Errors": {"concealed": ["A fifth b6: a set has only four of each tile."]}."""
    data = {"seat_wind": "E", "prevailing_wind": "E", "mahjong": False,
            "melds": [{"kind": "kong", "tile": "b6"}],
            "concealed": ["b6", "dr", "dr", "dr", "b9", "b9", "b9", "c1", "c1", "c1"]}
    with pytest.raises(HandError) as info:
        validate_hand(parse_hand(data), RULE)
    body = info.value.as_drf()
    assert body["concealed"][0].startswith("A fifth b6: a set has only four of each tile.")
    assert info.value.prefixed("hands.E").as_drf()["hands"]["E"]["concealed"] == body["concealed"]
