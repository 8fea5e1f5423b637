"""Record a hand (preview, then one atomic save) and correct one (edit, void, swap seats).

Thin: the forms read what was typed, ``clubs.recording`` scores, settles, writes and audits,
and ``clubs.views.table_view`` reads the table for the page.
"""

from __future__ import annotations

import json
import uuid

from django.contrib import messages
from django.db.models import Q
from django.shortcuts import redirect, render
from django.urls import reverse

from clubs import recording, table_state, table_writer
from clubs.forms import (
    DRAW,
    CorrectionForm,
    RestoreHandForm,
    SwapSeatsForm,
    VoidHandForm,
    entered_hand,
    hand_forms,
    loser_may_score_nothing,
    losers_scores_count,
)
from clubs.models import AuditAction, AuditEntry, Hand
from clubs.recording.preview import TableSnapshot
from clubs.views import record_answers as answers
from clubs.views import table_view as tv
from clubs.views.access import RECORD, club_page
from clubs.views.offline import kept_offline


def _table_url(club, club_session, table, anchor: str = "") -> str:
    url = reverse("table", args=[club.slug, club_session.pk, table.pk])
    return f"{url}#{anchor}" if anchor else url


def _mark_scores_that_count(outcome, seat_forms, rules) -> None:
    """Tell each seat's form whether its score changes a payment (see
    ``SeatEntryForm.score_counts``): not in a wall game, nor a loser's where only the winner
    is paid. Called before the seat forms are checked; needs the outcome checked first."""
    if not outcome.is_valid():
        return
    winner = outcome.winner_seat_id
    rule = rules.for_hand(bool(outcome.cleaned_data.get("goulash")))
    losers_count = losers_scores_count(rule)
    nothing = losers_count and winner is not None and loser_may_score_nothing(rule)
    for form in seat_forms:
        form.score_counts = winner is not None and (form.seat.pk == winner or losers_count)
        form.empty_means_zero = nothing and form.seat.pk != winner


def _valid(outcome, seat_forms, rules) -> bool:
    """Every form checked ("&" and a list, not "and" and a generator), so one round trip
    shows every answer to mend."""
    _mark_scores_that_count(outcome, seat_forms, rules)
    return outcome.is_valid() & all([form.is_valid() for form in seat_forms])


def _scores_data(rules) -> dict:
    """What static/js/record.js needs to hide the score boxes that count for nothing."""
    goulash = rules.goulash_rule or rules.rule
    return {
        "losers_score": int(losers_scores_count(rules.rule)),
        "goulash_losers_score": int(losers_scores_count(goulash)),
        "losers_zero": int(loser_may_score_nothing(rules.rule)),
        "goulash_losers_zero": int(loser_may_score_nothing(goulash)),
    }


def _show_service_errors(errors: dict, outcome, seat_forms) -> list[str]:
    """Put the service's field paths on the form fields they came from; return the rest."""
    left = []
    by_wind = {form.wind: form for form in seat_forms}
    for path, message in tv.flatten_errors(errors):
        head, _, rest = path.partition(".")
        if head == "seats":
            wind, _, field = rest.partition(".")
            form = by_wind.get(wind)
            if form is not None:
                name = tv.form_field_for(field)
                if name == "win_tile" and not form.cleaned_data.get("win_tile"):
                    name = None
                form.add_error(name if name in form.fields else None, message)
                continue
        if head in tv.OUTCOME_FIELD_OF:
            outcome.add_error(tv.OUTCOME_FIELD_OF[head], message)
            continue
        left.append(message)
    return left


@club_page(RECORD)
def record_hand_page(request, club, club_session, table):
    device = table_writer.device_of(request) or table_writer.new_device()
    response = _record_hand_page(request, club, club_session, table, device)
    table_writer.remember_device(response, request, device)
    return response


