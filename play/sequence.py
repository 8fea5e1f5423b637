"""The night's sequence: who deals, each player's seat wind and the wind of the round, hand after
hand, as the house rule's rotation says, and what happens to the hands after one that is
corrected or voided.

The seating of a recorded hand is stored with it, so the rotation only says who plays which wind
next. After a correction or a void that changes who deals, the later hands are either
**re-seated** (the seating is derived from the corrected night: ``reseated``) or kept **as the
table played on** (the stored seating stays, the hand is marked ``KEPT`` and the rotation
continues from it: ``align``). Either way ``sequence_breaks`` finds no hand whose seating the
rotation forbids: a mark is the one way a night may start again from what was played.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from play.seating import WIND_ORDER, apply_swaps, rotation_advance, rotation_start
from settlements.engine import Seating as Rotation

# Hand.facts key: this hand was played with its stored seating, whatever the hands before it
# say now (a correction or void made with "the table played on as recorded").
KEPT = "seating_as_recorded"

# What the later hands of a corrected or voided hand do (the API's and the page's choice).
RESEAT, AS_RECORDED = "reseat", "as_recorded"
LATER_HANDS = (RESEAT, AS_RECORDED)


@dataclass(frozen=True)
class SeatingOf:
    """The part of a hand's seating the rotation decides: each seat's wind, the wind of the
    round and who deals. Seat ids as ``str``, as the settlement engine's rotation keys them."""

    winds: dict[str, str]
    prevailing_wind: str
    dealer: str

    @classmethod
    def of_hand(cls, hand) -> SeatingOf:
        """A ``RecordedHand``'s stored seating (its entries' winds; no dealer stored means
        East deals)."""
        winds = {str(s): e["wind"] for s, e in hand.entries.items()}
        dealer = hand.dealer
        if dealer is None:
            dealer = next((s for s, w in winds.items() if w == "E"), None)
        return cls(winds, hand.prevailing_wind, str(dealer))

    @classmethod
    def of_rotation(cls, rot: Rotation) -> SeatingOf:
        return cls(dict(rot.winds), rot.prevailing_wind, rot.dealer)

    def differences(self, other: SeatingOf, names: dict[str, str]) -> list[str]:
        """What differs from ``other`` (the rotation's), in words."""
        said = []
        if self.dealer != other.dealer:
            said.append(f"{names.get(self.dealer, self.dealer)} deals where the rotation gives "
                        f"{names.get(other.dealer, other.dealer)}")
        if self.prevailing_wind != other.prevailing_wind:
            said.append(f"the round is {self.prevailing_wind} where the rotation gives "
                        f"{other.prevailing_wind}")
        if self.winds != other.winds:
            said.append("seat winds " + _winds_text(self.winds, names) + " where the rotation "
                        "gives " + _winds_text(other.winds, names))
        return said


def _winds_text(winds: dict[str, str], names: dict[str, str]) -> str:
    by_wind = {w: p for p, w in winds.items()}
    return ", ".join(f"{w} {names.get(by_wind[w], by_wind[w])}" for w in WIND_ORDER
                     if w in by_wind)


def kept(hand) -> bool:
    return bool((hand.facts or {}).get(KEPT))


