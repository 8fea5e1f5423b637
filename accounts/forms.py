"""The invitation form (club admins) and the form an invitee sets their password with."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm

from accounts.invitations import DEFAULT_DAYS, MAX_DAYS
from accounts.signup import SignUpForm
from clubs.models import Member, MemberRole

ROLE_HELP = ("A scorer records hands and opens club nights; a club admin also manages members, "
             "seasons, house rules and invitations; a member reads the club's pages.")


class MemberChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Member) -> str:
        return obj.display_name + ("" if obj.active else " (inactive)")


class InviteForm(forms.Form):
    member = MemberChoice(queryset=Member.objects.none(), required=False,
                          label="Member already on the score sheets",
                          empty_label="Someone new (give their name below)",
                          help_text="They take over that member's nights and standings.")
    name = forms.CharField(max_length=80, required=False, label="Name of someone new",
                           help_text="As the score sheets will name them.")
    role = forms.ChoiceField(choices=MemberRole.choices, initial=MemberRole.MEMBER,
                             label="Role", help_text=ROLE_HELP)
    email = forms.EmailField(required=False, label="Email (optional)",
                             help_text="We send the link there. Leave empty to copy the link "
                                       "into a message yourself.")
    days = forms.IntegerField(min_value=1, max_value=MAX_DAYS, initial=DEFAULT_DAYS,
                              label="The link works for (days)")

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["member"].queryset = club.members.filter(user__isnull=True).order_by(
            "-active", "display_name")


class JoinForm(SignUpForm):
    """An invitee without a login: the email and password of their new login."""

    name = None  # the invitation names them


class LoginForm(AuthenticationForm):
    """Django's login form, taking the email as it was signed up: a login is stored
    lower-cased ("Margaret@Example.org" signs up as margaret@example.org), so one typed with
    capitals is matched regardless of case when exactly one login has it. A login made with
    capitals (an admin's, by createsuperuser) still matches as typed."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "That email (or login name) and password do not match a login: check "
                         "both, or use “Forgotten your password?” below to set a new password.",
    }

    def clean_username(self):
        typed = (self.cleaned_data.get("username") or "").strip()
        if not typed:
            return typed
        # One query: the logins equal to it but for case (at most two tell whether it is one).
        found = list(get_user_model().objects.filter(username__iexact=typed)
                     .values_list("username", flat=True)[:2])
        return found[0] if len(found) == 1 and typed not in found else typed
