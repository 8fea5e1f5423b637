"""The record page's answers to the phone's queue (static/js/record-queue.js).

The queue sends each hand saved without signal as the very form the page would have posted,
asking for JSON (``Accept: application/json``): the same view, the same checks and the same
idempotent save as a tap on Save without JavaScript, answered with what the queue needs to show
("Hand 7 saved", a conflict beside the hand saved, or what to mend).
"""

from __future__ import annotations

import uuid

from django.http import JsonResponse


def wants_json(request) -> bool:
    return request.method == "POST" and "application/json" in request.headers.get("Accept", "")


def client_id_of(data) -> uuid.UUID | None:
    """The entry's id from the form, or None where it has none (or not a UUID)."""
    try:
        return uuid.UUID(str(data.get("client_id", "")))
    except ValueError:
        return None


def saved(hand, already: bool = False, elsewhere: bool = False) -> JsonResponse:
    """``already``: saved before (``elsewhere``: by another phone, its own entry)."""
    # What the hand left: each player's running total after it, from its stored row.
    totals = (hand.computed or {}).get("totals", {})
    return JsonResponse({"ok": True, "number": hand.number, "already": already,
                         "elsewhere": elsewhere,
                         "client_id": str(hand.client_id) if hand.client_id else None,
                         "totals": totals}, status=201)


def refused(status: int, message: str, **extra) -> JsonResponse:
    return JsonResponse({"ok": False, "message": message, **extra}, status=status)


def conflict(result) -> JsonResponse:
    found = result.conflict or {}
    return refused(409, found.get("message", ""), kind="conflict", saved=found.get("saved", ""),
                   yours=found.get("yours", ""))


def invalid(outcome, seat_forms, form_errors: list[str]) -> JsonResponse:
    """What to mend, each message with the player (or question) it is about; ``fields``: each
    field's errors by its name in the form, so the page marks them where they are, as the
    page without JavaScript does."""
    problems = list(form_errors)
    fields: dict[str, list[str]] = {}
    for form in (outcome, *seat_forms):
        who = getattr(getattr(form, "seat", None), "name", "")
        for field, errors in form.errors.items():
            label = ""
            if field in form.fields:  # not the form's own errors (__all__)
                label = form.fields[field].label
                fields[form.add_prefix(field)] = [str(error) for error in errors]
            for error in errors:
                problems.append(" · ".join(p for p in (who, str(label or ""), error) if p))
    message = "; ".join(problems) or "This hand could not be saved as it is."
    return refused(400, message, kind="invalid", problems=problems, fields=fields)