def align(rot: Rotation, seating: SeatingOf, before: Rotation | None = None,
          before_drawn: bool = False) -> Rotation:
    """The rotation continued from a stored seating: the same rotation when the two agree
    (every hand recorded in turn), else the one that seats the table as stored, with the counts
    the rotation keeps (hands the dealer has dealt in a row, hands in this wind of the round)
    carried on as the table played them. ``before`` is the rotation of the hand before, which
    these counts continue when that hand's dealer or wind of the round carried on."""
    if (rot.dealer == seating.dealer and rot.prevailing_wind == seating.prevailing_wind
            and rot.winds == seating.winds):
        return rot
    n = len(rot.players)
    base = rot.passes - rot.passes % n
    moved = next((cand for k in range(n)
                  if (cand := replace(rot, passes=base + k)).winds == seating.winds), None)
    if moved is None:
        # Not a turn of the table (only a change made by hand does this): the players' order
        # round the table becomes the stored one, East first, anyone sitting out after.
        order = sorted(seating.winds, key=lambda p: WIND_ORDER.index(seating.winds[p]))
        order += [p for p in rot.players if p not in seating.winds]
        moved = replace(rot, players=tuple(order), passes=base)
    if seating.dealer == rot.dealer:
        dealer_hands = rot.dealer_hands
    elif before is not None and seating.dealer == before.dealer:
        dealer_hands = before.dealer_hands + (0 if before_drawn else 1)
    else:
        dealer_hands = 0
    if seating.prevailing_wind == rot.prevailing_wind:
        hands_in_wind = rot.hands_in_wind
    elif before is not None and seating.prevailing_wind == before.prevailing_wind:
        hands_in_wind = before.hands_in_wind + 1
    else:
        hands_in_wind = 0
    return replace(moved, dealer=seating.dealer, prevailing_wind=seating.prevailing_wind,
                   dealer_hands=dealer_hands, hands_in_wind=hands_in_wind)


def reseated(hand, rot: Rotation):
    """The recorded hand seated as the rotation says: its entries' winds, its wind of the round
    and its dealer from ``rot``; the facts that name winds (penalties, clean hands) follow their
    players. None when the players who entered this hand are not those the rotation seats (five
    at a table, another would sit out): what was entered says who played it, so the table
    played on as recorded from there."""
    derived = SeatingOf.of_rotation(rot)
    stored = SeatingOf.of_hand(hand)
    if stored.winds == derived.winds and stored.prevailing_wind == derived.prevailing_wind \
            and stored.dealer == derived.dealer:
        return hand
    if set(stored.winds) != set(derived.winds):
        return None
    new_wind = {int(s): derived.winds[s] for s in stored.winds}
    old_to_new = {e["wind"]: new_wind[s] for s, e in hand.entries.items()}
    entries = {s: {**e, "wind": new_wind[s]} for s, e in hand.entries.items()}
    return replace(hand, entries=entries, prevailing_wind=derived.prevailing_wind,
                   dealer=int(derived.dealer), facts=facts_rewound(hand.facts, old_to_new))


def facts_rewound(facts: dict | None, old_to_new: dict[str, str]) -> dict:
    """A hand's facts with the winds they name moved as their players' seats moved."""
    facts = dict(facts or {})
    if "penalties" in facts:
        facts["penalties"] = [
            {**p, **{k: old_to_new.get(p[k], p[k]) for k in ("offender", "claimant")
                     if p.get(k) is not None}}
            for p in facts["penalties"]
        ]
    if "clean_hands" in facts:
        facts["clean_hands"] = [old_to_new.get(w, w) for w in facts["clean_hands"]]
    return facts


@dataclass(frozen=True)
class Break:
    number: int
    problems: tuple[str, ...]

    def __str__(self) -> str:
        return f"Hand {self.number}: " + "; ".join(self.problems) + "."


def sequence_breaks(seats, hands, rule) -> list[Break]:
    """Every hand whose stored seating the house rule's rotation forbids after the hands before
    it (each break once: the rotation goes on from what is stored). A hand marked ``KEPT``
    starts again from its own seating. ``seats`` are ``SeatInfo``s, ``hands``
    ``RecordedHand``s in order."""
    names = {str(s.id): s.name for s in seats}
    rot = rotation_start(rule, seats)
    before, before_drawn = None, False
    breaks = []
    for hand in hands:
        rot = apply_swaps(rot, hand.facts)
        stored = SeatingOf.of_hand(hand)
        if not kept(hand):
            wrong = stored.differences(SeatingOf.of_rotation(rot), names)
            if wrong:
                breaks.append(Break(hand.number, tuple(wrong)))
        rot = align(rot, stored, before, before_drawn)
        if hand.voided:
            continue
        before, before_drawn = rot, hand.winner is None
        rot = rotation_advance(rule, rot, hand.winner)
    return breaks
