"""Matching the names in a spreadsheet to a club's members: an exact match (ignoring case,
spaces and full stops), else a suggestion (difflib's ratio over the normalised names, first
names and initials counted: "Jon Smith" suggests "John Smith", "J. Smith" suggests "John
Smith" when no other Smith starts with J), else nothing. Plain Python: names in, matches out."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

SUGGEST_AT = 0.75
# The longest name a member or a guest keeps (Member.display_name, the guest_name columns).
LONGEST = 80
# Unicode's explicit direction controls (embeddings, overrides, isolates), which
# config.middleware takes out of every form and API body: a name read from a file loses them
# too, so it is the name the page's choices are keyed by (a form field named with an
# override arrived without it, and the name could never be chosen), and never turns the words
# after it backwards on a page, a sheet or an export.
_DIRECTION_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def clean(name) -> str:
    """A name as a file writes it, without direction controls or surrounding spaces."""
    return _DIRECTION_CONTROLS.sub("", str(name)).strip()


def too_long(name: str, where: str = "") -> str:
    """The sentence for a name longer than a member's or a guest's name may be, else ''
    (``where``: " in game 2", said after the name)."""
    if len(name) <= LONGEST:
        return ""
    return (f"the name {name[:24]!r}...{where} is {len(name)} characters long; a name may "
            f"have at most {LONGEST}")


def normalise(name: str) -> str:
    return " ".join(str(name).replace(".", " ").replace(",", " ").lower().split())


@dataclass(frozen=True)
class Match:
    name: str
    exact: int | None = None  # the member's id
    suggestion: int | None = None
    score: float = 0.0


def _initial_match(a: str, b: str) -> bool:
    """'j smith' and 'john smith': the same surname, the initial of the same first name."""
    pa, pb = a.split(), b.split()
    if len(pa) < 2 or len(pa) != len(pb) or pa[-1] != pb[-1]:
        return False
    return all(x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
               for x, y in zip(pa[:-1], pb[:-1], strict=True))


def _typos(a: str, b: str) -> int:
    """Edits between two names, a swap of neighbouring letters counting one (the optimal
    string alignment distance)."""
    if abs(len(a) - len(b)) > 2:
        return max(len(a), len(b))
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def match_names(names, members: dict[int, str]) -> dict[str, Match]:
    """``members``: id -> display name. Every name in ``names`` gets a Match."""
    by_norm: dict[str, int] = {}
    for pk, display in members.items():
        by_norm.setdefault(normalise(display), pk)
    result = {}
    for name in names:
        norm = normalise(name)
        if norm in by_norm:
            result[name] = Match(name, exact=by_norm[norm], score=1.0)
            continue
        best, best_score = None, 0.0
        initials = [pk for n, pk in by_norm.items() if _initial_match(norm, n)]
        if len(initials) == 1:
            best, best_score = initials[0], 0.9
        else:
            for other, pk in by_norm.items():
                # difflib's ratio; a slip of a key or two (a swapped pair of letters, "Bbo"
                # for "Bob": one per five letters, at least one) is a suggestion however
                # short the name.
                score = difflib.SequenceMatcher(None, norm, other).ratio()
                if len(norm) >= 3 and _typos(norm, other) <= max(1, len(other) // 5):
                    score = max(score, 0.8)
                if score > best_score:
                    best, best_score = pk, score
        if best is not None and best_score >= SUGGEST_AT:
            result[name] = Match(name, suggestion=best, score=round(best_score, 2))
        else:
            result[name] = Match(name)
    return result
