"""The forms of the comparison pages: which house rules, and what recorded play."""

from __future__ import annotations

from collections import Counter

from django import forms

from clubs.models import ClubSession, Season
from compare.rule_choice import MAX_RULES
from houserules.models import HouseRuleRecord

MIN_RULES = 2  # a comparison needs something to compare with


def how_many(what: str) -> str:
    """The rules' help text: how many may be ticked, said before the form is sent."""
    return f"Tick {MIN_RULES} to {MAX_RULES} house rules; {what}"


def rule_choices(slugs: list[str]) -> list[tuple[str, str]]:
    """Each rule to tick by its name, as starting a night and the house rules page name it
    (a short name such as "demo-bmja-2" does not tell a club its own rule); a name two visible
    rules share (two clubs' "Our rules") says its short name too."""
    names = dict(HouseRuleRecord.objects.filter(slug__in=slugs).values_list("slug", "name"))
    uses = Counter(names.values())

    def label(slug: str) -> str:
        name = names.get(slug)
        if name is None:
            return slug
        return f"{name} ({slug})" if uses[name] > 1 else name

    return [(slug, label(slug)) for slug in slugs]


def check_how_many(rules: list[str]) -> list[str]:
    if not MIN_RULES <= len(rules) <= MAX_RULES:
        raise forms.ValidationError(
            f"Tick {MIN_RULES} to {MAX_RULES} house rules to compare; you ticked {len(rules)}.")
    return rules


class RulesForm(forms.Form):
    rules = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple,
                                      help_text=how_many("the first is the yardstick."))
    everything = forms.BooleanField(required=False, label="Show everything",
                                    help_text="Also the parameters and items that agree.")

    def __init__(self, *args, slugs: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = rule_choices(slugs)

    def clean_rules(self):
        return check_how_many(self.cleaned_data["rules"])


class ByColumns(forms.models.ModelChoiceIterator):
    """A select's options read as the columns their labels show, not each row as a model (a
    model an option was half a long select's cost, issue #27), at most ``field.SHOWN`` of them.
    The field's queryset is not cut: any of its rows is still accepted."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        rows = self.queryset.values_list("pk", *self.field.COLUMNS)[:self.field.SHOWN]
        for pk, *values in rows:
            yield (pk, self.field.label_from_columns(*values))

    def __len__(self):
        return self.queryset[:self.field.SHOWN].count() + (self.field.empty_label is not None)

    def __bool__(self):
        return True


class NightField(forms.ModelChoiceField):
    """A club night of the form's club, named by its date (the club is the page's). The select
    lists the club's latest nights only: a club of twenty years has a thousand, and a page that
    grows with the club's history is a defect; older ones are reached by dates."""

    SHOWN = 60  # more than a season of weekly nights
    COLUMNS = ("date",)
    iterator = ByColumns

    def label_from_instance(self, obj) -> str:
        return self.label_from_columns(obj.date)

    @staticmethod
    def label_from_columns(date) -> str:
        return f"{date:%a %-d %b %Y}"


class SeasonField(forms.ModelChoiceField):
    """A season of the form's club, named as ``str(season)`` names it: its club, its name."""

    SHOWN = None  # every season: one a year
    COLUMNS = ("club__name", "name")
    iterator = ByColumns

    @staticmethod
    def label_from_columns(club: str, name: str) -> str:
        return f"{club}: {name}"


class RecordedPlayForm(forms.Form):
    """A season, a night, or a range of dates of one club."""

    season = SeasonField(queryset=Season.objects.none(), required=False)
    session = NightField(queryset=ClubSession.objects.none(), required=False, label="Club night",
                         help_text=f"The latest {NightField.SHOWN}; an older night: give its "
                         "date as From and To.")
    start = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={"type": "date"}))
    rules = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, help_text=how_many(
        "the first one ticked is the yardstick for changes of place."))
    shared = forms.BooleanField(
        required=False, label="Show it to everyone",
        help_text="The club's pages are public: without this, only members see the comparison.")

    def __init__(self, *args, club, slugs: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        if not club.published:
            del self.fields["shared"]  # only members see anything of the club
        self.fields["season"].queryset = Season.objects.filter(club=club).order_by("-start")
        self.fields["session"].queryset = ClubSession.objects.filter(club=club).order_by(
            "-date", "-id")
        self.fields["rules"].choices = rule_choices(slugs)

    def clean_rules(self):
        return check_how_many(self.cleaned_data["rules"])

    def clean(self):
        data = super().clean()
        picked = [k for k in ("season", "session") if data.get(k)]
        dates = data.get("start") or data.get("end")
        if len(picked) + bool(dates) != 1:
            raise forms.ValidationError("Choose one of: a season, a club night, or From and To dates.")
        if dates and not (data.get("start") and data.get("end")):
            raise forms.ValidationError("Give both dates, From and To.")
        return data

    def scope(self) -> dict:
        data = self.cleaned_data
        if data.get("season"):
            return {"season": data["season"].pk}
        if data.get("session"):
            return {"session": data["session"].pk}
        return {"club": self.club.slug, "from": str(data["start"]), "to": str(data["end"])}
