"""The pages' side of the recording service and the table's read model.

``clubs.table_state`` and ``clubs.recording`` speak in seat ids, winds and DRF-shaped errors;
the templates want names, wind names and a message per form field. This module translates,
and nothing else: no scoring, no settling, no writing of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clubs import recording, table_state
from clubs.hand_text import melds_to_text
from clubs.models import AuditAction, AuditEntry, Hand, Seat, Wind
from clubs.plain_words import for_people
from play import RESEAT, UNKNOWN, HandInputError, discarder_unknown

WIND_NAMES = dict(Wind.choices)
WIND_ORDER = ("E", "S", "W", "N")
POT = "pot"


def _short(name: str) -> str:
    return name.split()[0] if name else name


def _party(names: dict, who) -> str:
    return "Pot" if who == POT else names.get(who, str(who))


def score_lines(result) -> list[str]:
    """A ScoreResult's explanation as short lines a player can check against the tiles."""
    if result is None:
        return []
    lines = []
    for line in result.lines:
        parts = []
        if line.points:
            parts.append(f"{line.points} pt{'s' if line.points != 1 else ''}")
        if line.doubles:
            parts.append(f"{line.doubles} double{'s' if line.doubles != 1 else ''}")
        count = f" ×{line.count}" if getattr(line, "count", 1) and line.count > 1 else ""
        lines.append(f"{for_people(line.name)}{count}: {', '.join(parts) or '0'}")
    total = f"{result.points} points"
    if result.doubles:
        total += f", {result.doubles} double{'s' if result.doubles != 1 else ''}"
    lines.append(f"= {total} → {result.score}" + (f" ({result.limit})" if result.limit else ""))
    return lines


def _summary(row, names: dict) -> str:
    if row.draw:
        return "Wall game (no winner)."
    text = f"{names.get(row.winner, '?')} went Mah Jong"
    if row.win_source == "discard" and row.discarder:
        text += f" on {names.get(row.discarder, '?')}'s discard"
    elif discarder_unknown(row.winner, row.discarder, row.win_source):
        text += {"discard": " on a discard", "robbed_kong": " robbing a kong"}[row.win_source]
        text += " (who gave the tile is not known)"
    elif row.win_source:
        text += {
            "wall": " from the wall",
            "kong_box": " with a replacement tile",
            "robbed_kong": f" robbing {names.get(row.discarder, '?')}'s kong",
        }.get(row.win_source, "")
    return text + "."


HANDS_PER_PAGE = 24


def table_view(table, before: int | None = None, per_page: int = HANDS_PER_PAGE) -> dict:
    """The table's read model for the template: seats, next hand, pot, and one page of hands
    (the latest ``per_page``, or those before hand ``before``), read from what recording
    stored: a night of 400 hands costs the page what a night of 24 does."""
    state = table_state.stored_table_state(table, before=before, last=per_page)
    names = {seat.id: seat.name for seat in state.seats}
    next_winds = state.next.seating.winds
    seats = [
        {
            "id": seat.id,
            "name": seat.name,
            "short_name": _short(seat.name),
            "wind": next_winds.get(seat.id, ""),
            "wind_name": WIND_NAMES.get(next_winds.get(seat.id, ""), ""),
            "is_east": seat.id == state.next.dealer,
            "total": state.totals.get(seat.id, 0),
        }
        for seat in state.seats
    ]
    # The score sheet keeps one column per player in seat order, as on paper; the next-hand
    # card lists East first, then round the table, a seat sitting out last.
    columns = list(seats)
    seats.sort(key=lambda s: WIND_ORDER.index(s["wind"]) if s["wind"] else len(WIND_ORDER))
    notes = change_notes([row.id for row in state.hands])
    hands = [_hand_view(row, names, columns, notes=notes.get(row.id, ())) for row in state.hands]
    seating = state.next.seating
    east = next((s for s in state.seats if s.id == state.next.dealer), None)
    shown = [row.number for row in state.hands]
    return {
        "seats": seats,
        "columns": columns,
        "hands": hands,
        "pot": state.pot,
        "earlier": min(shown) if shown and min(shown) > 1 else None,
        # The page after this one: ``before`` for it, or "" when it is the latest page.
        "later": _later(shown, state.next.number - 1, per_page),
        "hand_count": state.next.number - 1,
        "next": {
            "number": state.next.number,
            "prevailing_wind": seating.prevailing_wind,
            "prevailing_wind_name": WIND_NAMES[seating.prevailing_wind],
            "goulash": seating.goulash,
            "east_name": east.name if east else "",
            "dealer_wind_name": WIND_NAMES.get(next_winds.get(state.next.dealer, ""), ""),
            "winds": dict(next_winds),
        },
    }


