"""The scoring engine: plain Python, no Django. See docs/ARCHITECTURE.md for the interfaces."""

from .context import ScoringContext
from .errors import HandError, Problem
from .hand import Arrangement, Hand, Meld, Set, Win
from .parse import parse_hand
from .rules import functions, functions_more, special_hands  # noqa: F401 - registers the rule functions
from .rules.builtin import UnknownHouseRule, builtin_house_rules, get_house_rule
from .rules.model import HouseRule, HouseRuleError, Item, ScoringParams
from .rules.registry import RULE_FUNCTIONS, rule_function
from .score import ScoreLine, ScoreResult, score_arrangements, score_hand

__all__ = [
    "RULE_FUNCTIONS",
    "Arrangement",
    "Hand",
    "HandError",
    "HouseRule",
    "HouseRuleError",
    "Item",
    "Meld",
    "Problem",
    "ScoreLine",
    "ScoreResult",
    "ScoringContext",
    "ScoringParams",
    "Set",
    "UnknownHouseRule",
    "Win",
    "builtin_house_rules",
    "get_house_rule",
    "parse_hand",
    "rule_function",
    "score_arrangements",
    "score_hand",
]
