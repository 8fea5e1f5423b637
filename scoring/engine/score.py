"""Score a hand under a house rule: the orchestrator.

For each arrangement of the hand, every item of the house rule is asked how often it matches
(``RULE_FUNCTIONS[item.rule](ctx, **item.kwargs)``); the matches become ``ScoreLine``s and the
lines a score. Nothing here knows a particular rule: the order, the worth and the wording of
every item are the house rule's data. The best-scoring arrangement is kept.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

from .arrange import arrangements as find_arrangements
from .arrange import completions as find_completions
from .context import ScoringContext
from .errors import HandError, Problem
from .hand import Arrangement, Hand, Meld
from .rules.functions import BONUS_RULE_FUNCTIONS, RULE_FUNCTIONS
from .rules.model import HouseRule, HouseRuleError, Item
from .validate import validate_hand


@dataclass(frozen=True)
class ScoreLine:
    """One item that gave points or doubles, in the house rule's words."""

    code: str
    name: str
    points: int
    doubles: int
    count: int = 1


@dataclass(frozen=True)
class ScoreResult:
    points: int
    doubles: int
    score: int
    limit: str | None
    lines: tuple[ScoreLine, ...]
    arrangement: tuple[Meld, ...]
    shape: str
    mahjong: bool
    meets_minimum: bool = True
    minimum_reason: str | None = None
    fishing_for: str | None = None
    special: str | None = None
    item_codes: frozenset[str] = field(default_factory=frozenset)
    loose: tuple[str, ...] = ()


# -- the plan: a house rule's items made ready to call ---------------------------------------

@dataclass(frozen=True)
class _Step:
    item: Item
    call: Callable[[ScoringContext], int]
    bonus: bool  # a flower/season item, kept on top of a limit hand (004 Sheet 21 item 6)


@dataclass(frozen=True)
class _Plan:
    winner: tuple[_Step, ...]
    loser: tuple[_Step, ...]
    fishing: tuple[_Step, ...]


def _prepare(rule: HouseRule) -> _Plan:
    """Bind every item to its rule function once, so scoring a hand does no lookups; an
    unknown function or argument is the house rule's error, reported with its path."""
    errors: dict[str, list[str]] = {}
    steps: list[_Step] = []
    for i, item in enumerate(rule.items):
        fn = RULE_FUNCTIONS.get(item.rule)
        if fn is None:
            errors.setdefault(f"items[{i}].rule", []).append(
                f"Unknown rule function {item.rule!r}; known: {', '.join(sorted(RULE_FUNCTIONS))}."
            )
            continue
        kwargs = item.kwargs
        try:
            inspect.signature(fn).bind(None, **kwargs)
        except TypeError as exc:
            errors.setdefault(f"items[{i}].args", []).append(f"{item.rule}: {exc}.")
            continue
        call = partial(fn, **kwargs) if kwargs else fn
        steps.append(_Step(item, call, item.rule in BONUS_RULE_FUNCTIONS))
    if errors:
        raise HouseRuleError(errors)
    return _Plan(
        winner=tuple(s for s in steps if s.item.who in ("all", "mahjong")),
        loser=tuple(s for s in steps if s.item.who in ("all", "losers")),
        fishing=tuple(s for s in steps if s.item.fishing_limit is not None
                      or s.item.fishing_doubles),
    )


# Keyed by identity: hashing a house rule would walk all its items on every hand. Holding the
# rule in the entry keeps its id from being reused while the entry lives.
_PLANS: OrderedDict[int, tuple[HouseRule, _Plan]] = OrderedDict()
_PLANS_KEPT = 64


def plan_for(rule: HouseRule) -> _Plan:
    entry = _PLANS.get(id(rule))
    if entry is not None and entry[0] is rule:
        return entry[1]
    plan = _prepare(rule)
    _PLANS[id(rule)] = (rule, plan)
    if len(_PLANS) > _PLANS_KEPT:
        _PLANS.popitem(last=False)
    return plan


def clear_caches() -> None:
    """Forget prepared house rules (the bench clears them between repeats)."""
    _PLANS.clear()