def _later(shown: list[int], last_number: int, per_page: int) -> int | str | None:
    if not shown or max(shown) >= last_number:
        return None
    before = max(shown) + 1 + per_page
    return "" if before > last_number else before


def change_notes(hand_ids: list[int]) -> dict[int, list[str]]:
    """Why each hand was corrected, voided or restored, oldest first, as the audit trail
    keeps it: one query for a page of hands."""
    if not hand_ids:
        return {}
    said = {AuditAction.UPDATE: "Corrected", AuditAction.VOID: "Void",
            AuditAction.RESTORE: "Restored"}
    notes: dict[int, list[str]] = {}
    rows = (AuditEntry.objects.filter(object_type="hand", action__in=list(said),
                                      object_id__in=[str(i) for i in hand_ids])
            .order_by("at", "id").values_list("object_id", "action", "note"))
    for object_id, action, note in rows:
        if note or action == AuditAction.RESTORE:
            notes.setdefault(int(object_id), []).append(
                f"{said[action]}: {note}" if note else said[action])
    return notes


def _hand_view(row, names: dict, columns: list[dict], with_lines: bool = False,
               notes=()) -> dict:
    winds = row.seating.winds
    return {
        "id": row.id,
        "number": row.number,
        "voided": row.voided,
        "kept": row.kept,
        "notes": list(notes),
        "goulash": row.goulash,
        "error": row.error,
        "summary": _summary(row, names),
        "pot_before": row.pot_before,
        "pot_after": row.pot_after,
        "by_seat": [
            {"running_total": None if row.voided else row.totals.get(seat["id"])}
            for seat in columns
        ],
        "rows": [
            {
                "name": names[seat_id],
                "wind": winds[seat_id],
                "wind_name": WIND_NAMES[winds[seat_id]],
                "is_winner": seat_id == row.winner,
                "score": row.scores.get(seat_id, "–"),
                "net": row.net.get(seat_id, 0),
                "running_total": row.totals.get(seat_id, 0),
                "lines": score_lines(row.results.get(seat_id)) if with_lines else [],
                "entered": _entered_text(row.entries.get(seat_id)) if with_lines else "",
            }
            for seat_id in sorted(winds, key=lambda s: WIND_ORDER.index(winds[s]))
        ],
        "payments": [
            {
                "payer": _party(names, p.payer),
                "payee": _party(names, p.payee),
                "amount": p.amount,
                "why": p.why,
            }
            for p in row.payments
        ],
    }


def _entered_text(entry: dict | None) -> str:
    """What was entered for a seat, as the scorer would type it again."""
    if not entry:
        return ""
    data = entry["data"]
    if entry["kind"] == "quick" or "score" in data:
        return f"agreed score {data.get('score')}"
    parts = [melds_to_text(data.get("melds", [])), " ".join(data.get("concealed", [])),
             " ".join(data.get("bonus", []))]
    return " · ".join(p for p in parts if p)


def hand_view(table, hand) -> dict:
    """One recorded hand with every seat's explanation and what was entered, read from what
    recording stored."""
    state = table_state.stored_table_state(table, only=hand.number)
    names = {seat.id: seat.name for seat in state.seats}
    columns = [{"id": seat.id} for seat in state.seats]
    row = state.hands[0]
    return _hand_view(row, names, columns, with_lines=True,
                      notes=change_notes([row.id]).get(row.id, ()))


def next_hand_view(table) -> dict:
    """What the record page shows of the table: the next hand, the pot and the seats' names;
    read from the table's state, so a long night costs no more than a short one."""
    number, seating, pot, seats = recording.next_hand_of(table)
    winds = seating.winds
    # The dealer, as the settlement has them: East, or the winner who deals again (002).
    east = next((s for s in seats if s.id == seating.dealer_seat), None)
    return {
        "seats": [{"id": seat.id, "name": seat.name} for seat in seats],
        "pot": pot,
        "next": {
            "number": number,
            "prevailing_wind": seating.prevailing_wind,
            "prevailing_wind_name": WIND_NAMES[seating.prevailing_wind],
            "goulash": seating.goulash,
            "east_name": east.name if east else "",
            "dealer_wind_name": WIND_NAMES.get(winds.get(seating.dealer_seat, ""), ""),
            "winds": dict(winds),
        },
    }


