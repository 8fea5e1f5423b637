"""Wild tiles in a goulash: 004 Sheet 11 item 4 (2 bamboo wild, at most one in a pung, kong or
pair) and 001 "How wild tiles can be used" (jokers: one in a pair or pung, two in a kong,
three or four in a special hand, never a set of wild tiles only; one more on a wild win)."""

from scoring.engine.arrange import arrangement_tiles, arrangements
from scoring.engine.parse import parse_hand
from scoring.engine.rules.model import HouseRule, ScoringParams
from scoring.engine.tiles import sorted_tiles
from scoring.engine.validate import validate_hand

BMJA = HouseRule(slug="t", name="t", description="t")


def joker_rule(**params):
    values = {"wild_tiles": "joker", "wild_max_in_pair": 1, "wild_max_in_pung": 1,
              "wild_max_in_kong": 2, "wild_max_in_special": 4, **params}
    return HouseRule(slug="j", name="j", description="j", scoring=ScoringParams(**values))


def goulash(concealed, melds=(), win=None, source="wall"):
    tiles = concealed.split()
    return parse_hand({"seat_wind": "W", "prevailing_wind": "W", "mahjong": True,
                       "goulash": True, "concealed": tiles, "melds": list(melds),
                       "win": {"tile": win or tiles[-1], "from": source}})


def _jokers_as_one(tiles):
    return sorted_tiles("j" if t.startswith("j") else t for t in tiles)


def readings(h, rule=BMJA):
    validate_hand(h, rule)
    found = arrangements(h, rule)
    mode = rule.scoring.wild_tiles
    for a in found:  # every reading uses exactly the tiles held
        declared = [t for s in a.sets if s.declared for t in arrangement_tiles(
            type(a)(a.shape, (s,)))]
        assert _jokers_as_one(arrangement_tiles(a, mode)) == _jokers_as_one(
            [*h.concealed, *declared])
    return found


def sets_of(a):
    return [(s.kind, s.tile, s.wild) for s in a.sets]


def test_two_bamboo_stands_in_a_pung_sheet_11():
    found = readings(goulash("b1 b1 b2 dr dr dr b6 b6 b6 b9 b9 b9 we we"))
    pung = [a for a in found if ("pung", "b1", 1) in sets_of(a)]
    assert pung and pung[0].sets[0].tiles == ("b1", "b1", "b2")
    assert all(s.wild <= 1 for a in found for s in a.sets)


def test_two_bamboo_makes_the_pair_sheet_11():
    [a] = readings(goulash("b1 b1 b1 dr dr dr b6 b6 b6 b9 b9 b9 we b2", win="b2"))
    assert ("pair", "we", 1) in sets_of(a)


def test_only_one_two_bamboo_in_a_pung_sheet_11():
    h = goulash("b1 b2 b2 dr dr dr b6 b6 b6 b9 b9 b9 we we")
    assert all(s.wild <= 1 for a in readings(h) for s in a.sets)
    two = HouseRule(slug="w", name="w", description="w",
                    scoring=ScoringParams(wild_max_in_pung=2))
    assert any(("pung", "b1", 2) in sets_of(a) for a in readings(h, two))


def test_two_bamboo_as_itself_sheet_11_item_10():
    found = readings(goulash("b2 b2 b2 dr dr dr b6 b6 b6 b9 b9 b9 we we"))
    assert any(("pung", "b2", 0) in sets_of(a) for a in found)


def test_no_wild_tiles_outside_a_goulash():
    h = parse_hand({"seat_wind": "W", "prevailing_wind": "W", "mahjong": True,
                    "concealed": "b1 b1 b2 dr dr dr b6 b6 b6 b9 b9 b9 we we".split(),
                    "win": {"tile": "we", "from": "wall"}})
    assert arrangements(h, BMJA) == []


def test_assigned_joker_counts_in_its_own_set_001():
    [a] = readings(goulash("b1 b1 jb1 dr dr dr b6 b6 b6 b9 b9 b9 we we"), joker_rule())
    assert a.sets[0].kind == "pung" and a.sets[0].tiles == ("b1", "b1", "jb1")
    assert a.sets[0].wild == 1


def test_two_jokers_cannot_share_a_pung_001():
    h = goulash("b1 jb1 jb1 dr dr dr b6 b6 b6 b9 b9 b9 we we")
    assert readings(h, joker_rule()) == []
    assert readings(h, joker_rule(wild_max_in_pung=2))


def test_never_a_set_of_wild_tiles_only_001():
    h = goulash("j j we we we dr dr dr b6 b6 b6 b9 b9 b9")
    assert readings(h, joker_rule(wild_max_in_pair=2, wild_max_in_pung=0)) == []