def _record_hand_page(request, club, club_session, table, device):
    queued = answers.wants_json(request)
    if not club_session.is_open:
        closed = "This session is closed: reopen it to record more hands."
        if queued:
            return answers.refused(400, closed)
        messages.error(request, closed)
        return redirect(_table_url(club, club_session, table))
    action = request.POST.get("action") if request.method == "POST" else None
    if action == "take_over" or request.method == "GET":
        other = table_writer.hold(table, request, device, take_over=action == "take_over")
        if action == "take_over":
            return redirect(reverse("record-hand", args=[club.slug, club_session.pk, table.pk]))
        if other is not None:
            return render(request, "clubs/record_held.html", {
                "club": club, "club_session": club_session, "table": table, "holder": other})
    state = tv.next_hand_view(table)
    seats_winds = tv.seats_for_next_hand(state)
    rules = table_state.rules_of(club_session, table)
    data = request.POST if request.method == "POST" else None
    initial = {"goulash": state["next"]["goulash"], **_winner_asked(request, seats_winds)}
    outcome, seat_forms = hand_forms(data, seats_winds, initial)
    context = {
        "club": club,
        "club_session": club_session,
        "table": table,
        "next": state["next"],
        "pot": state["pot"],
        "outcome": outcome,
        "seat_forms": seat_forms,
        "scores_data": _scores_data(rules),
        # The id this entry is saved under: a Save sent twice (a double tap, a retry, the
        # phone's queue) finds the hand it saved instead of saving it again.
        "client_id": answers.client_id_of(request.POST) or uuid.uuid4(),
    }
    context["queue_data"] = _queue_data(club, club_session, table, state)
    if data is None:
        return kept_offline(render(request, "clubs/record_hand.html", context))
    client_id = answers.client_id_of(request.POST)
    result = None
    try:
        repeat = _saved_before(request, table, rules, client_id)
    except recording.HandConflict as err:
        repeat, result = None, tv.conflict(table, err)
        if queued:
            return answers.conflict(result)
        context["form_errors"] = tv.messages_of(result)
        return render(request, "clubs/record_hand.html", context, status=409)
    if repeat is not None:
        table_writer.renew(table, device, request.user)
        elsewhere = repeat.client_id != client_id
        if queued:
            return answers.saved(repeat, already=True, elsewhere=elsewhere)
        messages.success(request, f"Hand {repeat.number} saved"
                         + (" (already saved from another phone)." if elsewhere else "."))
        return redirect(_table_url(club, club_session, table))
    if _valid(outcome, seat_forms, rules):
        entered = entered_hand(outcome, seat_forms, state["next"]["prevailing_wind"])
        if action == "save":
            entered["number"] = _int_or_none(request.POST.get("expected_number"))
            # Another phone's copy of this hand saved a moment ago is found under the lock,
            # the form read with that hand's seating.
            result = tv.record(table, entered, request.user, client_id,
                               read_as=lambda hand: _read_as(request, hand, rules))
            if result.ok:
                table_writer.renew(table, device, request.user)
                elsewhere = result.hand.client_id != client_id
                if queued:
                    return answers.saved(result.hand, already=elsewhere, elsewhere=elsewhere)
                messages.success(request, f"Hand {result.hand.number} saved"
                                 + (" (already saved from another phone)." if elsewhere else "."))
                # The top of the table page: the new totals and who deals next, in view.
                return redirect(_table_url(club, club_session, table))
            if queued and result.conflict:
                return answers.conflict(result)
        else:
            result = tv.preview(table, entered, state)
            if result.ok:
                context["preview"] = result.preview
                return render(request, "clubs/record_hand.html", context)
        context["form_errors"] = _show_service_errors(result.errors, outcome, seat_forms)
    context["to_mend"] = _count_errors(outcome, *seat_forms)
    if queued:
        return answers.invalid(outcome, seat_forms, context.get("form_errors", []))
    return render(request, "clubs/record_hand.html", context,
                  status=409 if context.get("form_errors") and _conflicted(result) else 400)


