"""The import pages: upload a sheet, map its columns and choose for its names with the dry run
beside them, import, undo. Club admins only. Each step reads and writes the draft batch in
the database; nothing is kept in process memory between the steps."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubs.views.access import ADMIN, club_page
from history import import_run
from history.import_plan import FIELDS, MappingError
from history.import_write import ImportRefused, apply_plan, members_of, undo
from history.kajongg import run as kajongg_run
from history.kajongg.database import KajonggError
from history.models import ImportBatch
from history.sheet_reader import MAX_BYTES, SheetError


class UploadForm(forms.Form):
    file = forms.FileField(label="Spreadsheet (CSV or XLSX) or Kajongg database (kajongg3.db)",
                           help_text="One row per player per night, or per player per hand; or "
                                     "the file where KDE Kajongg keeps its games.")


@club_page(ADMIN)
def imports(request, club):
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            form.add_error("file", "The file is larger than 20 MB: split it by season.")
        else:
            data = upload.read()
            try:
                if data.startswith(kajongg_run.SQLITE_HEADER):
                    batch = kajongg_run.start(club, data, upload.name, request.user)
                else:
                    batch = import_run.start(club, data, upload.name, request.user)
            except (SheetError, KajonggError) as exc:
                form.add_error("file", str(exc))
            else:
                return redirect("history-import", club.slug, batch.pk)
    batches = ImportBatch.objects.filter(club=club).exclude(status=ImportBatch.Status.DRAFT)[:50]
    return render(request, "history/imports.html", {"club": club, "form": form,
                                                    "batches": batches},
                  status=400 if form.is_bound and form.errors else 200)


def _mapping_form(headers, columns, day_first, data=None):
    choices = [("", "(none)")] + [(h, h) for h in headers]
    fields = {name: forms.ChoiceField(label=words, choices=choices, required=False,
                                      initial=columns.get(name, ""))
              for name, words in FIELDS.items()}
    fields["day_first"] = forms.BooleanField(
        label="Dates are written day first (5/3/2024 is 5 March)", required=False,
        initial=day_first)
    return type("MappingForm", (forms.Form,), fields)(data, prefix="map")


@club_page(ADMIN)
def import_draft(request, club, batch_id):
    batch = get_object_or_404(ImportBatch, pk=batch_id, club=club)
    if batch.status != ImportBatch.Status.DRAFT:
        return redirect("history-imports", club.slug)
    if batch.kind == ImportBatch.Kind.KAJONGG:
        return _kajongg_draft(request, club, batch)
    headers = import_run.headers_of(batch)
    mapping = batch.mapping
    form = _mapping_form(headers, mapping.get("columns", {}), mapping.get("day_first", True),
                         request.POST if request.method == "POST" else None)
    members = members_of(club)
    if request.method == "POST" and form.is_valid():
        batch.mapping = {**mapping, "day_first": form.cleaned_data["day_first"],
                         "columns": {k: form.cleaned_data[k] for k in FIELDS
                                     if form.cleaned_data.get(k)}}
        batch.choices = {
            key[len("name:"):]: value for key, value in request.POST.items()
            if key.startswith("name:") and (value in ("new", "guest") or (
                value.startswith("member:") and value[7:].isdigit()
                and int(value[7:]) in members))}
        batch.save()
        if request.POST.get("action") == "import":
            try:
                plan = import_run.plan_of(batch)
                made = apply_plan(batch, plan, request.user,
                                  skip_refused=bool(request.POST.get("skip_refused")))
            except (ImportRefused, MappingError) as exc:
                messages.error(request, f"Nothing was written. {exc}")
                return redirect("history-import", club.slug, batch.pk)
            messages.success(request, f"Imported {_count(made['sessions'], 'night')} "
                             f"({_count(made['player_nights'], 'player-night')}).")
            return redirect("history-imports", club.slug)
        return redirect("history-import", club.slug, batch.pk)
    plan, problems = None, None
    try:
        plan = import_run.plan_of(batch)
    except MappingError as exc:
        problems = exc.errors
    names = []
    if plan:
        for n in plan.names:
            default = n.choice or (f"member:{n.match.suggestion}" if n.match.suggestion else "")
            names.append({"fate": n, "default": default,
                          "suggested": members.get(n.match.suggestion)})
    return render(request, "history/import_draft.html", {
        "club": club, "batch": batch, "form": form, "plan": plan, "problems": problems,
        "names": names,
        "members": [(f"member:{pk}", name) for pk, name in
                    sorted(members.items(), key=lambda m: m[1].lower())],
        "counts": plan.counts() if plan else None,
    })


@require_POST
@club_page(ADMIN)
def import_undo(request, club, batch_id):
    batch = get_object_or_404(ImportBatch, pk=batch_id, club=club)
    try:
        counts = undo(batch, request.user)
    except ImportRefused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Import {batch.pk} undone: {counts['sessions']} nights removed.")
    return redirect("history-imports", club.slug)


def _house_rule_choices(club) -> list[tuple[str, str]]:
    from django.db.models import Q

    from houserules.models import HouseRuleRecord

    return [("", "Each game's ruleset's nearest (BMJA)")] + list(
        HouseRuleRecord.objects.filter(Q(club__isnull=True) | Q(club=club))
        .order_by("name").values_list("slug", "name"))


def _name_choices(request, members) -> dict:
    return {key[len("name:"):]: value for key, value in request.POST.items()
            if key.startswith("name:") and (value in ("new", "guest") or (
                value.startswith("member:") and value[7:].isdigit()
                and int(value[7:]) in members))}


def _kajongg_draft(request, club, batch):
    members = members_of(club)
    rules = _house_rule_choices(club)
    if request.method == "POST":
        slug = request.POST.get("house_rule", "")
        batch.mapping = {"house_rule": slug if slug in dict(rules) else ""}
        batch.choices = _name_choices(request, members)
        batch.save()
        if request.POST.get("action") == "import":
            try:
                plan, counts, notes, versions = kajongg_run.plan_games(
                    club, kajongg_run.games_from_json(batch.rows),
                    house_rule=batch.mapping["house_rule"], choices=batch.choices)
                batch.report = {**batch.report, "notes": notes, "counts": counts}
                made = apply_plan(batch, plan, request.user, versions=versions,
                                  skip_refused=bool(request.POST.get("skip_refused")))
            except ImportRefused as exc:
                messages.error(request, f"Nothing was written. {exc}")
                return redirect("history-import", club.slug, batch.pk)
            messages.success(request, f"Imported {_count(made['sessions'], 'night')} "
                             f"({_count(made['tables'], 'Kajongg game')}, "
                             f"{_count(made.get('hands', 0), 'hand')}; "
                             f"{counts.get('discarder_unknown', 0)} with the discarder "
                             "unknown).")
            return redirect("history-imports", club.slug)
        return redirect("history-import", club.slug, batch.pk)
    try:
        plan, counts, notes, _versions = kajongg_run.plan_games(
            club, kajongg_run.games_from_json(batch.rows),
            house_rule=batch.mapping.get("house_rule"), choices=batch.choices)
    except ImportRefused as exc:
        messages.error(request, str(exc))
        batch.mapping = {"house_rule": ""}
        batch.save()
        return redirect("history-import", club.slug, batch.pk)
    names = [{"fate": n, "suggested": members.get(n.match.suggestion),
              "default": n.choice or (f"member:{n.match.suggestion}" if n.match.suggestion else "")}
             for n in plan.names]
    return render(request, "history/import_kajongg.html", {
        "club": club, "batch": batch, "plan": plan, "notes": notes, "names": names,
        "rules": rules, "rule": batch.mapping.get("house_rule", ""),
        "members": [(f"member:{pk}", name) for pk, name in
                    sorted(members.items(), key=lambda m: m[1].lower())],
    })


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'' if number == 1 else 's'}"
