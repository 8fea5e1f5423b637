"""The engine's fast paths give exactly what its general code gives.

Plain hands (no wild tiles, no listed meld tiles) are parsed, validated, arranged and completed
by shortcuts, and the house rule's plan asks items through prefilters and fast forms read from
precomputed facts (tile-class masks, set counts). Each shortcut is checked here against the
general code it stands in for, on the bench corpus (hands of every kind, special and fishing
ones included) and on random hands; and the memos kept between hands are checked not to carry
one hand's answers into another's.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import (
    HandError,
    builtin_house_rules,
    get_house_rule,
    memo,
    parse_hand,
    score_hand,
)
from scoring.engine import arrange as A
from scoring.engine import parse as P
from scoring.engine import plan as PL
from scoring.engine import score as S
from scoring.engine import tiles as T
from scoring.engine import validate as V
from scoring.engine.arrange import fishing as AF
from scoring.engine.arrange import search as AS
from scoring.engine.arrange import special as ASP
from scoring.engine.context import ScoringContext
from scoring.engine.hand import Hand, Win
from scoring.engine.rules.functions import RULE_FUNCTIONS
from tests.scoring.test_properties_score import losing_hands, winning_hands

BMJA = get_house_rule("bmja")
RULES = builtin_house_rules()
CORPUS = [entry["hand"] for entry in json.loads(
    (Path(__file__).resolve().parents[2] / "bench" / "corpus" / "scoring_hands.json").read_text())]
PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def _hands():
    for data in CORPUS:
        try:
            yield data, parse_hand(data)
        except HandError:  # pragma: no cover - the corpus is valid
            continue


# -- parse and validate ------------------------------------------------------------------------

def _parsed_slowly(data):
    problems = P.ProblemList()
    hand = P._parse(data, problems)
    return None if problems else hand


def test_well_formed_json_reads_as_the_field_by_field_parser_reads_it():
    for data in CORPUS:
        fast = P._well_formed(data)
        assert fast is not None
        assert fast == _parsed_slowly(data)
    flags = {name: True for name in P.WIN_FLAGS}
    for name in P.WIN_FLAGS:
        data = {**CORPUS[0], "win": {"tile": "dr", "from": "wall", name: True, "other": 3}}
        assert P._well_formed(data) == _parsed_slowly(data)
    data = {**CORPUS[0], "win": {"tile": "dr", "source": "kong_box", **flags}}
    assert P._well_formed(data) == _parsed_slowly(data)


@pytest.mark.parametrize("change", [
    {"seat_wind": "e"}, {"mahjong": 1}, {"concealed": ["B1", "zz"]}, {"bonus": "f1"},
    {"melds": [{"kind": " pung", "tile": "b1"}]}, {"melds": [{"kind": "pung", "tile": "b1",
                                                             "tiles": ["b1", "b1", "b1"]}]},
    {"win": {"tile": "b1", "from": "Wall"}}, {"players": 7}, {"rules": 3}, {"mahjong": 1.0},
    {"goulash": 0}, {"win": {"tile": "dr", "from": "wall", "robbed_kong": 1}},
])
def test_anything_unusual_is_left_to_the_field_by_field_parser(change):
    data = {**CORPUS[0], **change}
    assert P._well_formed(data) is None
    try:
        slow = parse_hand(data)
    except HandError as error:
        assert error.problems
    else:
        assert slow == _parsed_slowly(data)


def _problems(hand, rule):
    mode, max_chows, limits = V._rule_args(rule.scoring, hand.goulash)
    return V._problems.__wrapped__(hand, mode, max_chows, limits, False)[0]


def test_a_plainly_valid_hand_has_no_problem_and_every_other_verdict_is_the_full_checks():
    for _data, hand in _hands():
        for rule in RULES.values():
            variants = [hand, Hand(**{**_fields(hand), "goulash": True}),
                        Hand(**{**_fields(hand), "bonus": hand.bonus + hand.bonus[:1]}),
                        Hand(**{**_fields(hand), "mahjong": not hand.mahjong,
                                "win": None if hand.mahjong else Win("b1", "wall")})]
            for variant in variants:
                if V._plainly_valid(variant, rule, False):
                    assert _problems(variant, rule) == ()


def _fields(hand: Hand) -> dict:
    return {name: getattr(hand, name) for name in Hand.__slots__}


@PROPERTY
@given(st.one_of(winning_hands(), losing_hands()), st.sampled_from(sorted(RULES)))
def test_plain_validity_agrees_with_the_full_checks_on_random_hands(data, slug):
    hand = parse_hand(data)
    rule = RULES[slug]
    if V._plainly_valid(hand, rule, False):
        assert _problems(hand, rule) == ()


# -- arrangements and completions ----------------------------------------------------------------

def test_plain_arrangements_are_the_general_searchs_in_its_order():
    for _data, hand in _hands():
        for rule in (BMJA, RULES["guide"], RULES["bmja-3-players"]):
            assert AS.plain_hand(hand, rule) is not None
            assert A.arrangements(hand, rule) == AS._general_arrangements(hand, rule)


def test_plain_completions_are_the_general_searchs():
    fishing = [hand for data, hand in _hands() if not hand.mahjong]
    assert len(fishing) >= 100
    for hand in fishing:
        for rule in (BMJA, RULES["bmja-2-players"]):
            assert A.completions(hand, rule) == AF._general_completions(hand, rule)


@PROPERTY
@given(st.one_of(winning_hands(), losing_hands()))
def test_plain_paths_agree_with_the_general_search_on_random_hands(data):
    hand = parse_hand(data)
    assert A.arrangements(hand, BMJA) == AS._general_arrangements(hand, BMJA)
    if not hand.mahjong:
        assert A.completions(hand, BMJA) == AF._general_completions(hand, BMJA)
        assert A.completions(hand, BMJA, pungs_only=True) == A.without_chows(
            AF._general_completions(hand, BMJA))


def test_pung_completions_are_the_general_searchs_without_chows():
    fishing = [hand for data, hand in _hands() if not hand.mahjong]
    for hand in fishing:
        for rule in (BMJA, RULES["bmja-2-players"], RULES["guide"]):
            assert A.completions(hand, rule, pungs_only=True) == A.without_chows(
                AF._general_completions(hand, rule))


def test_pung_completions_on_hands_one_tile_short():
    for held in _short_hands(11, 1500):
        tiles = [T.PLAYING[i] for i, n in enumerate(held) for _ in range(n)]
        hand = parse_hand({"seat_wind": "E", "prevailing_wind": "E", "mahjong": False,
                           "melds": [], "concealed": tiles, "fishing": True})
        assert A.completions(hand, BMJA, pungs_only=True) == A.without_chows(
            AF._general_completions(hand, BMJA))


def test_the_plan_reads_only_pung_completions_when_its_fishing_hands_allow():
    for rule in RULES.values():
        plan = S.plan_for(rule)
        gates = {gate for _step, gate in plan.fishing}
        assert plan.fishing_pungs_only == (gates <= {"pung_hand", "special_shape"})


def _one_short_of_special(r: random.Random) -> list[int]:
    """Thirteen tiles: a special shape's fourteen (or a random fourteen) less one tile."""
    from bench.bench_scoring import SPECIAL_TILES
    if r.random() < 0.8:
        tiles = SPECIAL_TILES[r.choice(sorted(SPECIAL_TILES))](r, r.sample("bcd", 2))
    else:
        tiles = r.sample([t for t in T.PLAYING for _ in range(4)], 14)
    tiles.remove(r.choice(tiles))
    held = [0] * T.N_PLAYING
    for code in tiles:
        held[T.INDEX[code]] += 1
    return held