def test_one_more_wild_tile_when_a_wild_tile_wins_001():
    pair = [{"kind": "pair", "tile": "we", "concealed": True}]
    rule = joker_rule(wild_extra_on_wild_win=True)
    drawn_joker = goulash("b1 j j dr dr dr b6 b6 b6 b9 b9 b9", pair, win="j")
    [a] = readings(drawn_joker, rule)
    assert ("pung", "b1", 2) in sets_of(a)
    assert readings(drawn_joker, joker_rule()) == []
    assert readings(goulash("b1 j j dr dr dr b6 b6 b6 b9 b9 b9", pair, win="dr"), rule) == []


def test_jokers_in_a_special_hand_001():
    h = goulash("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg j j")
    found = readings(h, joker_rule())
    assert found and {a.shape for a in found} == {"thirteen_orphans"}
    assert all(sum(s.wild for s in a.sets) == 2 for a in found)
    assert all("jdw" in a.sets[0].tiles for a in found)
    b2 = readings(goulash("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw b2"))
    assert [a.sets[1].tiles for a in b2 if a.shape == "thirteen_orphans"] == [
        (f"j{t}",) for t in ("b1", "b9", "c1", "c9", "d1", "d9", "we", "ws", "ww", "wn", "dr",
                             "dg", "dw")]
    assert readings(h, joker_rule(wild_max_in_special=1)) == []


def test_seven_pairs_with_wild_tiles_never_a_pair_of_wilds():
    found = readings(goulash("b1 b1 c3 c3 d5 d5 dr dr we we wn wn b2 b2"))
    pairs = [a for a in found if a.shape == "seven_pairs"]
    assert pairs and all(
        s.tiles.count("b2") < 2 or s.tile == "b2" for a in pairs for s in a.sets)
    single = readings(goulash("b1 b1 c3 c3 d5 d5 dr dr we we wn wn ww b2"))
    assert any(("pair", "ww", 1) in sets_of(a) for a in single)


def test_wild_tile_fills_a_knitting_pair_and_a_snake():
    knit = readings(goulash("b1 c1 b3 c3 b4 c4 b5 c5 b7 c7 b8 c8 b9 j"), joker_rule())
    [knitting] = [a for a in knit if a.shape == "knitting"]
    assert knitting.sets[-1].tiles == ("b9", "jc9") and knitting.sets[-1].wild == 1
    snake = readings(goulash("d1 d1 d2 d3 d4 d5 d6 d7 d8 j we ws ww wn"), joker_rule())
    assert any(a.shape == "snake" and a.sets[0].wild == 1 for a in snake)


def test_declared_meld_with_wild_tiles_records_them():
    h = goulash("dr dr dr b6 b6 b6 b9 b9 b9 we we", melds=[
        {"kind": "pung", "tile": "c4", "tiles": ["c4", "c4", "b2"]}], win="we")
    [a] = readings(h)
    assert a.sets[0].declared and a.sets[0].wild == 1 and a.sets[0].tiles == ("c4", "c4", "b2")


def test_losing_goulash_hand_uses_wild_tiles_for_sets():
    h = parse_hand({"seat_wind": "N", "prevailing_wind": "E", "mahjong": False,
                    "goulash": True, "concealed": "b1 b1 b2 dr dr c3 c5 c7 c9 d1 d4 d6 d8".split()})
    validate_hand(h, BMJA)
    best = arrangements(h, BMJA)[0]
    assert [(s.kind, s.tile, s.wild) for s in best.sets] == [("pair", "b1", 0), ("pung", "dr", 1)]
    assert "b2" not in best.loose


def test_losing_goulash_hand_puts_wild_tiles_on_honours_first():
    """A wild tile is worth most in a set of dragons or winds (004 Sheet 14 points)."""
    h = parse_hand({"seat_wind": "N", "prevailing_wind": "E", "mahjong": False,
                    "goulash": True, "concealed": "c5 c5 b2 dr dr c3 c7 c9 d1 d4 d6 d8 we".split()})
    validate_hand(h, BMJA)
    best = arrangements(h, BMJA)[0]
    assert ("pung", "dr", 1) in [(s.kind, s.tile, s.wild) for s in best.sets]
    assert ("pair", "c5", 0) in [(s.kind, s.tile, s.wild) for s in best.sets]


def test_a_discarded_two_bamboo_is_only_itself_sheet_11_item_10():
    drawn = readings(goulash("b1 b1 dr dr dr b6 b6 b6 b9 b9 b9 we we b2", win="b2"))
    assert drawn
    assert readings(goulash("b1 b1 dr dr dr b6 b6 b6 b9 b9 b9 we we b2", win="b2",
                            source="discard")) == []
    as_itself = readings(goulash("b2 b2 dr dr dr b6 b6 b6 b9 b9 b9 we we b2", win="b2",
                                 source="discard"))
    assert any(("pung", "b2", 0) in sets_of(a) for a in as_itself)
