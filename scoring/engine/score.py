"""Score a hand under a house rule: the orchestrator.

For each arrangement of the hand, every item of the house rule is asked how often it matches
(through the house rule's plan, ``plan.py``); the matches become ``ScoreLine``s and the lines a
score. Nothing here knows a particular rule: the order, the worth and the wording of every item
are the house rule's data. The best-scoring arrangement is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .arrange import arrangements as find_arrangements
from .arrange import completions as find_completions
from .context import (
    ScoringContext,
)
from .errors import HandError, Problem
from .hand import Arrangement, Hand, Meld
from .plan import (
    _ORDINARY,
    _SPECIAL,
    Plan,
    Step,
    count_matches,
    limit_words,
    plan_for,
    short_name,
)
from .result import ScoreLine, ScoreResult  # noqa: F401 - importable from here as before
from .rules.model import HouseRule
from .rules.registry import SPECIAL_SHAPES
from .validate import validate_hand

# -- scoring one arrangement ------------------------------------------------------------------

@dataclass(slots=True)
class _Scored:
    """One arrangement's score; its lines are written out only for the arrangement kept."""

    points: int
    doubles: int
    score: int
    limit: str | None
    arrangement: Arrangement
    counts: dict[int, int]
    kept: tuple[int, ...]  # items shown as lines, in the house rule's order
    special: int = -1  # the special hand scored, by index
    special_value: int = 0  # its part of the limit
    dropped: frozenset[int] = frozenset()  # items another one replaced
    lines: tuple[ScoreLine, ...] | None = None  # when given, instead of the kept items'

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.score, self.points, self.doubles)


def _value(points: int, doubles: int, use_doubles: bool) -> int:
    # 003 counts points only; its items' doubles are already dropped from the lines.
    return points * 2 ** doubles if use_doubles else points


def _tally(plan: Plan, params, counts: dict[int, int], arrangement: Arrangement) -> _Scored:
    values = plan.special_value
    replaces = plan.replaces
    role = plan.role
    special = best = -1
    dropped: frozenset[int] = _NONE_DROPPED
    kept = []
    for i in counts:
        r = role[i]
        if r == _ORDINARY:
            kept.append(i)
        elif r == _SPECIAL:
            # The highest-valued special hand wins; on a tie, the one listed first.
            value = values[i] or 0
            if special < 0 or value > best or (value == best and i < special):
                special, best = i, value
        else:  # an ordinary item that replaces others
            kept.append(i)
            dropped = dropped.union(replaces[i])
    if dropped:
        kept = [i for i in kept if i not in dropped]
    kept.sort()
    ordinary = _ordinary(plan, params, counts, kept, arrangement, dropped)
    ordinary = _capped_special(plan, params, counts, kept, arrangement, dropped, ordinary)
    if special < 0:
        return ordinary
    limit_hand = _limit_hand(plan, params, counts, kept, arrangement, special, dropped)
    if (params.special_or_ordinary_if_greater and arrangement.shape == "standard"
            and ordinary.key > limit_hand.key):
        return ordinary
    return limit_hand


_NONE_DROPPED: frozenset[int] = frozenset()


def _sums(plan: Plan, counts: dict[int, int], indices: list[int]) -> tuple[int, int]:
    """The points and the doubles of ``indices``' items, each times its matches."""
    worth, doubling = plan.points, plan.doubles
    points = doubles = 0
    for i in indices:
        n = counts[i]
        points += n * worth[i]
        doubles += n * doubling[i]
    return points, doubles


def _ordinary(plan: Plan, params, counts: dict[int, int], kept: list[int],
              arrangement: Arrangement, dropped: frozenset[int]) -> _Scored:
    use_doubles = params.use_doubles
    points, doubles = _sums(plan, counts, kept)
    if use_doubles:
        score = points * 2 ** doubles
    else:
        doubles = 0
        score = points
    score, limit = _capped(params, score, None)
    return _Scored(points, doubles, score, limit, arrangement, counts, tuple(kept), -1, 0,
                   dropped)


