"""The special hands of a house rule on the secretary's form (``house_rule_forms``): a formset,
one small form per special hand (an item worth a part of the limit, ``scoring/engine/rules/
special_hands.py``), each with its worth, what fishing for it scores, and its yes/no details
(the options of its rule function: all concealed, kongs allowed, a pung of green dragons...).

Typed on a phone as a club says it ("1/2", "half", "0.4"); a part out of range or that cannot
be read is a note on its own field. Only what differs from the base rule's item becomes an
override (``items.<code>``), so a copy keeps following nothing but its own choices."""

from __future__ import annotations

from typing import Any

from django import forms

from compare.house_rule_list_fields import LimitFractionField, shared
from compare.rule_diff import detail_label, detail_options
from houserules.override_rules import (
    SPECIAL_WORTH_NEEDED,
    Refused,
    check_fishing,
    check_special_part,
)
from scoring.engine.rules.json_values import to_jsonable

PREFIX = "special"
# What the form edits of a special hand's item (the rest of a kept override carries on).
EDITED = ("limit", "fishing_limit", "fishing_actual_if_greater", "args")


class PartOfLimitField(LimitFractionField):
    """A special hand's part of the limit: more than nothing, at most the limit itself.
    Not required: empty cleans to None (fishing for it scores nothing)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal",
                                                           "autocomplete": "off"}))
        super().__init__(**kwargs)
        self.error_messages["required"] = SPECIAL_WORTH_NEEDED

    def clean(self, value):
        text = forms.CharField.clean(self, value)
        number = self.read(text) if text.strip() else None
        return shared(check_special_part, number, required=self.required)


class SpecialHandForm(forms.Form):
    code = forms.CharField(widget=forms.HiddenInput, max_length=80)
    limit = PartOfLimitField(label="Worth", help_text="A part of the limit: \"1\" the limit, "
                                                      "\"1/2\" half the limit.")
    fishing_limit = PartOfLimitField(
        label="Fishing for it scores", required=False,
        help_text="A losing hand one tile short of it: a part of the limit, e.g. \"2/5\". "
                  "Empty: nothing.")
    fishing_actual_if_greater = forms.BooleanField(
        required=False, label="Or its own value, if greater")

    def __init__(self, *args, item, **kwargs):
        super().__init__(*args, **kwargs)
        self.item = item
        self.options = detail_options(item)
        self.initial.update(code=item.code, limit=item.limit, fishing_limit=item.fishing_limit,
                            fishing_actual_if_greater=item.fishing_actual_if_greater)
        for name, _default, value in self.options:
            self.fields[f"detail__{name}"] = forms.BooleanField(
                required=False, label=detail_label(name), initial=value)

    def clean_code(self):
        code = self.cleaned_data["code"]
        if code != self.item.code:
            raise forms.ValidationError("This form is out of date (the rule changed since it "
                                        "was opened): open it again.")
        return code

    def clean(self):
        data = super().clean()
        limit, fishing = data.get("limit"), data.get("fishing_limit")
        try:
            check_fishing(limit, fishing)
        except Refused as refusal:
            self.add_error("fishing_limit", refusal.message)
        return data

    def detail_fields(self):
        return [self[f"detail__{name}"] for name, _d, _v in self.options]

    def changes(self, was) -> dict[str, Any]:
        """What differs from the base rule's item ``was``, as ``items.<code>`` overrides."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for name in ("limit", "fishing_limit", "fishing_actual_if_greater"):
            if data[name] != getattr(was, name):
                out[name] = to_jsonable(data[name])
        base_args, args = dict(was.args), dict(self.item.args)
        for name, default, value in self.options:
            chosen = data.get(f"detail__{name}", False)
            if chosen != value:
                args[name] = chosen
            if name not in base_args and args.get(name, default) == default:
                args.pop(name, None)  # the function's own default: nothing to say
        if args != base_args:
            out["args"] = to_jsonable(args)
        return out


class BaseSpecialHandFormSet(forms.BaseFormSet):
    """One form per special hand, in the rule's order; each form is given its item."""

    def __init__(self, *args, items, **kwargs):
        self.items = items
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "item": self.items[index]}

    def refused(self) -> bool:
        return self.is_bound and (bool(self.non_form_errors()) or any(self.errors))

    def form_of(self, code: str) -> SpecialHandForm | None:
        return next((f for f in self.forms if f.item.code == code), None)


def special_hands_formset(items, data=None) -> BaseSpecialHandFormSet:
    """The formset of ``items`` (special hands the base rule has too), bound to ``data`` when
    it carries this formset (a page opened before the formset existed posts none: the special
    hands then stay as they were)."""
    count = len(items)
    formset_class = forms.formset_factory(
        SpecialHandForm, formset=BaseSpecialHandFormSet, extra=0, min_num=count,
        max_num=count, absolute_max=count, validate_min=True, validate_max=True)
    bound = data is not None and f"{PREFIX}-TOTAL_FORMS" in data
    return formset_class(data if bound else None, prefix=PREFIX, items=items)


def is_special(item) -> bool:
    return item.limit is not None


__all__ = ["EDITED", "PREFIX", "BaseSpecialHandFormSet", "PartOfLimitField", "SpecialHandForm",
           "is_special", "special_hands_formset"]
