"""completions(): the tiles a 13-tile hand waits for, with the readings each gives (fishing
part-scores, 004 Sheets 21-29; 004 Sheet 8 "Fishing hands")."""

from scoring.engine.arrange import completions
from scoring.engine.parse import parse_hand
from scoring.engine.rules.model import HouseRule, ScoringParams

RULE = HouseRule(slug="t", name="t", description="t")
ANY_CHOWS = HouseRule(slug="c", name="c", description="c", scoring=ScoringParams(max_chows=None))


def waiting(concealed, melds=(), rule=RULE, goulash=False):
    h = parse_hand({"seat_wind": "E", "prevailing_wind": "E", "mahjong": False,
                    "fishing": True, "goulash": goulash, "concealed": concealed.split(),
                    "melds": list(melds)})
    return completions(h, rule)


def tiles_of(found):
    return [tile for tile, _ in found]


def test_single_wait_on_the_pair():
    assert tiles_of(waiting("b1 b1 b1 dr dr dr b6 b6 b6 b9 b9 b9 we")) == ["we"]


def test_two_tiles_either_pung_sheet_8():
    """Two pairs: either tile makes a pung and leaves the other as the pair."""
    found = waiting("b1 b1 b1 dr dr dr b6 b6 b6 b9 b9 we we")
    assert tiles_of(found) == ["b9", "we"]
    assert all(a.shape == "standard" for _, readings in found for a in readings)


def test_chow_wait_only_where_chows_are_allowed_sheet_10():
    hand = "b1 b1 b1 dr dr dr b6 b6 b6 c4 c5 we we"
    assert tiles_of(waiting(hand)) == ["c3", "c6"]
    no_chows = HouseRule(slug="n", name="n", description="n", scoring=ScoringParams(max_chows=0))
    assert tiles_of(waiting(hand, rule=no_chows)) == []


def test_nine_gates_waits_on_every_tile_of_its_suit_sheet_27():
    found = waiting("c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c9 c9 c9")
    assert tiles_of(found) == [f"c{n}" for n in range(1, 10)]
    assert all(any(a.shape == "gates_of_heaven" for a in readings) for _, readings in found)


def test_thirteen_orphans_fishing_sheet_22():
    found = waiting("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw")
    assert len(found) == 13
    assert all({a.shape for a in readings} == {"thirteen_orphans"} for _, readings in found)


def test_fishing_for_knitting_sheet_24():
    found = waiting("b1 c1 b3 c3 b4 c4 b5 c5 b7 c7 b8 c8 b9")
    assert tiles_of(found) == ["c9"]
    assert found[0][1][0].shape == "knitting"


def test_a_fifth_copy_is_never_waited_for():
    found = waiting("b1 b1 b1 b1 dr dr dr b6 b6 b6 b9 b9 b9")
    assert "b1" not in tiles_of(found)
    assert tiles_of(found) == []


def test_declared_melds_stay_in_every_completion():
    found = waiting("b6 b6 b6 b9 b9 b9 we", melds=[{"kind": "pung", "tile": "b1"},
                                                    {"kind": "kong", "tile": "dr"}])
    assert tiles_of(found) == ["we"]
    [reading] = found[0][1]
    assert [s.declared for s in reading.sets][:2] == [True, True]


def test_not_one_tile_away():
    assert waiting("b1 b3 b5 b7 c2 c4 c6 c8 d1 d3 d5 dr wn") == []
