"""Confirming a sign-up's email, with Django's token machinery as the password reset uses it
(``PasswordResetTokenGenerator``: an HMAC of the login's state and a timestamp, nothing stored,
valid ``PASSWORD_RESET_TIMEOUT``, and spent once the email is confirmed).

What waits for it (the scope): a login made by the open sign-up may log in, read published
clubs and take an invitation link at once (an invitation is the club's own word for who may
join), but may not start a club or make API tokens until its email is confirmed: those are
what an address made up by a script would be used for (a club's pages and invitation emails
in the service's name; programs acting for the login). Logins from before, from an invitation,
from the admin and the demo have nothing to confirm (no ``UnverifiedEmail`` row)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.models import UnverifiedEmail

WAITING = ("Confirm your email first: open the link we sent to {email}. Until then you can "
           "read clubs and join one by invitation, but not start a club or make API tokens.")


class EmailTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "accounts.verification.EmailTokenGenerator"

    def _make_hash_value(self, user, timestamp):
        # The pending row's id: once confirmed (row gone) every earlier link is spent.
        pending = UnverifiedEmail.objects.filter(user=user).values_list("pk", flat=True).first()
        return f"{user.pk}{user.email}{pending}{timestamp}"


tokens = EmailTokenGenerator()


def unconfirmed(user) -> bool:
    """True for a signed-in login whose email still waits to be confirmed (read once per
    request, kept on the user object)."""
    if user is None or not user.is_authenticated:
        return False
    if not hasattr(user, "_email_unconfirmed"):
        user._email_unconfirmed = UnverifiedEmail.objects.filter(user_id=user.pk).exists()
    return user._email_unconfirmed


def refusal(user) -> str | None:
    """The sentence refusing a club action to a login whose email waits (``None``: go on).
    Named by ``settings.CLUB_START_CHECK`` for clubs, which cannot import this app."""
    if unconfirmed(user):
        return WAITING.format(email=user.email or user.username)
    return None


def start(request, user) -> None:
    """A new login by the open sign-up: mark it waiting and send the link."""
    UnverifiedEmail.objects.get_or_create(user=user)
    send(request, user)


def send(request, user) -> None:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = request.build_absolute_uri(reverse("verify-email-link", args=[uid,
                                                                         tokens.make_token(user)]))
    send_mail(
        "Confirm your email for the mah-jong club scores",
        f"Someone (we hope you) signed up at {request.get_host()} with this email.\n\n"
        f"To confirm it, open this link:\n{link}\n\n"
        "If it was not you, ignore this email: nothing happens without the link.\n",
        settings.DEFAULT_FROM_EMAIL, [user.email])
    UnverifiedEmail.objects.filter(user=user).update(last_sent=timezone.now())


def confirm(uidb64: str, token: str):
    """The login the link confirms (its waiting row deleted), or None for a link that is
    wrong, expired or spent."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        return None
    user = get_user_model().objects.filter(pk=pk).first()
    if user is None or not tokens.check_token(user, token):
        return None
    UnverifiedEmail.objects.filter(user=user).delete()
    user._email_unconfirmed = False
    return user