# -- words for limits ------------------------------------------------------------------------

_FRACTION_WORDS = {
    Fraction(1): "limit",
    Fraction(1, 2): "half limit",
    Fraction(1, 4): "a quarter of the limit",
    Fraction(3, 4): "three quarters of the limit",
    Fraction(1, 3): "a third of the limit",
    Fraction(2, 3): "two thirds of the limit",
    Fraction(1, 5): "one fifth of the limit",
    Fraction(2, 5): "two fifths of the limit",
    Fraction(3, 5): "three fifths of the limit",
}


def limit_words(fraction: Fraction) -> str:
    words = _FRACTION_WORDS.get(fraction)
    if words is not None:
        return words
    if fraction > 1:
        return f"{fraction} times the limit"
    return f"{fraction.numerator}/{fraction.denominator} of the limit"


def short_name(item: Item) -> str:
    """The special hand's name: its wording up to any explanation."""
    return item.wording.split(":")[0].split(" (")[0].strip()


# -- scoring one arrangement ------------------------------------------------------------------

@dataclass
class _Scored:
    points: int
    doubles: int
    score: int
    limit: str | None
    lines: list[ScoreLine]
    arrangement: Arrangement
    special: str | None
    codes: frozenset[str]
    # The flower and season lines, which a limit hand or a part-score keeps on top.
    bonus_lines: tuple[ScoreLine, ...] = ()

    @property
    def bonus_points(self) -> int:
        return sum(ln.points for ln in self.bonus_lines)

    @property
    def bonus_doubles(self) -> int:
        return sum(ln.doubles for ln in self.bonus_lines)

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.score, self.points, self.doubles)


def _line(item: Item, n: int, use_doubles: bool) -> ScoreLine | None:
    points = n * item.points
    doubles = n * item.doubles if use_doubles else 0
    if not points and not doubles:
        return None
    return ScoreLine(item.code, item.wording, points, doubles, n)


def _score_arrangement(hand: Hand, rule: HouseRule, steps: Sequence[_Step],
                       arrangement: Arrangement, is_winner: bool) -> _Scored:
    params = rule.scoring
    use_doubles = params.use_doubles
    ctx = ScoringContext(hand, rule, arrangement, is_winner)
    matched: list[tuple[_Step, int]] = []
    special: Item | None = None
    replaced: set[str] = set()
    for step in steps:
        n = step.call(ctx)
        if not n:
            continue
        item = step.item
        if item.limit is not None:
            # The highest-valued special hand wins; on a tie, the one listed first.
            if params.limit is not None and (special is None or item.limit > special.limit):
                special = item
            continue
        if item.replaces:
            replaced.update(item.replaces)
        matched.append((step, n))
    if replaced:
        matched = [(s, n) for s, n in matched if s.item.code not in replaced]
    codes = frozenset(s.item.code for s, _ in matched)

    lines: list[ScoreLine] = []
    bonus_lines: list[ScoreLine] = []
    for s, n in matched:
        line = _line(s.item, n, use_doubles)
        if line is not None:
            lines.append(line)
            if s.bonus:
                bonus_lines.append(line)

    if special is not None:
        value = int(params.limit * special.limit)
        points = doubles = 0
        if params.limit_hand_adds_bonus_tiles:
            # 004 Sheet 21 item 6: own-flower doubles apply to the flower total only.
            points = sum(ln.points for ln in bonus_lines)
            doubles = sum(ln.doubles for ln in bonus_lines)
        else:
            bonus_lines = []
        lines = [ScoreLine(special.code, special.wording, value, 0, 1), *bonus_lines]
        return _Scored(value + points, doubles, value + _value(points, doubles, use_doubles),
                       limit_words(special.limit), lines, arrangement, special.code,
                       codes | {special.code}, tuple(bonus_lines))

    points = sum(ln.points for ln in lines)
    doubles = sum(ln.doubles for ln in lines)
    score = _value(points, doubles, use_doubles)
    limit = None
    if params.cap_ordinary_hands and params.limit is not None and score > params.limit:
        score, limit = params.limit, "limit"
    return _Scored(points, doubles, score, limit, lines, arrangement, None, codes,
                   tuple(bonus_lines))