def seats_for_next_hand(view: dict) -> list[tuple[Seat, str]]:
    """The seats in play in the next hand with their winds, East first."""
    winds = view["next"]["winds"]
    seats = Seat.objects.filter(pk__in=winds).select_related("member")
    return sorted(((s, winds[s.pk]) for s in seats), key=lambda sw: WIND_ORDER.index(sw[1]))


def seats_of_hand(hand: Hand) -> list[tuple[Seat, str]]:
    entries = hand.entries.select_related("seat__member")
    return sorted(
        ((e.seat, e.seat_wind) for e in entries), key=lambda sw: WIND_ORDER.index(sw[1])
    )


def initial_from_hand(hand: Hand) -> tuple[dict, dict]:
    """A recorded hand as the record form's initial values (outcome, per seat id)."""
    outcome = {
        "winner": str(hand.winner_id) if hand.winner_id else "draw",
        "discarder": (str(hand.discarder_id) if hand.discarder_id
                      else UNKNOWN if discarder_unknown(hand.winner_id, None, hand.win_source)
                      else ""),
        "win_source": hand.win_source,  # none for a wall game: nothing answered yet
        "goulash": hand.goulash,
    }
    entries = {}
    for entry in hand.entries.all():
        data = entry.data
        if set(data) == {"score"}:
            entries[entry.seat_id] = {"mode": "quick", "score": data["score"]}
            continue
        win = data.get("win") or {}
        if entry.seat_id == hand.winner_id:
            outcome.update(
                last_wall_tile=bool(win.get("last_wall_tile")),
                last_discard=bool(win.get("last_discard")),
                original_call=bool(win.get("original_call")),
            )
        entries[entry.seat_id] = {
            "mode": "full",
            "melds": melds_to_text(data.get("melds", [])),
            "concealed": " ".join(data.get("concealed", [])),
            "bonus": " ".join(data.get("bonus", [])),
            "win_tile": win.get("tile") or "",
            "fishing": bool(data.get("fishing")),
        }
    return outcome, entries


# -- calling the recording service -------------------------------------------------------


@dataclass
class Result:
    ok: bool
    hand: Hand | None = None
    preview: dict | None = None
    errors: dict[str, Any] = field(default_factory=dict)
    # A hand number taken by another entry: the hand saved, and yours, in a sentence each.
    conflict: dict[str, str] | None = None


def _failed(errors: dict) -> Result:
    return Result(ok=False, errors=errors)


def preview(table, entered: dict, view: dict) -> Result:
    try:
        found = recording.preview_hand(table, entered)
    except HandInputError as err:
        return _failed(err.errors)
    except recording.HandConflict as err:
        return _failed({"non_field_errors": [str(err)]})
    seats = {s["id"]: s["name"] for s in view["seats"]}
    computed = found.computed
    rows = []
    for wind in WIND_ORDER:
        if wind not in found.seat_ids:
            continue
        seat_id = found.seat_ids[wind]
        scored = computed.seats[wind]
        result = scored.result
        rows.append(
            {
                "wind_name": WIND_NAMES[wind],
                "name": seats.get(seat_id, ""),
                "score": scored.score,
                "quick": scored.kind == "quick",
                "limit": getattr(result, "limit", None),
                "lines": score_lines(result),
                "net": computed.settlement.net.get(wind, 0),
                "total_after": found.totals_after.get(seat_id, 0),
            }
        )
    by_wind = {wind: seats.get(seat_id, wind) for wind, seat_id in found.seat_ids.items()}
    payments = [
        {
            "payer": "Pot" if p.payer == POT else by_wind.get(p.payer, p.payer),
            "payee": "Pot" if p.payee == POT else by_wind.get(p.payee, p.payee),
            "amount": p.amount,
            "why": p.why,
        }
        for p in computed.settlement.payments
    ]
    return Result(ok=True, preview={"rows": rows, "payments": payments, "pot_after": found.pot_after})


def record(table, entered: dict, user, client_id=None, read_as=None) -> Result:
    try:
        return Result(ok=True, hand=recording.record_hand(table, entered, user,
                                                           client_id=client_id,
                                                           read_as=read_as))
    except HandInputError as err:
        return _failed(err.errors)
    except recording.HandConflict as err:
        return conflict(table, err)


