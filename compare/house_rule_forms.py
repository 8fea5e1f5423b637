""""Copy and adjust" as a form a club secretary fills in: every plain parameter of the house
rule (limit, payments, doubles, dealing, the named readings, and the lists and fractions: the
minimums to go out, points to payment, the false Mah Jong penalty, the goulash winds, through
``house_rule_list_fields``) and every item's points and
doubles (flowers and seasons among them), and the special hands' parts of the limit and their
details (a formset, ``house_rule_special_hands``), labelled in a club's words
(``rule_diff.LABELS``), set to the rule being adjusted. Only what differs from the base becomes the copy's overrides,
so the copy keeps following nothing but its own choices."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.text import slugify

from compare.house_rule_list_fields import field_for_list, shared
from compare.house_rule_special_hands import EDITED, is_special, special_hands_formset
from compare.rule_diff import LABELS, SCHEMES, SECTIONS, item_words
from houserules.override_rules import (
    ITEM_DOUBLES_MAX,
    ITEM_POINTS_MAX,
    MAX_COUNT,
    check_choice,
    check_count,
)
from houserules.text_limits import DESCRIPTION_MAX, NAME_MAX, too_long
from scoring.engine import HouseRule
from scoring.engine.rules.json_values import to_jsonable

# Wild tiles in a goulash: what the engine knows.
WILD_TILES = [("b2", "the four 2 bamboo"), ("joker", "jokers added"), ("", "none")]
INTRO = {
    "scoring": "What a hand scores, and what it needs to go Mah Jong.",
    "payment": "Who pays whom, and how much.",
    "rotation": "Who deals next, and when the wind of the round moves on.",
}


class CountField(forms.IntegerField):
    """A whole number from 0 to ``maximum`` (the phone's keypad told so), refused in the
    words the house-rule API uses (``houserules.override_rules.check_count``)."""

    def __init__(self, maximum: int = MAX_COUNT, **kwargs):
        super().__init__(min_value=0, max_value=maximum, **kwargs)
        self.validators = [v for v in self.validators
                           if not isinstance(v, MinValueValidator | MaxValueValidator)]

    def validate(self, value):
        super().validate(value)
        if value not in self.empty_values:
            shared(check_count, value, self.max_value, empty=not self.required)


class SettingChoiceField(forms.ChoiceField):
    """A named setting (a payment or rotation scheme): one it does not know is refused in the
    house-rule API's words (``check_choice``)."""

    def __init__(self, key: str, **kwargs):
        self.key = key
        super().__init__(**kwargs)

    def validate(self, value):
        if value and not self.valid_value(value):
            shared(check_choice, self.key, value)
        super().validate(value)


def _field_for(key: str, kind: str, value: Any) -> forms.Field | None:
    label = LABELS.get(key, key.split(".")[1].replace("_", " ").capitalize())
    if kind == "bool":
        return forms.BooleanField(required=False, label=label, initial=value)
    if kind == "int":
        return CountField(label=label, initial=value)
    if kind == "int | None":
        return CountField(label=label, required=False, initial=value,
                                  help_text="Left empty: " + {
                                      "scoring.limit": "no limit.",
                                      "rotation.max_consecutive_dealer": "no maximum.",
                                  }.get(key, "any number."))
    if kind == "str" and key in SCHEMES:
        return SettingChoiceField(key, label=label, initial=value,
                                  choices=[(k, v) for k, v in SCHEMES[key].items()])
    if key == "scoring.wild_tiles":
        return SettingChoiceField(key, label=label, choices=WILD_TILES, required=False,
                                  initial=value or "")
    return field_for_list(key, kind, value, label)


def _name(key: str) -> str:
    return key.replace(".", "__")


class AdjustRuleForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX, label="Name",
                           error_messages={"max_length": too_long(NAME_MAX)},
                           help_text="As the club's pages and score sheets show it.")
    description = forms.CharField(required=False, max_length=DESCRIPTION_MAX, label="Description",
                                  error_messages={"max_length": too_long(DESCRIPTION_MAX)},
                                  widget=forms.Textarea(attrs={"rows": 3}),
                                  help_text="What is different, in your own words.")

    def __init__(self, *args, base: HouseRule, current: HouseRule, goulash_choices, new: bool,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.base, self.current, self.new = base, current, new
        if new:
            self.fields["slug"] = forms.SlugField(
                max_length=80, label="Short name",
                help_text="Letters, digits and hyphens; it names the rule in the API and "
                          "downloads.")
        self.initial.setdefault("name", current.name)
        self.initial.setdefault("description", current.description)
        self.sections: list[tuple[str, str, list]] = []
        for section, title in SECTIONS:
            names = []
            for f in fields(getattr(current, section)):
                key = f"{section}.{f.name}"
                field = _field_for(key, str(f.type), getattr(getattr(current, section), f.name))
                if field is not None:
                    self.fields[_name(key)] = field
                    names.append(_name(key))
            self.sections.append((title, INTRO[section], names))
        self.fields["goulash_rule"] = forms.ChoiceField(
            label=LABELS["goulash_rule"], required=False, initial=current.goulash_rule or "",
            choices=[("", "This rule itself"), *goulash_choices])
        self.items: list[tuple[str, str, str, str]] = []
        # Special hands (a part of the limit) the base has too: their own formset. One the
        # copy added (add_items) is kept as it is.
        data = args[0] if args else kwargs.get("data")
        self.special = special_hands_formset(
            [i for i in current.items if is_special(i) and base.has_item(i.code)], data)
        for item in current.items:
            if is_special(item):
                continue
            points, doubles = f"item__{item.code}__points", f"item__{item.code}__doubles"
            self.fields[points] = CountField(ITEM_POINTS_MAX, label="Points",
                                             initial=item.points)
            self.fields[doubles] = CountField(ITEM_DOUBLES_MAX, label="Doubles",
                                              initial=item.doubles)
            self.items.append((item.wording, item_words(item), points, doubles))

    def section_fields(self):
        """(title, intro, bound fields, any refused) per section, for the template: a section
        with a refusal in it is shown open, so its red note is seen."""
        return [(title, intro, [self[n] for n in names], any(n in self.errors for n in names))
                for title, intro, names in self.sections]

    def item_fields(self):
        return [(wording, now, self[p], self[d]) for wording, now, p, d in self.items]

    def special_fields(self):
        """(wording, worth in words, form) per special hand, for the template."""
        return [(f.item.wording, item_words(f.item), f) for f in self.special.forms]

    def is_valid(self) -> bool:
        valid = super().is_valid()
        # Not posted (a page opened before the special hands were on it): left as they are.
        return (not self.special.is_bound or self.special.is_valid()) and valid

    def special_errors(self) -> bool:
        return self.special.refused()

    def add_rule_error(self, path: str, message: str) -> bool:
        """Put a house rule's refusal (``items.<code>.<field>``) on the special hand's own
        field; False when it is not one of theirs."""
        parts = path.split(".")
        if len(parts) == 3 and parts[0] == "items" and self.special.is_bound:
            form = self.special.form_of(parts[1])
            if form is not None:
                field = parts[2] if parts[2] in form.fields else None
                form.add_error(field, message)
                return True
        return False

    def clean_slug(self):
        return slugify(self.cleaned_data["slug"])[:80]

    def overrides(self, keep: dict[str, Any] | None = None) -> dict[str, Any]:
        """The copy's overrides: what differs from the base, as ``apply_overrides`` takes.
        ``keep``: the copy's overrides so far, whose changes this form does not show (a
        minimum to go out, an item added or dropped) carry on as they were."""
        data = self.cleaned_data
        out: dict[str, Any] = _unshown(keep or {}, self)
        for section, _title in SECTIONS:
            base = getattr(self.base, section)
            for f in fields(base):
                name = _name(f"{section}.{f.name}")
                if name not in self.fields:
                    continue
                value = data.get(name)
                if f.name == "wild_tiles":
                    value = value or None
                if value != getattr(base, f.name):
                    out.setdefault(section, {})[f.name] = to_jsonable(value)
                elif f.name in out.get(section, {}):
                    del out[section][f.name]
        goulash = data.get("goulash_rule") or None
        if goulash != self.base.goulash_rule:
            out["goulash_rule"] = goulash
        items: dict[str, dict] = {}
        for item in self.current.items:
            name = f"item__{item.code}__points"
            if name not in self.fields or not self.base.has_item(item.code):
                continue
            was = self.base.item(item.code)
            for attr in ("points", "doubles"):
                value = data.get(f"item__{item.code}__{attr}")
                if value is not None and value != getattr(was, attr):
                    items.setdefault(item.code, {})[attr] = value
        if self.special.is_bound:
            for form in self.special.forms:
                if changes := form.changes(self.base.item(form.item.code)):
                    items[form.item.code] = changes
        kept = out.get("items", {})
        for code, changes in items.items():
            # A kept change of fields the form does not show (its wording...) carries on.
            kept[code] = {**(kept.get(code) or {}), **changes}
        if kept:
            out["items"] = {code: change for code, change in kept.items() if change != {}}
        return {k: v for k, v in out.items() if v != {}}


def _unshown(keep: dict[str, Any], form: AdjustRuleForm) -> dict[str, Any]:
    """The parts of ``keep`` the form has no field for."""
    out: dict[str, Any] = {}
    for key, value in keep.items():
        if key in ("scoring", "payment", "rotation") and isinstance(value, dict):
            rest = {k: v for k, v in value.items() if _name(f"{key}.{k}") not in form.fields}
            if rest:
                out[key] = rest
        elif key == "items" and isinstance(value, dict):
            rest = {}
            for code, change in value.items():
                shown = _shown(form, code)
                if change is None or not isinstance(change, dict) or not shown:
                    rest[code] = change
                elif left := {k: v for k, v in change.items() if k not in shown}:
                    rest[code] = left
            if rest:
                out["items"] = rest
        elif key not in ("name", "description", "goulash_rule"):
            out[key] = value
    return out


def _shown(form: AdjustRuleForm, code: str) -> tuple[str, ...]:
    """The fields of item ``code`` the form shows (and so writes afresh)."""
    if f"item__{code}__points" in form.fields:
        return ("points", "doubles")
    if form.special.is_bound and form.special.form_of(code) is not None:
        return EDITED
    return ()