def _value(points: int, doubles: int, use_doubles: bool) -> int:
    # 003 counts points only; its items' doubles are already dropped from the lines.
    return points * 2 ** doubles if use_doubles else points


def _best(hand: Hand, rule: HouseRule, steps: Sequence[_Step],
          arrangements: Iterable[Arrangement], is_winner: bool) -> _Scored | None:
    best: _Scored | None = None
    for arrangement in arrangements:
        scored = _score_arrangement(hand, rule, steps, arrangement, is_winner)
        if best is None or scored.key > best.key:
            best = scored
    return best


# -- fishing (004 Sheets 21-29) ---------------------------------------------------------------

def _fishing(hand: Hand, rule: HouseRule, plan: _Plan, actual: _Scored,
             completions: Iterable[tuple[str, Sequence[Arrangement]]]
             ) -> tuple[_Scored, str] | None:
    """The part-score of a losing hand one tile short of a special hand, or None.

    Each special hand with a part-score is tried on every completed arrangement; its part of
    the limit (with flowers on top, as for a limit hand), or its extra doubles on the hand's own
    score, or the greater of the part and the actual value where the house rule says so,
    becomes the score. The best of them is kept.
    """
    params = rule.scoring
    best: tuple[_Scored, str] | None = None
    tried: set[str] = set()
    for _tile, arrangements in completions:
        for arrangement in arrangements:
            ctx = ScoringContext(hand, rule, arrangement, False)
            for step in plan.fishing:
                if step.item.code in tried or not step.call(ctx):
                    continue
                # A part-score does not depend on the tile that completes the hand.
                tried.add(step.item.code)
                candidate = _fishing_value(step.item, params, actual)
                if candidate is not None and (best is None or candidate.key > best[0].key):
                    best = (candidate, step.item.code)
    return best


def _fishing_value(item: Item, params, actual: _Scored) -> _Scored | None:
    name = short_name(item)
    codes = actual.codes | {item.code}
    if item.fishing_limit is not None and params.limit is not None:
        part = int(params.limit * item.fishing_limit)
        label = f"{limit_words(item.fishing_limit)} (fishing for {name})"
        lines = [ScoreLine(item.code, f"Fishing for {item.wording}", part, 0, 1)]
        points, doubles, score = part, 0, part
        if params.limit_hand_adds_bonus_tiles and actual.bonus_lines:
            # As for a limit hand (004 Sheet 21 item 6): flowers on top of the part-score.
            lines += actual.bonus_lines
            points += actual.bonus_points
            doubles = actual.bonus_doubles
            score += _value(actual.bonus_points, doubles, params.use_doubles)
        if item.fishing_actual_if_greater and actual.score > score:
            # 004 Sheet 28: "or actual hand value, whichever is the greater".
            note = ScoreLine(item.code, f"Fishing for {item.wording}: the actual value is "
                             f"greater than {label}", 0, 0, 1)
            return _Scored(actual.points, actual.doubles, actual.score, None,
                           [*actual.lines, note], actual.arrangement, None, codes,
                           actual.bonus_lines)
        return _Scored(points, doubles, score, label, lines, actual.arrangement, None, codes,
                       actual.bonus_lines)
    if item.fishing_doubles and params.use_doubles:
        # 004 Sheet 23 (Purity): "Fishing also gets three doubles" on the hand's own points.
        doubles = actual.doubles + item.fishing_doubles
        lines = [*actual.lines,
                 ScoreLine(item.code, f"Fishing for {item.wording}", 0, item.fishing_doubles, 1)]
        return _Scored(actual.points, doubles, actual.points * 2 ** doubles, None, lines,
                       actual.arrangement, None, codes, actual.bonus_lines)
    return None


# -- minimums ---------------------------------------------------------------------------------

_MEASURE_WORDS = {"points": "points", "doubles": "doubles", "score": "points in all"}