def _winner_asked(request, seats_winds) -> dict:
    """``?winner=<seat id>`` or ``?winner=draw`` from the table page's "who went Mah Jong"
    links: the record page opens with that answer chosen (one tap instead of two)."""
    asked = request.GET.get("winner", "")
    known = {str(seat.pk) for seat, _wind in seats_winds} | {DRAW}
    return {"winner": asked} if asked in known else {}


def _saved_before(request, table, rules, client_id):
    """The hand this very entry already saved (a double tap, a retry on a slow line, the
    phone's queue sent again), read with the seating that hand was played with; None when it
    is not saved yet; or the same hand (number and figures) saved from another phone. Raises
    ``HandConflict`` when the entry's id saved something else."""
    if request.POST.get("action") != "save":
        return None
    hand = client_id and Hand.objects.filter(client_id=client_id).first()
    if hand:
        return recording.hand_saved_with(table, client_id, _read_as(request, hand, rules))
    # Another phone may have saved this very hand (its number, the same figures) first: read
    # as typed, with the seating of the hand saved under that number, it is that hand.
    number = _int_or_none(request.POST.get("expected_number"))
    hand = number and Hand.objects.filter(table=table, number=number, voided=False).first()
    if not hand:
        return None
    return recording.same_hand_saved(table, number, _read_as(request, hand, rules))


def _read_as(request, hand, rules) -> dict:
    """The posted form read as an entry for ``hand`` (its seats' winds), {} when invalid."""
    outcome, seat_forms = hand_forms(request.POST, tv.seats_of_hand(hand))
    return (entered_hand(outcome, seat_forms, hand.prevailing_wind)
            if _valid(outcome, seat_forms, rules) else {})


def _queue_data(club, club_session, table, state) -> dict:
    """What static/js/record-queue.js needs to queue hands without signal: the table, the
    next hand's number, and the totals as the server has them (shown as provisional while
    hands wait on the phone). ``keep``: the table page, fetched once so the worker keeps it: a
    scorer who came straight to this page (a bookmark, a "Bob won" link) and lost signal would
    otherwise find the browser's own error page behind the table's link."""
    totals = TableSnapshot.load(table, table.state).totals
    table_url = _table_url(club, club_session, table)
    return {
        "table": table.pk,
        "table_url": table_url,
        "keep": [table_url],
        "next_number": state["next"]["number"],
        "totals": [{"seat": seat["id"], "name": seat["name"], "total": totals.get(seat["id"], 0)}
                   for seat in state["seats"]],
        "worker": reverse("service-worker"),
    }


def _conflicted(result) -> bool:
    return result is not None and bool(getattr(result, "conflict", None))


def _count_errors(*forms) -> int:
    """How many answers need mending, for the note at the top of a long form on a phone."""
    return sum(len(errors) for form in forms for errors in form.errors.values())


