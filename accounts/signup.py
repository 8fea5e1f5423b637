"""Sign-up by email and a password: the email is the login (Django's own User, username = the
email as typed, lower-cased), so Django's login and password-reset views work unchanged."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.db import IntegrityError, transaction

from clubs.members.changes import NAME_MAX, plain_name
from clubs.members.merge import MoveRefused


class LoginTaken(Exception):
    pass


def login_for_email(email: str) -> str:
    return email.strip().lower()


def email_taken(email: str) -> bool:
    users = get_user_model().objects
    return (users.filter(username__iexact=login_for_email(email)).exists()
            or users.filter(email__iexact=email.strip()).exists())


TAKEN = ("There is already a login for this email: log in with it, or use “Forgotten your "
         "password?” on the login page to set a new password.")


class SignUpForm(forms.Form):
    # The name a club they start calls them (its first member's name), not their email's
    # first part ("sec" for sec@club.org).
    name = forms.CharField(max_length=NAME_MAX * 2, label="Your name",
                           error_messages={"required": "Type your name."},
                           help_text="As your club knows you, e.g. Margaret Chan.",
                           widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(max_length=150, label="Email",
                             help_text="You log in with it; a forgotten password is reset by "
                                       "email.",
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password1 = forms.CharField(label="Password", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                                help_text="At least 8 characters, not all digits and not a "
                                          "common password.")
    password2 = forms.CharField(label="The same password again", strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_name(self):
        try:
            return plain_name(self.cleaned_data["name"], "Type your name.")
        except MoveRefused as refused:
            raise forms.ValidationError(refused.errors["display_name"]) from None

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if email_taken(email):
            raise forms.ValidationError(TAKEN)
        return email

    def clean(self):
        data = super().clean()
        one, two = data.get("password1"), data.get("password2")
        if one and two and one != two:
            self.add_error("password2", "The two passwords differ: type the same one twice.")
        elif one and data.get("email"):
            user = get_user_model()(username=login_for_email(data["email"]), email=data["email"])
            try:
                password_validation.validate_password(one, user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data

    def save(self):
        data = self.cleaned_data
        try:
            with transaction.atomic():
                return get_user_model().objects.create_user(
                    username=login_for_email(data["email"]), email=data["email"],
                    password=data["password1"],
                    first_name=data.get("name", "")[:150])
        except IntegrityError:  # the same email signed up a moment ago
            self.add_error("email", TAKEN)
            raise LoginTaken from None
