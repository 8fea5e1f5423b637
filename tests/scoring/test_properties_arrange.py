"""Property tests: any legal hand's readings use exactly its tiles; a losing hand always has a
reading; malformed input never raises anything but HandError (contract "Errors")."""

from collections import Counter

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.engine import tiles as T
from scoring.engine.arrange import arrangement_tiles, arrangements, completions
from scoring.engine.errors import HandError
from scoring.engine.hand import Hand, Meld, Win
from scoring.engine.parse import parse_hand
from scoring.engine.rules.model import HouseRule, ScoringParams
from scoring.engine.validate import validate_hand

ANY_CHOWS = HouseRule(slug="c", name="c", description="c",
                      scoring=ScoringParams(max_chows=None, goulash_max_chows=None))
BMJA = HouseRule(slug="t", name="t", description="t")
CHOW_STARTS = [c for c in T.SUIT_CODES if T.can_start_chow(c)]

a_set = st.one_of(
    st.tuples(st.just("pung"), st.sampled_from(T.PLAYING)),
    st.tuples(st.just("chow"), st.sampled_from(CHOW_STARTS)),
)


def set_tiles(kind, tile):
    return list(T.chow_tiles(tile)) if kind == "chow" else [tile] * {"pung": 3, "kong": 4}[kind]


@st.composite
def mahjong_hands(draw):
    sets = draw(st.lists(a_set, min_size=4, max_size=4))
    pair = draw(st.sampled_from(T.PLAYING))
    declare = draw(st.lists(st.sampled_from(["no", "exposed", "concealed_kong", "kong"]),
                            min_size=4, max_size=4))
    melds, concealed, physical = [], [pair, pair], [pair, pair]
    for (kind, tile), how in zip(sets, declare, strict=True):
        if how == "no":
            concealed += set_tiles(kind, tile)
            physical += set_tiles(kind, tile)
        elif kind == "pung" and how.endswith("kong"):
            melds.append(Meld("kong", tile, concealed=how == "concealed_kong"))
            physical += set_tiles("kong", tile)
        else:
            melds.append(Meld(kind, tile))
            physical += set_tiles(kind, tile)
    assume(max(Counter(physical).values()) <= 4)
    win_tile = draw(st.sampled_from(concealed))
    source = draw(st.sampled_from(["wall", "discard", "kong_box", "robbed_kong"]))
    return Hand("E", "S", True, tuple(melds), tuple(draw(st.permutations(concealed))),
                win=Win(win_tile, source)), physical


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(mahjong_hands())
def test_every_reading_uses_exactly_the_given_tiles(case):
    hand, physical = case
    validate_hand(hand, ANY_CHOWS)
    found = arrangements(hand, ANY_CHOWS)
    assert found, "a hand built from four sets and a pair has a reading"
    for a in found:
        assert arrangement_tiles(a) == T.sorted_tiles(physical)
        assert a.shape in ("standard", "seven_pairs", "knitting", "triple_knitting", "snake",
                           "gates_of_heaven", "thirteen_orphans")


@st.composite
def goulash_hands(draw):
    """A pung-only hand with one tile of some concealed sets replaced by a wild 2 bamboo."""
    tiles = draw(st.lists(st.sampled_from([c for c in T.PLAYING if c != "b2"]),
                          min_size=5, max_size=5, unique=True))
    *pungs, pair = tiles
    swaps = draw(st.lists(st.booleans(), min_size=5, max_size=5))
    concealed = []
    for tile, swap in zip([*pungs, pair], swaps, strict=True):
        size = 2 if tile == pair else 3
        concealed += [tile] * (size - 1) + ["b2" if swap else tile]
    assume(concealed.count("b2") <= 4)
    return Hand("W", "W", True, concealed=tuple(concealed), goulash=True,
                win=Win(concealed[-1], "wall"))


