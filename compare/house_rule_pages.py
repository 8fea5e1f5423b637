"""A club's rules page: the built-in house rules and the club's own copies, each copy with its
differences from the rule it copies in a club's words (``rule_diff``); for club admins "Copy
and adjust" (a form, no code, no admin), editing a copy (each change a new version, so nights
already played keep the version they were scored under), undoing a change, and choosing the
rule new nights start with. The writes are ``houserules.copies``'s, audited by clubs."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from clubs.models import AuditAction, AuditEntry
from clubs.views.access import ADMIN, READ, club_page, roles_context
from compare.house_rule_forms import AdjustRuleForm
from compare.rule_diff import compare_rules
from houserules.copies import create_copy, house_rule_of, update_copy
from houserules.models import HouseRuleRecord
from scoring.engine import HouseRuleError


def _records(club):
    return (HouseRuleRecord.objects.filter(Q(club__isnull=True) | Q(club=club))
            .select_related("based_on").order_by("club_id", "name"))


def _rule(record: HouseRuleRecord):
    version = record.latest_version()
    return version, house_rule_of(version)


def _differences(record: HouseRuleRecord) -> list:
    """What the copy changes from the rule it copies, row by row in a club's words."""
    if record.based_on_id is None:
        return []
    _, base = _rule(record.based_on)
    _, rule = _rule(record)
    return compare_rules([base, rule])


def _of_club(club, slug: str) -> HouseRuleRecord:
    record = HouseRuleRecord.objects.filter(Q(club__isnull=True) | Q(club=club), slug=slug
                                            ).select_related("based_on").first()
    if record is None or record.latest_version() is None:
        raise Http404("No such house rule at this club.")
    return record


@club_page(READ)
def house_rules(request, club):
    records = list(_records(club))
    own = [{"record": r, "version": r.latest_version(), "differences": _differences(r)}
           for r in records if r.club_id]
    return render(request, "compare/house_rules.html", {
        "club": club, "builtins": [r for r in records if r.club_id is None], "own": own,
        **roles_context(request.user, club)})


@club_page(READ)
def house_rule(request, club, rule_slug):
    record = _of_club(club, rule_slug)
    version, rule = _rule(record)
    context = {"club": club, "record": record, "version": version, "rule": rule,
               "differences": _differences(record),
               "versions": record.versions.order_by("-number")[:20],
               **roles_context(request.user, club)}
    if context["can_admin"] and record.club_id:
        entries = list(AuditEntry.objects.filter(club=club, object_type="house_rule",
                                                 object_id=record.slug).select_related("user")[:10])
        context["changes"] = [{"entry": e, "undoable": e.action == AuditAction.UPDATE
                               and isinstance(e.before, dict)} for e in entries]
    return render(request, "compare/house_rule.html", context)


def _goulash_choices(club):
    return [(r.slug, r.name) for r in _records(club)]


def _form(request, club, base_record_, current, new: bool, initial=None):
    _, base = _rule(base_record_)
    return AdjustRuleForm(request.POST or None, base=base, current=current, new=new,
                          goulash_choices=_goulash_choices(club), initial=initial or {})


def _refused(form, err: HouseRuleError) -> None:
    for path, msgs in err.errors.items():
        field = path if path in form.fields else path.replace(".", "__")
        for msg in msgs:
            if form.add_rule_error(path, msg):
                continue
            form.add_error(field if field in form.fields else None,
                           msg if field in form.fields else f"{path}: {msg}")


@club_page(ADMIN)
def copy_rule(request, club):
    """Copy and adjust: ``?base=<slug>`` (a built-in rule or one of the club's)."""
    base = _of_club(club, request.GET.get("base") or request.POST.get("base") or "bmja")
    _, current = _rule(base)
    form = _form(request, club, base, current, new=True, initial={
        "name": f"{club.name}: {base.name}"[:120], "slug": f"{club.slug}-{base.slug}"[:80]})
    if request.method == "POST" and form.is_valid():
        try:
            record = create_copy(club, base.slug, form.cleaned_data["slug"],
                                 form.cleaned_data["name"], form.overrides(), user=request.user,
                                 description=form.cleaned_data["description"])
        except HouseRuleError as err:
            _refused(form, err)
        else:
            messages.success(request, f"{record.name} saved (version 1): choose it when you "
                                      "start a night.")
            return redirect(reverse("club-house-rule", args=[club.slug, record.slug]))
    return render(request, "compare/house_rule_form.html", {
        "club": club, "base": base, "form": form, "new": True},
        status=400 if form.is_bound else 200)


@club_page(ADMIN)
def edit_rule(request, club, rule_slug):
    record = _of_club(club, rule_slug)
    if record.club_id is None:
        return redirect(reverse("club-house-rule-copy", args=[club.slug]) + f"?base={record.slug}")
    _, current = _rule(record)
    form = _form(request, club, record.based_on, current, new=False)
    if request.method == "POST" and form.is_valid():
        try:
            version = update_copy(record, form.overrides(record.overrides), user=request.user,
                                  name=form.cleaned_data["name"],
                                  description=form.cleaned_data["description"])
        except HouseRuleError as err:
            _refused(form, err)
        else:
            messages.success(request, f"Saved as version {version.number}: nights already "
                                      "played keep the version they were scored under.")
            return redirect(reverse("club-house-rule", args=[club.slug, record.slug]))
    return render(request, "compare/house_rule_form.html", {
        "club": club, "base": record.based_on, "record": record, "form": form, "new": False},
        status=400 if form.is_bound else 200)


@require_POST
@club_page(ADMIN)
def undo_rule_change(request, club, rule_slug, entry_id):
    """Put the copy's settings back as they were before a change: a new version again."""
    record = _of_club(club, rule_slug)
    entry = get_object_or_404(AuditEntry, pk=entry_id, club=club, object_type="house_rule",
                              object_id=record.slug, action=AuditAction.UPDATE)
    try:
        version = update_copy(record, entry.before, user=request.user)
    except HouseRuleError as err:
        messages.error(request, "This change cannot be put back: " + "; ".join(
            m for msgs in err.errors.values() for m in msgs))
    else:
        messages.success(request, f"Put back as it was before that change (version "
                                  f"{version.number}).")
    return redirect(reverse("club-house-rule", args=[club.slug, record.slug]))


@require_POST
@club_page(ADMIN)
def use_for_new_nights(request, club, rule_slug):
    record = _of_club(club, rule_slug)
    before = club.default_house_rule.slug if club.default_house_rule else None
    if before != record.slug:
        club.default_house_rule = record
        club.save(update_fields=["default_house_rule"])
        AuditEntry.objects.create(club=club, user=request.user, action=AuditAction.UPDATE,
                                  object_type="club", object_id=str(club.pk),
                                  before={"default_house_rule": before},
                                  after={"default_house_rule": record.slug},
                                  note=f"New nights start with {record.name}.")
    messages.success(request, f"New nights start with {record.name}.")
    return redirect(reverse("club-house-rules", args=[club.slug]))
