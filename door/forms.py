"""The door page's forms (check-in, guests, the host's rules, swap, accept) and the club's
door settings."""

from __future__ import annotations

from django import forms

from door.checkin import NAME_MAX
from door.models import DoorSettings, RuleKind
from door.variations import size_choices


class GuestForm(forms.Form):
    name = forms.CharField(label="Guest's name", max_length=NAME_MAX)
    newcomer = forms.BooleanField(label="New to the game: seat next to a regular",
                                  required=False)


class RuleForm(forms.Form):
    kind = forms.ChoiceField(label="Rule", choices=RuleKind.choices)
    first = forms.TypedChoiceField(label="Who", coerce=int)
    second = forms.TypedChoiceField(label="and (apart or together)", coerce=int,
                                    required=False, empty_value=None)
    table_number = forms.IntegerField(label="Table (stays at)", min_value=1, max_value=99,
                                      required=False)

    def __init__(self, *args, people, **kwargs):
        kwargs.setdefault("auto_id", "rule_%s")  # one page holds this form and the swap's
        super().__init__(*args, **kwargs)
        choices = [(c.pk, c.name) for c in people]
        self.fields["first"].choices = choices
        self.fields["second"].choices = [("", "—"), *choices]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == RuleKind.FIXED:
            if not data.get("table_number"):
                self.add_error("table_number", "Give the table they stay at.")
            data["second"] = None
        elif kind:
            if data.get("second") is None:
                self.add_error("second", "Pick the second person.")
            elif data.get("second") == data.get("first"):
                self.add_error("second", "Pick two different people.")
            data["table_number"] = None
        return data


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label="Swap", coerce=int)
    second = forms.TypedChoiceField(label="with", coerce=int)
    revision = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, people, **kwargs):
        kwargs.setdefault("auto_id", "swap_%s")
        super().__init__(*args, **kwargs)
        choices = [(pk, name) for pk, name in people]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", "Pick two different players.")
        return data


class AcceptForm(forms.Form):
    revision = forms.IntegerField(widget=forms.HiddenInput)


class DoorSettingsForm(forms.ModelForm):
    class Meta:
        model = DoorSettings
        fields = ["table_money", "currency", "allow_fives", "five_player_rule", "allow_threes",
                  "three_player_rule", "odd_tables"]
        labels = {
            "table_money": "Table money per person",
            "currency": "Currency sign",
            "allow_fives": "Tables of 5 when the numbers do not divide",
            "five_player_rule": "Tables of 5 play under",
            "allow_threes": "Tables of 3 when the numbers do not divide",
            "three_player_rule": "Tables of 3 play under",
            "odd_tables": "When either would do",
        }

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        sizes = dict(size_choices(club))
        for size, name in ((3, "three_player_rule"), (5, "five_player_rule")):
            field = self.fields[name]
            field.queryset = field.queryset.filter(pk__in=[r.pk for r in sizes[size]])
            field.empty_label = f"The night's own rule for {size} players (001)"
