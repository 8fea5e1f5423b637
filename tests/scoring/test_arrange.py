"""arrangements(): every reading of a Mah Jong hand; partial readings of a losing hand.

Worked hands: shared/examples/bmja-scoring-practice.json (004 Sheet 19). Special shapes:
004 Sheets 22-27 and 003 "special concealed hands"."""

import pytest

from scoring.engine.arrange import arrangement_tiles, arrangements
from scoring.engine.hand import Meld
from scoring.engine.parse import parse_hand
from scoring.engine.rules.model import HouseRule, ScoringParams
from scoring.engine.tiles import sorted_tiles
from scoring.engine.validate import validate_hand
from tests.conftest import load_example

RULE = HouseRule(slug="t", name="t", description="t")
ANY_CHOWS = HouseRule(slug="c", name="c", description="c", scoring=ScoringParams(max_chows=None))
PRACTICE = load_example("bmja-scoring-practice.json")["hands"]


def hand(concealed, melds=(), win=None, source="wall", **extra):
    tiles = concealed.split() if isinstance(concealed, str) else list(concealed)
    data = {"seat_wind": "S", "prevailing_wind": "E", "mahjong": True, "concealed": tiles,
            "melds": list(melds), "win": {"tile": win or tiles[-1], "from": source}, **extra}
    return parse_hand(data)


def readings(h, rule=RULE):
    validate_hand(h, rule)
    return arrangements(h, rule)


def summary(arrangement):
    return sorted((s.kind, s.tile, s.concealed) for s in arrangement.sets)


def melds_of(example):
    return sorted((m["kind"], m["tile"], m["concealed"]) for m in example["melds"])


@pytest.mark.parametrize("index", [0, 1, 2])
def test_sheet_19_hands_from_the_given_melds(index):
    """004 Sheet 19: the sets as the answer sheet lists them are kept as they are."""
    example = PRACTICE[index]
    data = {"seat_wind": example["seat_wind"], "prevailing_wind": example["prevailing_wind"],
            "mahjong": True, "goulash": example["goulash"], "melds": example["melds"],
            "concealed": [], "bonus": example["bonus"],
            "win": {"tile": example["melds"][-1]["tile"], "from": example["win_from"]}}
    [arrangement] = readings(parse_hand(data))
    assert arrangement.shape == "standard"
    assert summary(arrangement) == melds_of(example)
    assert all(s.declared for s in arrangement.sets)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_sheet_19_hands_from_concealed_tiles(index):
    """004 Sheet 19: the same hands entered as tiles (kongs declared) read as the sheet does.
    Won on the pair's tile, the sets stay as the sheet shows them."""
    example = PRACTICE[index]
    kongs = [m for m in example["melds"] if m["kind"] == "kong"]
    tiles = []
    for m in example["melds"]:
        if m["kind"] == "pung":
            tiles += [m["tile"]] * 3
        elif m["kind"] == "pair":
            tiles += [m["tile"]] * 2
        elif m["kind"] == "chow":
            n = int(m["tile"][1])
            tiles += [f"{m['tile'][0]}{n + k}" for k in range(3)]
    pair = next(m["tile"] for m in example["melds"] if m["kind"] == "pair")
    h = hand(tiles, kongs, win=pair, source=example["win_from"], goulash=example["goulash"],
             seat_wind=example["seat_wind"])
    [arrangement] = readings(h)
    expected = sorted((kind, tile, True if kind != "kong" else concealed)
                      for kind, tile, concealed in melds_of(example))
    assert summary(arrangement) == expected


def test_discard_completing_a_pung_makes_it_exposed_sheet_14():
    """A set completed by a discard counts as exposed; a pair stays concealed."""
    h = hand("b1 b1 b1 dr dr dr b6 b6 b6 b9 b9 b9 we we", win="b6", source="discard")
    [arrangement] = readings(h)
    assert ("pung", "b6", False) in summary(arrangement)
    assert sum(1 for s in arrangement.sets if not s.concealed) == 1
    from_wall = hand("b1 b1 b1 dr dr dr b6 b6 b6 b9 b9 b9 we we", win="b6", source="wall")
    [arrangement] = readings(from_wall)
    assert all(s.concealed for s in arrangement.sets)