def _int_or_none(value) -> int | None:
    """A hand number from the form (hands count from 1), or None."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number >= 1 else None


def _audit_for(hand) -> list[AuditEntry]:
    """This hand's changes, and the table's seat swaps (they may reach back to this hand)."""
    entries = list(
        AuditEntry.objects.filter(club=hand.table.session.club)
        .filter(
            Q(object_type="hand", object_id=str(hand.pk))
            | Q(object_type="table", object_id=str(hand.table_id), action=AuditAction.UPDATE)
        )
        .select_related("user")[:50]
    )
    for entry in entries:
        entry.before_text = json.dumps(entry.before, indent=1, ensure_ascii=False)
        entry.after_text = json.dumps(entry.after, indent=1, ensure_ascii=False)
        entry.later_text = recording.later_hands_text(entry.after)
    return entries


def _later_said(hand) -> str:
    """What the change just made did to the later hands, from its audit entry."""
    entry = (AuditEntry.objects.filter(object_type="hand", object_id=str(hand.pk))
             .order_by("-at", "-id").first())
    after = (entry.after if entry else None) or {}
    moved, kept = after.get("seating_moved") or [], after.get("seating_kept") or []
    if moved:
        numbers = ", ".join(str(m["hand"]) for m in moved)
        return (f"hands {numbers} are seated again from it and the totals are recomputed."
                if len(moved) > 1 else
                f"hand {numbers} is seated again from it and the totals are recomputed.")
    if kept:
        return (f"the table played on as recorded from hand {kept[0]}; the totals are "
                "recomputed.")
    return "the totals are recomputed."


@club_page(RECORD)
def correct_hand_page(request, club, club_session, table, hand):
    seats_winds = tv.seats_of_hand(hand)
    # Every seat of the table may be swapped, a fifth player sitting this hand out included.
    seats = list(table.seats.select_related("member").order_by("position"))
    rules = table_state.rules_of(club_session, table)
    action = request.POST.get("action") if request.method == "POST" else None
    data = request.POST if action == "edit" else None
    outcome, seat_forms = hand_forms(data, seats_winds, *tv.initial_from_hand(hand))
    correction_form = CorrectionForm(data)
    void_form = VoidHandForm(request.POST if action == "void" else None)
    restore_form = RestoreHandForm(request.POST if action == "restore" else None)
    swap_form = SwapSeatsForm(request.POST if action == "swap" else None, seats=seats)
    form_errors: list[str] = []
    done = None
    if action == "edit" and correction_form.is_valid() and _valid(outcome, seat_forms, rules):
        entered = entered_hand(outcome, seat_forms, hand.prevailing_wind)
        result = tv.correct(hand, entered, request.user,
                            reason=correction_form.cleaned_data["reason"],
                            later_hands=correction_form.cleaned_data["later_hands"])
        done = result.ok and f"Hand {hand.number} corrected; {_later_said(result.hand)}"
        if not result.ok:
            form_errors = _show_service_errors(result.errors, outcome, seat_forms)
    elif action == "void" and void_form.is_valid():
        result = tv.void(hand, request.user, void_form.cleaned_data["reason"],
                         later_hands=void_form.cleaned_data["later_hands"])
        done = result.ok and f"Hand {hand.number} is void; {_later_said(result.hand)}"
        form_errors = tv.messages_of(result)
    elif action == "restore" and restore_form.is_valid():
        result = tv.void(hand, request.user, "", voided=False,
                         later_hands=restore_form.cleaned_data["later_hands"])
        done = result.ok and f"Hand {hand.number} is restored; {_later_said(result.hand)}"
        form_errors = tv.messages_of(result)
    elif action == "swap" and swap_form.is_valid():
        result = tv.swap(
            hand,
            swap_form.cleaned_data["first"],
            swap_form.cleaned_data["second"],
            request.user,
            swap_form.cleaned_data.get("reason", ""),
        )
        done = result.ok and "Players swapped from this hand on; the totals are recomputed."
        if not result.ok:
            form_errors = tv.messages_of(result)
    if done:
        messages.success(request, done)
        return redirect(_table_url(club, club_session, table, f"hand-{hand.number}"))
    # Who dealt this hand, as stored with it (under 002 the winner deals, whatever wind).
    dealer = next((seat for seat, _wind in seats_winds if seat.pk == hand.dealer_id), None)
    dealer_wind = dict((seat.pk, wind) for seat, wind in seats_winds).get(hand.dealer_id, "")
    return render(
        request,
        "clubs/correct_hand.html",
        {
            "club": club,
            "club_session": club_session,
            "table": table,
            "hand": hand,
            "prevailing_wind_name": tv.WIND_NAMES[hand.prevailing_wind],
            "east_name": dealer.name if dealer else "",
            "dealer_wind_name": tv.WIND_NAMES.get(dealer_wind, ""),
            "scores_data": _scores_data(rules),
            "outcome": outcome,
            "seat_forms": seat_forms,
            "edit_open": action == "edit",
            "correction_form": correction_form,
            "void_form": void_form,
            "restore_form": restore_form,
            "swap_form": swap_form,
            "form_errors": form_errors,
            "to_mend": _count_errors(outcome, *seat_forms) if action == "edit" else 0,
            "audit": _audit_for(hand),
        },
        status=400 if action else 200,
    )

