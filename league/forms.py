"""The standings filters and the league rules form (pages; the API has its serializers)."""

from __future__ import annotations

from django import forms
from django.db.models import Q

from clubs.models import HouseRuleRecord
from league.models import SeasonLeague
from league.queries import Filters
from league.ranking import PRESETS, TIE_BREAKS, LeagueRules, LeagueRulesError

FORMATS = ("csv", "xlsx", "json")


class FilterForm(forms.Form):
    start = forms.DateField(required=False, label="From",
                            widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label="To",
                          widget=forms.DateInput(attrs={"type": "date"}))
    as_of = forms.DateField(required=False, label="As of",
                            widget=forms.DateInput(attrs={"type": "date"}))
    house_rule = forms.ModelChoiceField(queryset=HouseRuleRecord.objects.none(), required=False,
                                        empty_label="Any house rule")
    table = forms.IntegerField(required=False, min_value=1, max_value=999, label="Table")

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["house_rule"].queryset = HouseRuleRecord.objects.filter(
            Q(club__isnull=True) | Q(club=club)).order_by("name")

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", "The end date is before the start: swap them.")
        return data

    def filters(self) -> Filters:
        d = self.cleaned_data
        rule = d.get("house_rule")
        return Filters(start=d.get("start"), end=d.get("end"), as_of=d.get("as_of"),
                       house_rule=rule.pk if rule else None, table=d.get("table"))


TIE_SLOTS = len(TIE_BREAKS)


class LeagueRulesForm(forms.ModelForm):
    """The season's league rules: start from a preset, adjust any field; the tie-break chain is
    one select per step, in order."""

    preset = forms.ChoiceField(
        required=False, choices=[("", "Keep the fields below")]
        + [(k, label) for k, (label, _) in PRESETS.items()],
        help_text="Copies the preset over the fields below when chosen.")

    class Meta:
        model = SeasonLeague
        fields = ["preset", "measure", "combine", "points", "best_n", "min_nights", "min_share"]
        labels = {"best_n": "Best N nights", "min_nights": "Minimum nights",
                  "min_share": "Minimum share of the season's nights (%)"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("measure", "combine", "points", "min_nights", "min_share"):
            self.fields[name].required = False  # a preset fills them
        chain = list(self.instance.tie_breaks or [])
        for i in range(TIE_SLOTS):
            self.fields[f"tie_break_{i + 1}"] = forms.ChoiceField(
                required=False, label=f"Tie-break {i + 1}",
                choices=[("", "—")] + [(k, label) for k, (label, _) in TIE_BREAKS.items()],
                initial=chain[i] if i < len(chain) else "")

    def clean(self):
        data = super().clean()
        if data.get("preset"):
            rules = PRESETS[data["preset"]][1]
        else:
            chain = [data.get(f"tie_break_{i + 1}") for i in range(TIE_SLOTS)]
            rules = LeagueRules(
                measure=data.get("measure") or "net", combine=data.get("combine") or "sum",
                points=data.get("points") or "4-2-1-0", best_n=data.get("best_n"),
                min_nights=data.get("min_nights") or 0, min_share=data.get("min_share") or 0,
                tie_breaks=tuple(t for t in chain if t),
            )
        if data.get("preset"):
            # The preset's values go on the instance (ModelForm copies cleaned_data over it).
            data.update({k: v for k, v in rules.to_dict().items() if k != "tie_breaks"})
        else:
            data.update(measure=rules.measure, combine=rules.combine, points=rules.points)
        try:
            self.rules = rules.check()
        except LeagueRulesError as err:
            for name, messages in err.errors.items():
                field = "tie_break_1" if name == "tie_breaks" else name
                for message in messages:
                    self.add_error(field, message)
        return data

    def save(self, commit=True):
        self.instance.set_rules(self.rules)
        self.instance.preset = self.cleaned_data.get("preset") or ""
        return super().save(commit)


class PublishForm(forms.Form):
    as_of = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}),
                            help_text="Nights up to this date count (today if left empty).")
    note = forms.CharField(required=False, max_length=200)

    def __init__(self, *args, **kwargs):
        # The filter form on the same page has an "as_of" too: ids of its own, so each box has
        # its own label (axe: label-title-only).
        kwargs.setdefault("auto_id", "id_publish_%s")
        super().__init__(*args, **kwargs)


class SeasonForm(forms.Form):
    """Start or change a season: its name and dates; on starting, the league rules' preset."""

    name = forms.CharField(max_length=80, help_text="\"2026\", \"Autumn league\".")
    start = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    end = forms.DateField(required=False, help_text="Left empty: open until it is closed.",
                          widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))


class NewSeasonForm(SeasonForm):
    preset = forms.ChoiceField(
        label="League rules", choices=[(k, label) for k, (label, _) in PRESETS.items()],
        initial="net", help_text="How the standings rank players; adjust them after, on the "
                                 "season's league rules page.")