def _capped(params, score: int, limit: str | None) -> tuple[int, str | None]:
    """The score and its limit words after the house rule's cap: where every hand is capped
    (``cap_ordinary_hands``, 002), no score passes the limit, whatever path reached it (an
    ordinary hand, flowers on top of a limit hand, a fishing part-score or Purity's fishing
    doubles: issue #11)."""
    if params.cap_ordinary_hands and params.limit is not None and score > params.limit:
        return params.limit, "limit"
    return score, limit


def _capped_special(plan: Plan, params, counts: dict[int, int], kept: list[int],
                    arrangement: Arrangement, dropped: frozenset[int],
                    ordinary: _Scored) -> _Scored:
    """A special hand scored by doubles (Purity, 004 Sheet 23) whose item is capped at the
    limit: past the limit it scores as a limit hand, the limit with flowers and seasons on top
    (Sheet 21 item 6), never more than its uncapped score."""
    capped = next((i for i in kept if plan.capped[i]), -1)
    if capped < 0:
        return ordinary
    limited = _limit_hand(plan, params, counts, kept, arrangement, capped, dropped,
                          value=params.limit, words="limit")
    return limited if limited.score < ordinary.score else ordinary


def _limit_hand(plan: Plan, params, counts: dict[int, int], kept: list[int],
                arrangement: Arrangement, special: int, dropped: frozenset[int],
                value: int | None = None, words: str | None = None) -> _Scored:
    use_doubles = params.use_doubles
    if value is None:
        value, words = plan.special_value[special] or 0, plan.limit_words[special]
    # 004 Sheet 21 item 6: flowers and seasons on top, their own doubles applying to the
    # flower total only; nothing else of the ordinary score counts.
    bonus = [i for i in kept if plan.bonus[i]] if params.limit_hand_adds_bonus_tiles else []
    points, doubles = _sums(plan, counts, bonus)
    if not use_doubles:
        doubles = 0
    score, limit = _capped(params, value + _value(points, doubles, use_doubles), words)
    return _Scored(value + points, doubles, score, limit, arrangement, counts, tuple(bonus),
                   special, value, dropped)


def _lines(plan: Plan, scored: _Scored, use_doubles: bool) -> tuple[ScoreLine, ...]:
    if scored.lines is not None:
        return scored.lines
    out = []
    if scored.special >= 0:
        item = plan.items[scored.special]
        out.append(ScoreLine(item.code, item.wording, scored.special_value, 0, 1))
    out.extend(_item_lines(plan, scored.counts, scored.kept, use_doubles))
    return tuple(out)


def _item_lines(plan: Plan, counts: dict[int, int], indices: Iterable[int],
                use_doubles: bool) -> list[ScoreLine]:
    out = []
    for i in indices:
        n = counts[i]
        item = plan.items[i]
        points = n * item.points
        doubles = n * item.doubles if use_doubles else 0
        if points or doubles:
            out.append(ScoreLine(item.code, item.wording, points, doubles, n))
    return out


def _codes(plan: Plan, scored: _Scored) -> frozenset[str]:
    """Every item that matched and was not replaced, whatever it was worth."""
    codes = plan.codes
    if not scored.dropped:
        return frozenset(map(codes.__getitem__, scored.counts))
    return frozenset(codes[i] for i in scored.counts if i not in scored.dropped)


def _best(plan: Plan, side: tuple[Step, ...], hand: Hand, rule: HouseRule,
          arrangements: Iterable[Arrangement], is_winner: bool) -> _Scored:
    """The best-scoring arrangement. A Mah Jong read as a special shape counts only when one
    of the house rule's own special hands accepts it; when no reading is left, the hand is
    refused with what it is and what the house rule would need."""
    best: _Scored | None = None
    params = rule.scoring
    refused: list[str] = []
    for arrangement in arrangements:
        ctx = ScoringContext(hand, rule, arrangement, is_winner)
        counts = count_matches(side, ctx)
        shape = arrangement.shape
        if is_winner and shape in SPECIAL_SHAPES and not _shape_accepted(plan, shape, counts):
            refused.append(shape)
            continue
        scored = _tally(plan, params, counts, arrangement)
        if best is None or (scored.score, scored.points, scored.doubles) > (
                best.score, best.points, best.doubles):
            best = scored
    if best is None:
        raise HandError([Problem("concealed", "shape_not_in_house_rule",
                                 _shape_refusal(plan, refused))])
    return best


