"""templates/django/forms/widgets/select.html writes Django's select_option.html and attrs.html
into itself (issue #27: two includes an option were most of a long select's cost). It must
render what Django's own templates render, byte for byte: this test compares the two renderers
on the selects the project uses, so a Django upgrade that changes its widget templates fails
here instead of drifting unseen."""

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer

HOSTILE = "=cmd|' /C calc'!A0 <script>alert(1)</script> & \"quoted\""
CHOICES = [("", "---------"), (1, "Spring 2026"), ("2", HOSTILE), (3, "Ünïcode ‏name")]
GROUPED = [("", "All"), ("Seasons", [(1, "Spring"), (2, HOSTILE)]), ("Nights", [(3, "5 Nov")])]


class Every(forms.Form):
    plain = forms.ChoiceField(choices=CHOICES, required=False)
    required = forms.ChoiceField(choices=CHOICES)
    grouped = forms.ChoiceField(choices=GROUPED, required=False)
    many = forms.MultipleChoiceField(choices=CHOICES, required=False)
    yes_no = forms.NullBooleanField(required=False)
    styled = forms.ChoiceField(choices=CHOICES, required=False, widget=forms.Select(attrs={
        "class": "wide", "data-note": HOSTILE, "disabled": True, "hidden": False}))


@pytest.mark.parametrize("data", [
    {},
    {"plain": "1", "required": "2", "grouped": "2", "many": ["1", "3"], "yes_no": "true",
     "styled": "3"},
    {"plain": "nonsense", "grouped": "9", "many": ["x"], "yes_no": "false"},
])
def test_the_project_select_renders_as_djangos_own(data):
    assert get_default_renderer().__class__.__name__ == "TemplatesSetting"
    ours = Every(data=data or None, renderer=get_default_renderer())
    djangos = Every(data=data or None, renderer=DjangoTemplates())
    for name in Every.base_fields:
        assert str(ours[name]) == str(djangos[name]), name
    assert "<script>" not in str(ours["plain"])