def test_discard_that_could_complete_two_sets_gives_both_readings():
    """b5 from a discard completes either the chow b4-b6 or the pair b5 b5."""
    h = hand("b4 b5 b5 b5 b6 c1 c1 c1 dr dr dr wn wn wn", win="b5", source="discard")
    found = {tuple(summary(a)) for a in readings(h)}
    assert (("chow", "b4", False), ("pair", "b5", True)) in {
        tuple(x for x in r if x[1] in ("b4", "b5")) for r in found}
    assert any(("chow", "b4", True) in r and ("pair", "b5", True) in r for r in found)


def test_chow_limit_counts_declared_chows_sheet_10():
    tiles = "b1 b2 b3 c4 c5 c6 dr dr dr wn wn wn we we"
    assert readings(hand(tiles), RULE) == []
    assert len(readings(hand(tiles), ANY_CHOWS)) == 1
    one_declared = hand("c4 c5 c6 dr dr dr wn wn wn we we", melds=[{"kind": "chow",
                                                                      "tile": "b1"}])
    assert readings(one_declared, ANY_CHOWS) and not arrangements(one_declared, RULE)


def test_every_reading_of_a_many_way_hand():
    """b1 b1 b1 b2 b2 b2 b3 b3 b3: three pungs or three chows (with chows allowed)."""
    h = hand("b1 b1 b1 b2 b2 b2 b3 b3 b3 c5 c5 c5 dr dr")
    shapes = {tuple(sorted(s.kind for s in a.sets)) for a in readings(h, ANY_CHOWS)}
    assert ("pair", "pung", "pung", "pung", "pung") in shapes
    assert ("chow", "chow", "chow", "pair", "pung") in shapes
    assert len(readings(h, RULE)) == 1


def test_no_reading_for_a_hand_that_is_not_complete():
    assert readings(hand("b1 b1 b1 b2 b2 b2 b3 b3 b4 c5 c5 c5 dr dr")) == []


def test_seven_pairs_all_pair_honours_sheet_22():
    [a] = readings(hand("b1 b1 b9 b9 c1 c1 dr dr we we we we wn wn"))
    assert a.shape == "seven_pairs"
    assert sorted(s.tile for s in a.sets) == ["b1", "b9", "c1", "dr", "we", "we", "wn"]
    assert all(s.kind == "pair" and s.concealed for s in a.sets)


def test_thirteen_orphans_sheet_22():
    [a] = readings(hand("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw b9"))
    assert a.shape == "thirteen_orphans"
    assert len(a.sets[0].tiles) == 13 and a.sets[1].tiles == ("b9",)


def test_wriggling_snake_sheet_23():
    [a] = readings(hand("b1 b1 b2 b3 b4 b5 b6 b7 b8 b9 we ws ww wn"))
    assert a.shape == "snake"
    run, winds, extra = a.sets
    assert run.tiles == tuple(f"b{n}" for n in range(1, 10))
    assert winds.tiles == ("we", "ws", "ww", "wn") and extra.tiles == ("b1",)


def test_little_and_great_snake_003():
    [little] = readings(hand("c1 c2 c3 c4 c5 c6 c7 c8 c9 we ws dr dg dw"))
    assert little.shape == "snake" and little.sets[1].tiles == ("we", "ws", "dr", "dg", "dw")
    great = [a for a in readings(hand("d1 d2 d3 d4 d5 d6 d7 d8 d9 dr dr dr wn wn"), ANY_CHOWS)]
    assert {a.shape for a in great} == {"snake", "standard"}
    snake = next(a for a in great if a.shape == "snake")
    assert [(s.kind, s.tile) for s in snake.sets[1:]] == [("pung", "dr"), ("pair", "wn")]


def test_knitting_sheet_24():
    [a] = readings(hand("b1 c1 b3 c3 b3 c3 b5 c5 b7 c7 b8 c8 b9 c9"))
    assert a.shape == "knitting" and len(a.sets) == 7
    assert all(s.kind == "group" and len(s.tiles) == 2 for s in a.sets)
    assert readings(hand("b1 c1 b3 d3 b3 c3 b5 c5 b7 c7 b8 c8 b9 c9")) == []


