"""The comparison pages: house rules side by side, a hand under other rules, and recorded play
replayed under several rules with its progress and report."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from rest_framework import serializers

from clubs import recording
from clubs.forms import entered_hand, hand_forms
from clubs.permissions import can_view_club
from clubs.views.access import READ, RECORD, club_page
from compare import runs
from compare.chart import panels
from compare.exports import comparison_sheets
from compare.forms import RecordedPlayForm, RulesForm
from compare.models import Comparison
from compare.rule_choice import chosen_rules
from compare.rule_diff import ABSENT, compare_rules
from compare.scope import ScopeError, resolve_scope
from compare.table_hand import recorded_hand_under_rules, under_rules
from compare.visibility import (
    NOT_A_MEMBER,
    check_rules_for_club,
    may_start,
    readable_comparisons,
    visible_slugs,
)
from exports import UnknownFormat, download
from play import HandInputError


def _messages(error: serializers.ValidationError) -> list[str]:
    found = []

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        else:
            found.append(str(value))

    walk(error.detail)
    return found


def rules_page(request):
    """GET /compare/rules/?rules=bmja&rules=guide[&everything=on]"""
    form = RulesForm(request.GET or None, slugs=visible_slugs(request.user))
    context: dict[str, object] = {"form": form}
    if form.is_bound and form.is_valid():
        try:
            rules = chosen_rules(form.cleaned_data["rules"], request.user, minimum=2)
        except serializers.ValidationError as error:
            context["problems"] = _messages(error)
        else:
            context["rules"] = rules
            names = [r.slug for r in rules]
            everything = form.cleaned_data["everything"]
            # Each value with its rule's slug: a phone shows them one under another.
            # An item only one of the rules has ("only_one") takes a phone's whole line.
            rows = [{"section": row.section, "label": row.label, "differs": row.differs,
                     "values": list(zip(names, row.values, strict=True)),
                     "only_one": sum(v != ABSENT for v in row.values) == 1}
                    for row in compare_rules(rules, everything)]
            context["rows"] = rows
            context["sections"] = _rule_sections(rows, names)
            # The same rules with "Show everything" the other way: a link, no form to fill.
            other = request.GET.copy()
            other.pop("everything", None)
            if not everything:
                other["everything"] = "on"
            context["toggle_query"] = other.urlencode()
            context["absent"] = ABSENT
    return render(request, "compare/rules.html", context)


def _rule_sections(rows: list[dict], names: list[str]) -> list[dict]:
    """The side-by-side rows as fold-out sections, in the rows' order: the parameters' own
    (scoring, payments, dealing), and the items by which of the rules have them (every rule's
    first, then e.g. "Items only bmja has"): a hundred and more items in one list was most of
    a 27,000 px page on a phone, and each group reads as one finding."""
    sections: dict[str, list[dict]] = {}
    for row in rows:
        title = row["section"]
        if title == "Items":
            having = [name for name, value in row["values"] if value != ABSENT]
            title = ("Items in every rule" if len(having) == len(names)
                     else f"Items only {having[0]} has" if len(having) == 1
                     else f"Items only {', '.join(having[:-1])} and {having[-1]} have")
        sections.setdefault(title, []).append(row)
    ordered = sorted(sections.items(), key=lambda s: s[0].startswith("Items") and
                     s[0] != "Items in every rule")
    # A section of one rule's items names that rule in its title: no "only bmja:" a line.
    return [{"title": title, "rows": group, "one_rule": all(r["only_one"] for r in group)}
            for title, group in ordered]


def _picked_rules(request, club_session):
    """The rules named in ?rules= (default: the session's own and the other built-in ones)."""
    slugs = request.GET.getlist("rules") or request.POST.getlist("compare_rules")
    if not slugs:
        own = club_session.house_rule_version.record.slug
        slugs = [own] + [s for s in ("bmja", "guide", "balsall-common", "west-wind-goulash")
                         if s != own][:3]
    return chosen_rules(slugs, request.user)


@club_page(READ)
def hand_page(request, club, club_session, table, hand):
    """A recorded hand under other house rules (nothing is changed)."""
    context = {"club": club, "club_session": club_session, "table": table, "hand": hand,
               "slugs": visible_slugs(request.user)}
    try:
        rules = _picked_rules(request, club_session)
    except serializers.ValidationError as error:
        context["problems"] = _messages(error)
        return render(request, "compare/hand.html", context, status=400)
    context["picked"] = [r.slug for r in rules]
    context["answers"] = recorded_hand_under_rules(hand, rules)
    return render(request, "compare/hand.html", context)


@require_POST
@club_page(RECORD)
def entry_page(request, club, club_session, table):
    """The record page's "compare with...": the hand being entered, not saved, under other
    rules."""
    from clubs.views import table_view

    state = table_view.next_hand_view(table)
    outcome, seat_forms = hand_forms(request.POST, table_view.seats_for_next_hand(state))
    context = {"club": club, "club_session": club_session, "table": table,
               "slugs": visible_slugs(request.user), "entry": True}
    if not (outcome.is_valid() & all([f.is_valid() for f in seat_forms])):
        context["problems"] = ["The hand on the record page is not complete: preview it there first."]
        return render(request, "compare/hand.html", context, status=400)
    entered = entered_hand(outcome, seat_forms, state["next"]["prevailing_wind"])
    try:
        rules = _picked_rules(request, club_session)
        found = recording.preview_hand(table, entered)
    except serializers.ValidationError as error:
        context["problems"] = _messages(error)
        return render(request, "compare/hand.html", context, status=400)
    except (HandInputError, recording.HandConflict):
        context["problems"] = ["The hand cannot be scored under the session's rule yet: "
                               "preview it on the record page and mend what it says."]
        return render(request, "compare/hand.html", context, status=400)
    names = {s.id: s.name for s in found.seats}
    context["picked"] = [r.slug for r in rules]
    context["answers"] = under_rules(found.seating, found.computed.outcome, found.pot_before,
                                     names, rules)
    return render(request, "compare/hand.html", context)


@club_page(READ)
def club_compare_page(request, club):
    """Start a comparison of a season, a night or dates (the club's members); the club's
    earlier comparisons (to the public of a published club, those its members chose to show)."""
    slugs = visible_slugs(request.user)
    member = may_start(request.user, club)
    form = RecordedPlayForm(request.POST or None, club=club, slugs=slugs)
    problems, code = [], 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        code = 400
        if not member:
            problems, code = [NOT_A_MEMBER.format(club=club.name)], 403
        elif form.is_valid():
            try:
                rules = chosen_rules(form.cleaned_data["rules"], request.user)
                scope = resolve_scope(form.scope(), request.user)
                check_rules_for_club(rules, club)
                comparison = runs.start(scope, rules, request.user,
                                        shared=form.cleaned_data.get("shared", False))
            except serializers.ValidationError as error:
                problems = _messages(error)
            except ScopeError as error:
                problems = [str(error)]
            except runs.ShareUsedUp as error:
                problems, code = [str(error)], 429
            else:
                return redirect("comparison", comparison.pk)
    earlier = (readable_comparisons(request.user).filter(club=club)
               .defer("report", "rule_data")[:30])
    response = render(request, "compare/club.html", {
        "club": club, "form": form, "problems": problems, "earlier": earlier,
        "member": member}, status=code)
    if code == 429:
        response["Retry-After"] = "60"
    return response


def _comparison(request, pk) -> Comparison:
    comparison = get_object_or_404(
        readable_comparisons(request.user).select_related("club"), pk=pk)
    if not can_view_club(request.user, comparison.club):
        raise Http404("No such comparison.")
    return comparison


def comparison_page(request, pk):
    comparison = _comparison(request, pk)
    done, total = runs.progress(comparison)
    context = {"comparison": comparison, "club": comparison.club, "done": done, "total": total,
               "stale": runs.is_stale(comparison), "formats": ("csv", "xlsx", "json"),
               "member": may_start(request.user, comparison.club)}
    report = comparison.report
    if report is not None:
        context["panels"] = panels(report, comparison.rule_data)
        names = {p["player"]: p["name"] for p in report["players"]}
        context["changes"] = [{**c, "winner_name": names.get(c["winner"], ""),
                               "by_rule": list(zip(c["rules"], c["winner_score"], strict=True))}
                              for c in report["changes"]]
        context["invalid_counts"] = [(s, report["invalid_count"][s]) for s in report["rules"]]
    return render(request, "compare/comparison.html", context)


@login_required
@require_POST
def resume_page(request, pk):
    comparison = _comparison(request, pk)
    if not may_start(request.user, comparison.club):
        raise PermissionDenied(NOT_A_MEMBER.format(club=comparison.club.name))
    queued = runs.enqueue(comparison)
    comparison.refresh_from_db()
    messages.success(request, "The report is written." if comparison.report is not None
                     else f"{queued} worker task(s) queued for the unfinished tables." if queued
                     else "Every unfinished table is already queued or being replayed: "
                          "nothing was queued again.")
    return redirect("comparison", comparison.pk)


def export_page(request, pk, fmt):
    comparison = _comparison(request, pk)
    if comparison.report is None:
        return HttpResponseBadRequest("The comparison is still running: download it when done.")
    try:
        return download(comparison_sheets(comparison), fmt, f"comparison {comparison.title}")
    except UnknownFormat as error:
        return HttpResponseBadRequest(str(error))