def _short_hands(seed: int, tries: int):
    """Up to ``tries`` hands of ``_one_short_of_special``, those with no fifth copy of a tile."""
    r = random.Random(seed)
    for _ in range(tries):
        held = _one_short_of_special(r)
        if max(held) <= 4:
            yield held


def _one_added(held: list[int]):
    """Each tile index, with the counts of ``held`` and that tile (a fifth copy included)."""
    for i in range(T.N_PLAYING):
        held[i] += 1
        counts = tuple(held)
        held[i] -= 1
        yield i, counts


def test_the_special_screen_rules_out_only_tiles_that_make_no_special_shape():
    allowed = 0
    for held in _short_hands(7, 3000):
        screen = AF._special_tiles(held)
        for i, counts in _one_added(held):
            if counts[i] > 4:
                continue
            if ASP.special_possible(counts):
                assert i in screen, (held, i)
                allowed += 1
    assert allowed > 500  # the cases that matter were met


def test_no_tile_makes_a_special_shape_when_the_quick_check_says_so():
    ruled_out = 0
    for held in _short_hands(13, 3000):
        if AF._special_one_tile_away(held):
            continue
        ruled_out += 1
        for i, counts in _one_added(held):
            if counts[i] <= 4:
                assert not ASP.special_possible(counts), (held, i)
    assert ruled_out > 200