def _shape_accepted(plan: Plan, shape: str, counts: dict[int, int]) -> bool:
    return any(i in counts and shape in shapes for i, shapes in plan.shape_items)


def _shape_refusal(plan: Plan, shapes: list[str]) -> str:
    """Why a hand read only as special shapes is no Mah Jong under this house rule."""
    found = " or ".join(dict.fromkeys(SPECIAL_SHAPES[s] for s in shapes))
    wanted = sorted({plan.items[i].wording for i, accepted in plan.shape_items
                     if any(s in accepted for s in shapes)})
    needs = (f"its special hands of that shape are: {'; '.join(wanted)}" if wanted else
             "it has no special hand of that shape, only four sets and a pair and its other "
             "special hands")
    return (f"Not a valid Mah Jong under this house rule: these tiles make {found}, which "
            f"none of its special hands accepts ({needs}). Check the tiles, or send "
            "\"mahjong\": false.")


# -- fishing (004 Sheets 21-29) ---------------------------------------------------------------

def _fishing(hand: Hand, rule: HouseRule, plan: Plan, actual: _Scored,
             completions: Iterable[tuple[str, Sequence[Arrangement]]]
             ) -> tuple[_Scored, str] | None:
    """The part-score of a losing hand one tile short of a special hand, or None.

    Each special hand with a part-score is tried on every completed arrangement; its part of
    the limit (with flowers on top, as for a limit hand), or its extra doubles on the hand's own
    score, or the greater of the part and the actual value where the house rule says so,
    becomes the score. The best of them is kept.
    """
    best: tuple[_Scored, str] | None = None
    tried: set[str] = set()
    for _tile, arrangements in completions:
        if len(tried) == len(plan.fishing):
            break  # every special hand found: nothing more to find
        for arrangement in arrangements:
            ctx = ScoringContext(hand, rule, arrangement, False)
            for step in plan.fishing:
                code = step.item.code
                if code in tried or not step.count(ctx):
                    continue
                # A part-score does not depend on the tile that completes the hand.
                tried.add(code)
                candidate = _fishing_value(plan, step, rule.scoring, actual)
                if candidate is not None and (best is None or candidate.key > best[0].key):
                    best = (candidate, code)
    return best


def _changed(actual: _Scored, points: int, doubles: int, score: int, limit: str | None,
             lines: tuple[ScoreLine, ...]) -> _Scored:
    """``actual`` with another value and lines (dataclasses.replace, without its lookups)."""
    return _Scored(points, doubles, score, limit, actual.arrangement, actual.counts, actual.kept,
                   actual.special, actual.special_value, actual.dropped, lines)


def _fishing_value(plan: Plan, step: Step, params, actual: _Scored) -> _Scored | None:
    item = step.item
    use_doubles = params.use_doubles
    fishing_part = plan.fishing_parts.get(step.index)
    if fishing_part is not None:  # a part of the limit (item.fishing_limit, under a limit)
        part, words, line = fishing_part
        label: str | None = words
        lines = [line]
        points, doubles, score = part, 0, part
        kept_bonus = ([i for i in actual.kept if plan.bonus[i]]
                      if params.limit_hand_adds_bonus_tiles else None)
        if kept_bonus:  # without flowers or seasons there is nothing to add
            # As for a limit hand (004 Sheet 21 item 6): flowers on top of the part-score.
            bonus = _item_lines(plan, actual.counts, kept_bonus, use_doubles)
            lines += bonus
            for ln in bonus:
                points += ln.points
                doubles += ln.doubles
            score += _value(points - part, doubles, use_doubles)
            score, label = _capped(params, score, label)
        if item.fishing_actual_if_greater and actual.score > score:
            # 004 Sheet 28: "or actual hand value, whichever is the greater".
            note = ScoreLine(item.code, f"Fishing for {item.wording}: the actual value is "
                             f"greater than {label}", 0, 0, 1)
            return _changed(actual, actual.points, actual.doubles, actual.score, actual.limit,
                            (*_lines(plan, actual, use_doubles), note))
        return _changed(actual, points, doubles, score, label, tuple(lines))
    if item.fishing_doubles and use_doubles:
        # 004 Sheet 23 (Purity): "Fishing also gets three doubles" on the hand's own points.
        doubles = actual.doubles + item.fishing_doubles
        note = ScoreLine(item.code, f"Fishing for {item.wording}", 0, item.fishing_doubles, 1)
        score, limit = _capped(params, actual.points * 2 ** doubles, actual.limit)
        if plan.capped[step.index]:  # capped at the limit as the hand itself is
            part = params.limit
            bonus = _item_lines(plan, actual.counts,
                                [i for i in actual.kept if plan.bonus[i]]
                                if params.limit_hand_adds_bonus_tiles else (), use_doubles)
            points = part + sum(ln.points for ln in bonus)
            bonus_doubles = sum(ln.doubles for ln in bonus)
            limited = part + _value(points - part, bonus_doubles, use_doubles)
            if limited < score:
                label = f"limit (fishing for {short_name(item)})"
                line = ScoreLine(item.code, f"Fishing for {item.wording}", part, 0, 1)
                return _changed(actual, points, bonus_doubles, limited, label, (line, *bonus))
        return _changed(actual, actual.points, doubles, score, limit,
                        (*_lines(plan, actual, use_doubles), note))
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