def conflict(table, err) -> Result:
    """A conflict as the page shows it: what happened, the hand saved, and yours."""
    seats = {s.id: s.name for s in table_state.seats_of(table)}
    saved = yours = ""
    if err.saved is not None:
        saved = f"Saved as hand {err.saved.number}: {hand_view(table, err.saved)['summary']}"
    if err.entry:
        yours = f"Yours: {entry_summary(err.entry, seats, err.seat_of or {})}"
    message = " ".join(part for part in (str(err), saved, yours) if part)
    return Result(ok=False, errors={"non_field_errors": [message]},
                  conflict={"message": str(err), "saved": saved, "yours": yours})


def entry_summary(entry: dict, names: dict, seat_of: dict) -> str:
    """An entry in a sentence, its players named through the seating it was read with (wind
    -> seat id), or by wind alone."""
    winds = {wind: names.get(seat, wind) for wind, seat in seat_of.items()}

    def who(wind):
        return winds.get(wind, wind)

    if entry.get("draw"):
        text = "wall game (no winner)"
    else:
        text = f"{who(entry.get('winner'))} went Mah Jong"
        discarder, robbed = entry.get("discarder"), entry.get("win_from") == "robbed_kong"
        if discarder == UNKNOWN:
            text += (" robbing a kong" if robbed else " on a discard") + \
                " (who gave the tile is not known)"
        elif discarder:
            text += f" robbing {who(discarder)}'s kong" if robbed else \
                f" on {who(discarder)}'s discard"
    scores = ", ".join(f"{who(w)} {d['score']}" for w, d in (entry.get("seats") or {}).items()
                       if isinstance(d, dict) and "score" in d)
    return text + (f"; agreed scores {scores}" if scores else "") + "."


def correct(hand: Hand, entered: dict, user, client_id=None, reason: str = "",
            later_hands: str = RESEAT) -> Result:
    changes = {k: v for k, v in entered.items() if k != "number"}
    try:
        return Result(ok=True, hand=recording.correct_hand(
            hand, changes, user, note=reason, client_id=client_id, later_hands=later_hands))
    except HandInputError as err:
        return _failed(err.errors)
    except recording.HandConflict as err:
        return _failed({"non_field_errors": [str(err)]})


def void(hand: Hand, user, reason: str, voided: bool = True, client_id=None,
         later_hands: str = RESEAT) -> Result:
    try:
        return Result(ok=True, hand=recording.void_hand(hand, user, reason, voided=voided,
                                                         client_id=client_id,
                                                         later_hands=later_hands))
    except HandInputError as err:
        return _failed(err.errors)
    except recording.HandConflict as err:
        return _failed({"non_field_errors": [str(err)]})


def swap(hand: Hand, first_seat_id: int, second_seat_id: int, user, reason: str) -> Result:
    seats = {s.pk: s for s in Seat.objects.filter(table_id=hand.table_id)}
    try:
        recording.swap_seats(
            hand.table, seats[first_seat_id], seats[second_seat_id], hand.number, user, reason
        )
    except HandInputError as err:
        return _failed(err.errors)
    return Result(ok=True, hand=hand)


# -- errors onto form fields ----------------------------------------------------------------


def flatten_errors(errors: Any, prefix: str = "") -> list[tuple[str, str]]:
    """DRF's nested error shape as (dotted path, message) pairs."""
    if isinstance(errors, dict):
        pairs = []
        for key, value in errors.items():
            pairs += flatten_errors(value, f"{prefix}.{key}" if prefix else str(key))
        return pairs
    if isinstance(errors, list | tuple):
        pairs = []
        for value in errors:
            pairs += flatten_errors(value, prefix)
        return pairs
    return [(prefix, for_people(str(errors)))]


# The contract's hand fields, and the record form's field that shows a problem with each.
FORM_FIELD_OF = {
    "melds": "melds",
    "concealed": "concealed",
    "bonus": "bonus",
    "win": "win_tile",
    "score": "score",
    "fishing": "fishing",
}
# The entry's outcome fields, and the outcome form's field for each.
OUTCOME_FIELD_OF = {
    "winner": "winner",
    "draw": "winner",
    "discarder": "discarder",
    "win_from": "win_source",
    "goulash": "goulash",
}


def form_field_for(path: str) -> str | None:
    return FORM_FIELD_OF.get(path.partition(".")[0])


def messages_of(result: Result) -> list[str]:
    return [message for _, message in flatten_errors(result.errors)]
