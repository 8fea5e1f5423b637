"""The members page's forms: each turns what a secretary typed into a call of ``changes`` or
``merge``, whose refusals come back as the form's errors."""

from __future__ import annotations

from django import forms

from clubs.members.changes import NAME_MAX
from clubs.models import Member, MemberRole

ROLE_HELP = ("A club admin runs the club (members, seasons, house rules, mending); a scorer "
             "records hands; a member reads the club's nights.")


class MemberChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Member) -> str:
        return obj.display_name if obj.active else f"{obj.display_name} (inactive)"


def _members(club):
    return Member.objects.filter(club=club).order_by("-active", "display_name")


class AddMemberForm(forms.Form):
    display_name = forms.CharField(label="Name", max_length=NAME_MAX,
                                   help_text="As the score sheets should show it.")
    role = forms.ChoiceField(choices=MemberRole.choices, initial=MemberRole.MEMBER,
                             help_text=ROLE_HELP)


class ChangeMemberForm(forms.Form):
    display_name = forms.CharField(label="Name", max_length=NAME_MAX)
    role = forms.ChoiceField(choices=MemberRole.choices, help_text=ROLE_HELP)
    active = forms.BooleanField(
        required=False, label="Active",
        help_text="An inactive member keeps every hand, night and standing, and leaves the "
                  "lists a scorer seats players from.")


class GuestForm(forms.Form):
    """Give the nights of a guest (by the name typed at the table) to a member."""

    guest_name = forms.CharField(widget=forms.HiddenInput, max_length=NAME_MAX)
    member = MemberChoiceField(queryset=Member.objects.none(), required=False,
                               label="Give these nights to",
                               empty_label="A new member of this name")
    new_name = forms.CharField(required=False, max_length=NAME_MAX, label="New member's name",
                               help_text="Left empty: the name the guest played under.")

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = _members(club)


class MergeForm(forms.Form):
    keep = MemberChoiceField(queryset=Member.objects.none(), label="Keep",
                             help_text="The member whose name stays.")
    duplicate = MemberChoiceField(
        queryset=Member.objects.none(), label="Entered twice as",
        help_text="Their hands, nights and login become the kept member's; this name goes.")

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["keep"].queryset = _members(club)
        self.fields["duplicate"].queryset = _members(club)