def _minimum(hand: Hand, rule: HouseRule, scored: _Scored) -> tuple[bool, str | None]:
    params = rule.scoring
    thresholds = params.go_out_minimum
    if hand.goulash and params.goulash_go_out_minimum is not None:
        thresholds = params.goulash_go_out_minimum
    if not hand.mahjong or not thresholds:
        return True, None
    values = {"points": scored.points, "doubles": scored.doubles, "score": scored.score}
    if any(values[measure] >= threshold for measure, threshold in thresholds):
        return True, None
    needs = " or ".join(f"{threshold} {_MEASURE_WORDS[measure]}" for measure, threshold
                        in thresholds)
    has = ", ".join(f"{values[measure]} {_MEASURE_WORDS[measure]}" for measure, _ in thresholds)
    where = " in a goulash" if hand.goulash and params.goulash_go_out_minimum is not None else ""
    return False, (f"Not a valid Mah Jong under this house rule: it needs at least {needs}"
                   f"{where}; this hand has {has}.")


# -- the public entry points ------------------------------------------------------------------

def _meld(s) -> Meld:
    return Meld(kind=s.kind, tile=s.tile, concealed=s.concealed, added=s.how == "added",
                tiles=s.tiles)


def _result(hand: Hand, rule: HouseRule, scored: _Scored, *, fishing_for: str | None = None,
            minimum: tuple[bool, str | None] = (True, None)) -> ScoreResult:
    return ScoreResult(
        points=scored.points,
        doubles=scored.doubles,
        score=scored.score,
        limit=scored.limit,
        lines=tuple(scored.lines),
        arrangement=tuple(_meld(s) for s in scored.arrangement.sets),
        shape=scored.arrangement.shape,
        mahjong=hand.mahjong,
        meets_minimum=minimum[0],
        minimum_reason=minimum[1],
        fishing_for=fishing_for,
        special=scored.special,
        item_codes=scored.codes,
        loose=scored.arrangement.loose,
    )


def score_arrangements(hand: Hand, rule: HouseRule, arrangements: Sequence[Arrangement],
                       completions: Iterable[tuple[str, Sequence[Arrangement]]] = ()
                       ) -> ScoreResult:
    """Score ``hand`` given its arrangements (and, for a fishing hand, the completions).

    The hand must already be valid under ``rule``; ``score_hand`` checks that first.
    """
    if not arrangements:
        raise ValueError("score_arrangements needs at least one arrangement of the hand.")
    plan = plan_for(rule)
    params = rule.scoring
    if not hand.mahjong and params.only_winner_scores:
        arrangement = arrangements[0]
        line = ScoreLine("only_winner_scores",
                         "Only the Mah Jong player scores under this house rule", 0, 0, 0)
        return _result(hand, rule, _Scored(0, 0, 0, None, [line], arrangement, None,
                                           frozenset()))
    steps = plan.winner if hand.mahjong else plan.loser
    best = _best(hand, rule, steps, arrangements, hand.mahjong)
    assert best is not None
    if not hand.mahjong and hand.fishing and params.fishing_part_scores and plan.fishing:
        fished = _fishing(hand, rule, plan, best, completions)
        if fished is not None:
            return _result(hand, rule, fished[0], fishing_for=fished[1])
    return _result(hand, rule, best, minimum=_minimum(hand, rule, best))


def score_hand(hand: Hand, rule: HouseRule) -> ScoreResult:
    """Validate ``hand`` under ``rule`` (``HandError`` if it cannot be), find its
    arrangements and score the best of them."""
    validate_hand(hand, rule)
    found = find_arrangements(hand, rule)
    if not found:
        raise HandError([Problem("concealed", "not_a_winning_hand", NOT_A_WINNING_HAND)])
    fishing: list = []
    if not hand.mahjong and hand.fishing and rule.scoring.fishing_part_scores:
        fishing = find_completions(hand, rule)
    return score_arrangements(hand, rule, found, fishing)


NOT_A_WINNING_HAND = (
    "These tiles do not make a complete hand under this house rule (four sets and a pair, or "
    "one of its special hands): check the melds and concealed tiles, or send \"mahjong\": false."
)


__all__ = ["ScoreLine", "ScoreResult", "clear_caches", "limit_words", "plan_for",
           "score_arrangements", "score_hand"]
