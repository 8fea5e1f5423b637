"""Personal API tokens: made (the secret shown once), listed by name, revoked one at a time."""

from __future__ import annotations

from django.db import transaction

from accounts import verification
from accounts.models import ApiToken, digest, new_secret
from clubs.models import AuditAction, AuditEntry

MAX_TOKENS = 20


class TokenRefused(Exception):
    pass


def issue(user, name: str) -> tuple[ApiToken, str]:
    if refused := verification.refusal(user):  # a program acts for a confirmed login only
        raise TokenRefused(refused)
    name = (name or "").strip()
    if not name:
        raise TokenRefused("Name the token after the program that will use it, e.g. "
                           "“League spreadsheet”.")
    with transaction.atomic():
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            raise TokenRefused(f"You have {MAX_TOKENS} tokens already: revoke one you no longer "
                               "use first.")
        secret = new_secret()
        token = ApiToken.objects.create(user=user, name=name[:80], key=digest(secret),
                                        prefix=secret[:6])
        _audit(user, token, AuditAction.CREATE)
    return token, secret


def revoke(token: ApiToken, user) -> None:
    with transaction.atomic():
        _audit(user, token, AuditAction.DELETE)
        token.delete()


def _audit(user, token: ApiToken, action: str) -> None:
    # A personal token belongs to no club: its entry has none.
    AuditEntry.objects.create(club=None, user=user, action=action, object_type="apitoken",
                              object_id=str(token.pk),
                              after={"name": token.name, "prefix": token.prefix})