def test_triple_knitting_sheet_24():
    [a] = readings(hand("b1 c1 d1 b3 c3 d3 b5 c5 d5 b7 c7 d7 b9 d9"))
    assert a.shape == "triple_knitting"
    assert [s.tiles for s in a.sets][-1] == ("b9", "d9")
    assert all(len(s.tiles) == 3 for s in a.sets[:4])


def test_gates_of_heaven_sheet_27():
    found = readings(hand("d1 d1 d1 d2 d3 d4 d5 d6 d7 d8 d9 d9 d9 d5"), ANY_CHOWS)
    gates = [a for a in found if a.shape == "gates_of_heaven"]
    assert len(gates) == 1
    assert [(s.kind, s.tile) for s in gates[0].sets] == [
        ("pung", "d1"), ("group", "d2"), ("pung", "d9"), ("group", "d5")]
    assert any(a.shape == "standard" for a in found)


def test_special_shapes_only_without_declared_melds():
    h = hand("b1 b1 b9 b9 c1 c1 dr dr wn wn we we",
             melds=[{"kind": "pair", "tile": "dw", "concealed": True}])
    assert arrangements(h, RULE) == []


def test_arrangements_use_exactly_the_given_tiles():
    h = hand("b1 b1 b1 b2 b2 b2 b3 b3 b3 c5 c5 dr dr dr", melds=())
    for a in readings(h, ANY_CHOWS):
        assert arrangement_tiles(a) == sorted_tiles(h.concealed)


def test_declared_melds_keep_how_the_kong_was_made():
    h = hand("b1 b1 b1 b6 b6 b6 we we", melds=[
        {"kind": "kong", "tile": "dr", "concealed": True},
        {"kind": "kong", "tile": "b9", "added": True}])
    [a] = readings(h)
    assert [(s.kind, s.how, s.declared) for s in a.sets[:2]] == [
        ("kong", "concealed", True), ("kong", "added", True)]
    assert a.sets[0].concealed and not a.sets[1].concealed


def test_losing_hand_partial_readings():
    """BMJA: every hand is scored; a losing hand's complete sets and pairs count."""
    h = parse_hand({"seat_wind": "W", "prevailing_wind": "E", "mahjong": False,
                    "melds": [{"kind": "pung", "tile": "c7"}],
                    "concealed": "b1 b1 b1 dr dr b6 b7 b8 c9 c1".split()})
    validate_hand(h, RULE)
    found = arrangements(h, RULE)
    assert all(a.shape == "partial" for a in found)
    first = found[0]
    assert [(s.kind, s.tile) for s in first.sets] == [("pung", "c7"), ("pung", "b1"),
                                                      ("pair", "dr")]
    assert first.loose == ("b6", "b7", "b8", "c1", "c9")
    with_chow = [a for a in found if any(s.kind == "chow" for s in a.sets)]
    assert with_chow and with_chow[0].loose == ("c1", "c9")
    for a in found:
        assert sorted(arrangement_tiles(a)) == sorted(
            ["c7"] * 3 + list(h.concealed))


def test_meld_objects_are_not_changed():
    m = Meld("pung", "b1")
    h = hand("b6 b6 b6 dr dr dr b9 b9 b9 we we", melds=[{"kind": "pung", "tile": "b1"}])
    [a] = readings(h)
    assert h.melds == (m,) and a.sets[0].tile == "b1"


def test_hand_built_in_code_with_lists_is_still_read():
    """Hands built with lists cannot be cache keys; they are read without the cache."""
    from scoring.engine.hand import Hand, Win
    h = Hand("E", "E", True, melds=[Meld("pung", "b1", tiles=["b1", "b1", "b1"])],
             concealed=["b6"] * 3 + ["dr"] * 3 + ["b9"] * 3 + ["we", "we"], win=Win("we"))
    validate_hand(h, RULE)
    [a] = arrangements(h, RULE)
    assert a.sets[0].tiles == ("b1", "b1", "b1") and len(a.sets) == 5
