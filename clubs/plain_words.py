"""The engines' sentences in a club's words, for the pages.

The engines and the API answer programs: a refusal may say what to send (`"mahjong": false`)
and an item may cite the line of the rule document it reads ("line 920 says ..."), which is
what a program's author or a rule's maintainer needs. A player at the table needs what to tap
instead. The API keeps the engines' words; the pages pass them through ``for_people``.
"""

from __future__ import annotations

import re

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    # score._shape_refusal
    (re.compile(r'Check the tiles, or send "mahjong": false\.'),
     "Check the tiles, or record this hand as not going Mah Jong."),
    # validate._check_count: the house rule's switch, named as the rule's data names it
    (re.compile(r" \(its switch count_short_losing_hands, 004 Sheet 30 item 1\)"), ""),
    (re.compile(r"\bcount_short_losing_hands\b"), "counting short losing hands"),
    # an item's wording citing the document's line ("own wind; line 920 says the prevailing")
    (re.compile(r";\s*line \d+ says [^)]*"), ""),
    # a description's citations of the rule document: its file name, "(lines 205, 460)",
    # "(line 313: variation ...)", "set scoring.limit to change it"
    (re.compile(r"\s*\(\d{3}_[0-9a-f]{16}\.txt\)"), ""),
    (re.compile(r";\s*set [a-z_]+\.[a-z_.]+ to change it"), ""),
    (re.compile(r"\s*\((?:see )?lines? \d[^()]*\)"), ""),
    (re.compile(r"\blines? \d+(?:[-–,] ?\d+)* (names|says|gives)\b"), r"the rule book \1"),
    (re.compile(r",\s*lines? \d+(?:[-–,] ?\d+)*(?=\))"), ""),
    # play.entry's answers to an API body, said as the record page's questions
    (re.compile(r": leave them null, or set draw to false\."),
     ": choose who went Mah Jong, or Wall game, not both."),
    (re.compile(r", or set draw to true for a wall game\."), ", or choose Wall game."),
    (re.compile(r"has no discarder: leave it null, or say the hand was won on a discard\."),
     "has no discarder: leave “Who discarded” empty, or answer “On a discard”."),
    (re.compile(r" \(\s*([A-Z][a-z]*(?:, [A-Z][a-z]*)*)\s*\)(?=, or choose Wall game)"), r""),
    (re.compile(r"; use [A-Z, ]+ or null\."), "."),
    # a parse problem only a program can cause
    (re.compile(r"A hand is a JSON object, not [^;]*; send [^.]*\."),
     "The hand could not be read: type its tiles again."),
)


# A parameter named as the rule's data names it ("switch special_or_ordinary_if_greater",
# "payment.kitty_after_another_draw"): named as the setting the copy form shows, in words.
_SETTING = re.compile(r"\b(?:(?:switch|argument|item field|items?) )?"
                      r"(?:(?:scoring|payment|rotation|items)\.)?"
                      r"((?:[a-z]+_)+[a-z]+)(?:\.(?:[a-z]+_)*[a-z]+)*\b")


def _setting(match: re.Match[str]) -> str:
    return "the setting “" + match[1].replace("_", " ") + "”"


def for_people(text: str) -> str:
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return text


def description_for_people(text: str) -> str:
    """A house rule's description: its citations dropped and the settings it names (the
    readings it takes) named in words. Only descriptions: elsewhere a word with underscores
    may be a value (``kong_box``), not a setting."""
    return _SETTING.sub(_setting, for_people(text))