def test_plain_special_readings_are_the_general_ones_without_wild_tiles():
    found = set()
    for held in _short_hands(5, 2000):
        for _i, counts in _one_added(held):
            for lim in (4, 0, -1):
                fast = ASP.plain_special_readings(counts, lim)
                assert fast == ASP.special_readings(counts, AS._NO_TILES, 0, T.JOKER, lim)
                found.update(shape for shape, _ in fast)
    assert {"seven_pairs", "thirteen_orphans", "knitting", "triple_knitting", "snake",
            "gates_of_heaven"} <= found


def _every_template_filled(counts):
    """The special readings of fourteen tiles without wild tiles from every template the
    search offers when wild tiles are held (all variants, none ruled out by the counts)."""
    out = []
    if not any(n & 1 for n in counts):
        out.append(("seven_pairs", ASP._seven_pairs(counts, AS._NO_TILES, 0, T.JOKER)))
    for shape, template in ASP._templates(counts, 1):
        parts = ASP._fill(template, counts, AS._NO_TILES, 0, T.JOKER)
        if parts is not None and (shape, parts) not in out:
            out.append((shape, parts))
    return out


def test_templates_left_out_without_wild_tiles_are_those_that_cannot_fill():
    checked = 0
    for held in _short_hands(9, 1500):
        for _i, counts in _one_added(held):
            if max(counts) > 4 or not ASP.special_possible(counts):
                continue
            assert ASP.plain_special_readings(counts, 4) == _every_template_filled(counts)
            checked += 1
    assert checked > 300


# -- the plan: prefilters and fast forms -----------------------------------------------------------

def _contexts(rule):
    for _data, hand in _hands():
        try:
            found = A.arrangements(hand, rule)
        except HandError:  # pragma: no cover
            continue
        completed = [a for _, arrs in A.completions(hand, rule) for a in arrs] \
            if not hand.mahjong else []
        for arrangement in [*found, *completed]:
            yield hand, arrangement