@settings(max_examples=150, deadline=None)
@given(goulash_hands())
def test_goulash_readings_use_the_wild_tiles_within_the_limits(hand):
    """004 Sheet 11 item 4: at most one 2 bamboo in a pung, kong or the pair; in a special hand's
    groups, 001: up to the special-hand limit in all, never a group of wild tiles only."""
    validate_hand(hand, BMJA)
    found = arrangements(hand, BMJA)
    assert found
    for a in found:
        assert arrangement_tiles(a, "b2") == T.sorted_tiles(hand.concealed)
        sets = [s for s in a.sets if s.kind != "group"]
        groups = [s for s in a.sets if s.kind == "group"]
        assert all(s.wild <= 1 for s in sets)
        assert sum(g.wild for g in groups) <= BMJA.scoring.wild_max_in_special
        assert all(g.wild < len(g.tiles) for g in groups if g.tiles)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(T.PLAYING), min_size=13, max_size=13))
def test_losing_hands_always_have_a_partial_reading(concealed):
    assume(max(Counter(concealed).values()) <= 4)
    hand = Hand("N", "E", False, concealed=tuple(concealed))
    validate_hand(hand, BMJA)
    found = arrangements(hand, BMJA)
    assert found and all(a.shape == "partial" for a in found)
    for a in found:
        assert arrangement_tiles(a) == T.sorted_tiles(concealed)
    for tile, readings in completions(hand, BMJA):
        assert readings and Counter(concealed)[tile] < 4


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                      st.text(max_size=6), st.sampled_from(["b5", "we", "E", "pung", "JB5", "f1",
                                                           "discard", "chow", "b8", "j"]))
json_values = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=6),
    st.dictionaries(st.sampled_from(["kind", "tile", "concealed", "added", "tiles", "from",
                                     "last_discard", "x"]), inner, max_size=4)), max_leaves=20)
FIELDS = ["seat_wind", "prevailing_wind", "mahjong", "melds", "concealed", "bonus", "win",
          "goulash", "fishing", "players", "rules"]


@settings(max_examples=250, deadline=None)
@given(st.one_of(json_values, st.dictionaries(st.sampled_from(FIELDS), json_values)))
def test_malformed_input_only_ever_raises_hand_error(data):
    try:
        hand = parse_hand(data)
    except HandError as exc:
        assert exc.problems and all(p.code and p.message for p in exc.problems)
        exc.as_drf()
        return
    for rule in (BMJA, ANY_CHOWS):
        try:
            validate_hand(hand, rule)
        except HandError as exc:
            exc.as_drf()
            continue
        arrangements(hand, rule)


SUIT_LETTERS = ("b", "c", "d")