def _melds(sets) -> tuple[Meld, ...]:
    """An arrangement's sets as the result's melds."""
    return tuple(Meld(kind=s.kind, tile=s.tile, concealed=s.concealed, added=s.how == "added",
                      tiles=s.tiles) for s in sets)


def _result(hand: Hand, plan: Plan, params, scored: _Scored, *,
            fishing_for: str | None = None,
            minimum: tuple[bool, str | None] = (True, None)) -> ScoreResult:
    codes = _codes(plan, scored)
    if fishing_for:
        codes |= {fishing_for}
    arrangement = scored.arrangement
    return ScoreResult(
        points=scored.points,
        doubles=scored.doubles,
        score=scored.score,
        limit=scored.limit,
        lines=_lines(plan, scored, params.use_doubles),
        arrangement=_melds(arrangement.sets),
        shape=arrangement.shape,
        mahjong=hand.mahjong,
        meets_minimum=minimum[0],
        minimum_reason=minimum[1],
        fishing_for=fishing_for,
        special=plan.codes[scored.special] if scored.special >= 0 else None,
        item_codes=codes,
        loose=arrangement.loose,
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
        line = ScoreLine("only_winner_scores",
                         "Only the Mah Jong player scores under this house rule", 0, 0, 0)
        nothing = _Scored(0, 0, 0, None, arrangements[0], {}, (), lines=(line,))
        return _result(hand, plan, params, nothing)
    side = plan.winner if hand.mahjong else plan.loser
    best = _best(plan, side, hand, rule, arrangements, hand.mahjong)
    if not hand.mahjong and hand.fishing and params.fishing_part_scores and plan.fishing:
        fished = _fishing(hand, rule, plan, best, completions)
        if fished is not None:
            return _result(hand, plan, params, fished[0], fishing_for=fished[1])
    return _result(hand, plan, params, best, minimum=_minimum(hand, rule, best))


def score_hand(hand: Hand, rule: HouseRule) -> ScoreResult:
    """Validate ``hand`` under ``rule`` (``HandError`` if it cannot be), find its
    arrangements and score the best of them."""
    validate_hand(hand, rule)
    found = find_arrangements(hand, rule)
    if not found:
        raise HandError([Problem("concealed", "not_a_winning_hand", NOT_A_WINNING_HAND)])
    fishing: list = []
    # Completing a hand tile by tile is the dearest search: only when a part-score can come.
    if not hand.mahjong and hand.fishing and rule.scoring.fishing_part_scores:
        plan = plan_for(rule)
        if plan.fishing:
            fishing = find_completions(hand, rule, plan.fishing_pungs_only)
    return score_arrangements(hand, rule, found, fishing)


NOT_A_WINNING_HAND = (
    "These tiles do not make a complete hand under this house rule (four sets and a pair, or "
    "one of its special hands): check the melds and concealed tiles, or send \"mahjong\": false."
)


__all__ = ["ScoreLine", "ScoreResult", "limit_words", "plan_for",
           "score_arrangements", "score_hand"]