@pytest.mark.parametrize("slug", ["bmja", "guide", "balsall-common", "west-wind-goulash"])
def test_prefilters_and_fast_forms_agree_with_their_rule_functions(slug):
    rule = RULES[slug]
    plan = S.plan_for(rule)
    steps = [s for side in (plan.winner, plan.loser) for _, _, group in side.whole
             for s in group]
    checked = 0
    for hand, arrangement in _contexts(rule):
        for is_winner in (True, False):
            lazy = ScoringContext(hand, rule, arrangement, is_winner)  # facts worked out
            preset = ScoringContext(hand, rule, arrangement, is_winner)  # facts from the pass
            PL._set_facts(preset, {}, (), {})
            for name in ("tile_all", "tile_any", "suits", "has_honours", "chows", "kongs",
                         "all_concealed", "pung_hand", "tile_count", "max_chows"):
                assert getattr(preset, name) == getattr(lazy, name), name
            for step in steps:
                item = step.item
                plain = RULE_FUNCTIONS[item.rule](lazy, **item.kwargs)
                assert step.call(preset) == plain, item.code
                if step.pre is not None and not step.pre(preset):
                    assert plain == 0, item.code
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("slug", sorted(RULES))
def test_a_groups_win_fact_prefilters_asked_as_one_agree_with_asking_each(slug):
    plan = S.plan_for(RULES[slug])
    merged = [(pres, steps) for side in (plan.winner, plan.loser)
              for _, _, steps, pres, _ in side.groups
              if pres is not None and all(getattr(s.pre, "win_facts", None) for s in steps)]
    winning = [data for data in CORPUS if data["mahjong"]][:20]
    r = random.Random(3)
    for data in winning:
        for source in ("wall", "discard", "kong_box", "robbed_kong"):
            flags = {name: r.random() < 0.3 for name in P.WIN_FLAGS}
            hand = parse_hand({**data, "win": {**data["win"], "from": source, **flags}})
            arrangement = A.arrangements(hand, RULES[slug])[0] if A.arrangements(
                hand, RULES[slug]) else None
            if arrangement is None:
                continue
            ctx = ScoringContext(hand, RULES[slug], arrangement, True)
            for pres, steps in merged:
                assert len(pres) == 1
                assert pres[0](ctx) == any(s.pre(ctx) for s in steps)


def test_the_plan_asks_fewer_items_but_gives_what_asking_every_item_gives():
    for _data, hand in _hands():
        side = S.plan_for(BMJA).winner if hand.mahjong else S.plan_for(BMJA).loser
        for arrangement in A.arrangements(hand, BMJA):
            ctx = ScoringContext(hand, BMJA, arrangement, hand.mahjong)
            every = {}
            for step in side.per_set:
                every[step.index] = RULE_FUNCTIONS[step.item.rule](ctx, **step.item.kwargs)
            for _, _, group in side.whole:
                for step in group:
                    every[step.index] = RULE_FUNCTIONS[step.item.rule](ctx, **step.item.kwargs)
            expected = {i: n for i, n in every.items() if n}
            assert side.counts(ScoringContext(hand, BMJA, arrangement, hand.mahjong)) == expected


@pytest.mark.parametrize("slug", sorted(RULES))
def test_flowers_and_seasons_counted_one_tile_at_a_time_are_their_functions_count(slug):
    rule = RULES[slug]
    plan = S.plan_for(rule)
    arrangement = A.arrangements(parse_hand(CORPUS[0]), rule)[0]
    bonus = [f"{kind}{n}" for kind in "fs" for n in "1234"]
    r = random.Random(5)
    held_sets = [(), *[tuple(r.sample(bonus, r.randint(1, 8))) for _ in range(60)]]
    checked = 0
    for side in (plan.winner, plan.loser):
        for held in held_sets:
            for seat in "ESWN":
                hand = parse_hand({**CORPUS[0], "seat_wind": seat, "bonus": list(held)})
                ctx = ScoringContext(hand, rule, arrangement, hand.mahjong)
                counts = side.counts(ScoringContext(hand, rule, arrangement, hand.mahjong))
                for step in side.per_bonus:
                    plain = RULE_FUNCTIONS[step.item.rule](ctx, **step.item.kwargs)
                    assert counts.get(step.index, 0) == plain, step.item.code
                    checked += 1
    assert checked > 100 or not (plan.winner.per_bonus or plan.loser.per_bonus)


# -- memos between hands ---------------------------------------------------------------------------