@st.composite
def special_hands(draw):
    """A random instance of each special shape (004 Sheets 22-27, 003 special hands)."""
    shape = draw(st.sampled_from(["seven_pairs", "thirteen_orphans", "knitting",
                                  "triple_knitting", "snake", "gates_of_heaven"]))
    suit = draw(st.sampled_from(SUIT_LETTERS))
    if shape == "seven_pairs":
        kinds = draw(st.lists(st.sampled_from(T.PLAYING), min_size=7, max_size=7))
        assume(max(Counter(kinds).values()) <= 2)
        tiles = [t for t in kinds for _ in range(2)]
    elif shape == "thirteen_orphans":
        majors = [t for t in T.PLAYING if T.is_major(t)]
        tiles = majors + [draw(st.sampled_from(majors))]
    elif shape == "knitting":
        a, b = draw(st.permutations(SUIT_LETTERS))[:2]
        numbers = draw(st.lists(st.integers(1, 9), min_size=7, max_size=7))
        assume(max(Counter(numbers).values()) <= 4)
        tiles = [f"{s}{n}" for n in numbers for s in (a, b)]
    elif shape == "triple_knitting":
        numbers = draw(st.lists(st.integers(1, 9), min_size=4, max_size=4))
        m = draw(st.integers(1, 9))
        pair_suits = draw(st.permutations(SUIT_LETTERS))[:2]
        tiles = [f"{s}{n}" for n in numbers for s in SUIT_LETTERS]
        tiles += [f"{s}{m}" for s in pair_suits]
    elif shape == "snake":
        honours = draw(st.sampled_from([
            ["we", "ws", "ww", "wn", f"{suit}{draw(st.integers(1, 9))}"],
            draw(st.lists(st.sampled_from(T.HONOUR_CODES), min_size=5, max_size=5, unique=True)),
            [*[draw(st.sampled_from(T.HONOUR_CODES))] * 3],
        ]))
        if len(honours) == 3:
            other = draw(st.sampled_from([h for h in T.HONOUR_CODES if h != honours[0]]))
            honours += [other, other]
        tiles = [f"{suit}{n}" for n in range(1, 10)] + honours
    else:
        tiles = [f"{suit}{n}" for n in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
        tiles.append(f"{suit}{draw(st.integers(1, 9))}")
    assume(max(Counter(tiles).values()) <= 4)
    return shape, draw(st.permutations(tiles))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(special_hands())
def test_every_special_shape_is_found_in_any_order(case):
    shape, tiles = case
    hand = Hand("E", "E", True, concealed=tuple(tiles), win=Win(tiles[0], "discard"))
    validate_hand(hand, ANY_CHOWS)
    found = arrangements(hand, ANY_CHOWS)
    assert shape in {a.shape for a in found}
    for a in found:
        assert arrangement_tiles(a) == T.sorted_tiles(tiles)


JOKERS = HouseRule(slug="j", name="j", description="j",
                   scoring=ScoringParams(wild_tiles="joker", wild_max_in_special=4))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([t for t in T.PLAYING if T.is_major(t)]), st.data())
def test_jokers_stand_in_thirteen_orphans_up_to_the_special_limit(extra, data):
    """001: three or four wild tiles may make a special hand."""
    majors = [t for t in T.PLAYING if T.is_major(t)] + [extra]
    replaced = data.draw(st.lists(st.integers(0, 13), max_size=5, unique=True))
    tiles = ["j" if i in replaced else t for i, t in enumerate(majors)]
    hand = Hand("E", "E", True, concealed=tuple(tiles), goulash=True, win=Win(tiles[0], "wall"))
    validate_hand(hand, JOKERS)
    shapes = {a.shape for a in arrangements(hand, JOKERS)}
    assert ("thirteen_orphans" in shapes) == (len(replaced) <= 4)


def brute_force_completions(hand, rule):
    """Every playing tile tried through arrangements(): what completions() must equal."""
    from dataclasses import replace
    out = []
    for code in T.PLAYING:
        whole = replace(hand, mahjong=True, concealed=(*hand.concealed, code),
                        win=Win(code, "wall"))
        try:
            validate_hand(whole, rule)
        except HandError:
            continue
        found = arrangements(whole, rule)
        if found:
            out.append((code, found))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.one_of(mahjong_hands().map(lambda case: case[0]),
                 special_hands().map(lambda case: Hand("E", "E", True, concealed=tuple(case[1]),
                                                       win=Win(case[1][0], "wall")))),
       st.data())
def test_completions_find_every_waiting_tile(complete, data):
    """Fishing part-scores (004 Sheets 21-29) depend on every waiting tile being found."""
    assume(complete.concealed)
    dropped = data.draw(st.sampled_from(complete.concealed))
    rest = list(complete.concealed)
    rest.remove(dropped)
    hand = Hand("E", "E", False, complete.melds, tuple(rest), fishing=True)
    got = completions(hand, ANY_CHOWS)
    assert [(t, set(a)) for t, a in got] == [
        (t, set(a)) for t, a in brute_force_completions(hand, ANY_CHOWS)]
    assert dropped in [t for t, _ in got]