def test_no_hand_memo_carries_an_answer_into_another_hand():
    """Every hand scored after hundreds of others (memos warm) gives what it gives alone, with
    every cache empty; and scoring it changes no other hand's result."""
    hands = [hand for _data, hand in _hands()]
    alone = []
    for hand in hands:
        memo.clear_all()
        alone.append(score_hand(hand, BMJA))
    memo.clear_all()
    shuffled = list(range(len(hands)))
    random.Random(3).shuffle(shuffled)
    for i in shuffled + shuffled:
        assert score_hand(hands[i], BMJA) == alone[i]


def test_the_same_tiles_at_another_seat_or_won_otherwise_score_for_that_seat_and_win():
    data = {"rules": "bmja", "seat_wind": "E", "prevailing_wind": "S", "mahjong": True,
            "melds": [{"kind": "pung", "tile": "we"}], "bonus": ["f1"],
            "concealed": ["ws", "ws", "ws", "b1", "b2", "b3", "c5", "c5", "c5", "dr", "dr"],
            "win": {"tile": "dr", "from": "wall"}}
    scores = {}
    for seat in "ESWN":
        for source in ("wall", "discard"):
            hand = {**data, "seat_wind": seat, "win": {"tile": "dr", "from": source}}
            scores[seat, source] = score_hand(parse_hand(hand), BMJA)
    for (seat, source), result in scores.items():
        memo.clear_all()
        hand = {**data, "seat_wind": seat, "win": {"tile": "dr", "from": source}}
        assert score_hand(parse_hand(hand), BMJA) == result
    assert len({(r.score, r.item_codes) for r in scores.values()}) > 4


def test_a_shared_win_gives_the_facts_of_a_win_built_anew():
    # parse shares a Win among hands going out the same way; its facts are then found by
    # the object's identity, and must be those of an equal Win that no table has seen.
    r = random.Random(11)
    winning = [data for data in CORPUS if data["mahjong"]][:30]
    for data in winning:
        flags = {name: r.random() < 0.3 for name in P.WIN_FLAGS}
        sent = {**data, "win": {**data["win"], **flags}}
        first, second = parse_hand(sent), parse_hand(sent)
        assert first.win is second.win
        fresh = Hand(**{**{f: getattr(first, f) for f in first.__slots__},
                        "win": Win(**{f: getattr(first.win, f) for f in first.win.__slots__})})
        assert fresh.win == first.win and fresh.win is not first.win
        arrangement = A.arrangements(first, BMJA)[0]
        for is_winner in (True, False):
            for _ in range(2):  # the second time from the table
                shared = ScoringContext(first, BMJA, arrangement, is_winner)
                anew = ScoringContext(fresh, BMJA, arrangement, is_winner)
                assert shared.win_facts == anew.win_facts


@pytest.mark.parametrize("slug", ["bmja", "guide", "balsall-common", "west-wind-goulash"])
def test_a_groups_prefilters_asked_together_pass_when_one_of_its_steps_would(slug):
    # Mask prefilters (all green, all four winds...) are merged into one test of the masks;
    # the group is skipped exactly when no step's own prefilter passes.
    rule = RULES[slug]
    plan = S.plan_for(rule)
    groups = [(pres, steps) for side in (plan.winner, plan.loser)
              for _, _, steps, pres, _ in side.groups if pres is not None]
    assert any(getattr(pres[0], "masks_of", None) for pres, _ in groups) or slug != "bmja"
    passed = checked = 0
    for hand, arrangement in _contexts(rule):
        for is_winner in (True, False):
            ctx = ScoringContext(hand, rule, arrangement, is_winner)
            PL._set_facts(ctx, {}, (), {})
            for pres, steps in groups:
                together = any(pre(ctx) for pre in pres)
                assert together == any(s.pre(ctx) for s in steps)
                passed += together
                checked += 1
    assert checked > 500 and passed > 10


def test_a_contexts_counts_and_four_sets_are_the_plain_definitions():
    from collections import Counter

    checked = 0
    for hand, arrangement in _contexts(BMJA):
        ctx = ScoringContext(hand, BMJA, arrangement, hand.mahjong)
        assert type(ctx.counts) is Counter
        assert list(ctx.counts.items()) == list(Counter(ctx.tiles).items())
        sets = arrangement.sets
        groups = tuple(s for s in sets if s.kind != "pair")
        plain = (None if arrangement.loose or len(sets) != 5 or len(groups) != 4
                 or any(s.kind == "group" for s in groups)
                 else (groups, tuple(s for s in sets if s.kind == "pair")))
        assert ctx.standard_split == plain
        checked += plain is not None
    assert checked > 50


def _triple_knitting_by_leftovers(counts: dict) -> int:
    # The plain reading: every number's sets of three, then the tiles left over listed.
    triples, left = 0, []
    for n in range(1, 10):
        per_suit = [counts.get(f"{s}{n}", 0) for s in "bcd"]
        t = min(per_suit)
        triples += t
        left += [(n, s) for s, k in zip("bcd", per_suit, strict=True) for _ in range(k - t)]
    return int(triples == 4 and len(left) == 2 and left[0][0] == left[1][0]
               and left[0][1] != left[1][1])


def test_triple_knitting_reads_what_listing_the_leftover_tiles_reads():
    from collections import Counter

    from scoring.engine.hand import Arrangement, Set
    from scoring.engine.rules.special_hands import triple_knitting

    r = random.Random(7)
    suit_tiles = [f"{s}{n}" for s in "bcd" for n in range(1, 10)]
    found = 0
    for _ in range(3000):
        if r.random() < 0.6:  # four numbers in three suits, then a little changed
            held = [f"{s}{n}" for n in r.sample(range(1, 10), 4) for s in "bcd"]
            held += r.sample(suit_tiles, 2)
            held[r.randrange(14)] = r.choice(suit_tiles) if r.random() < 0.3 else held[0]
        else:
            held = [r.choice(suit_tiles) for _ in range(14)]
        counts = Counter(held)
        if max(counts.values()) > 4:
            continue
        group = Set("group", held[0], True, "concealed", False, tuple(held))
        hand = Hand("E", "E", True, concealed=tuple(held))
        ctx = ScoringContext(hand, BMJA, Arrangement("triple_knitting", (group,)), True)
        expected = _triple_knitting_by_leftovers(counts) if len(ctx.suits) == 3 else 0
        assert triple_knitting(ctx) == expected, held
        found += expected
    assert found > 20


def test_a_tally_of_ordinary_items_only_is_the_general_tallys():
    plan = S.plan_for(BMJA)
    general = object.__new__(type(plan))
    general.__dict__.update(plan.__dict__, ordinary=frozenset())  # never the common case
    fields = ("points", "doubles", "score", "limit", "kept", "special", "special_value",
              "dropped", "lines")
    common = 0
    for hand, arrangement in _contexts(BMJA):
        side = plan.winner if hand.mahjong else plan.loser
        counts = side.counts(ScoringContext(hand, BMJA, arrangement, hand.mahjong))
        fast = S._tally(plan, BMJA.scoring, counts, arrangement)
        slow = S._tally(general, BMJA.scoring, counts, arrangement)
        assert [getattr(fast, f) for f in fields] == [getattr(slow, f) for f in fields]
        common += plan.ordinary.issuperset(counts)
    assert common > 50


def test_a_special_hands_shared_line_is_the_line_made_for_it():
    plan = S.plan_for(BMJA)
    seen = 0
    for _data, hand in _hands():
        result = score_hand(hand, BMJA)
        if result.special is None or result.fishing_for:
            continue
        i = plan.codes.index(result.special)
        item = BMJA.items[i]
        value = int(BMJA.scoring.limit * item.limit)
        assert result.lines[0] == S.ScoreLine(item.code, item.wording, value, 0, 1)
        seen += 1
    assert seen > 10
