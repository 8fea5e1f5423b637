"""API token authentication: DRF's own ``TokenAuthentication`` over personal, named tokens
(``accounts.ApiToken``: a member may hold several and revoke each alone).

Only a SHA-256 digest of each token is stored, so a copy of the database signs in no program:
the key a client sends is digested, then looked up exactly as DRF looks up its own tokens.
"""

from __future__ import annotations

import hashlib

from django.apps import apps
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``, answered as DRF answers it ("Invalid token.", "User
    inactive or deleted.")."""

    def get_model(self):
        # Named by string: this module sits below the accounts app that holds the model.
        return apps.get_model("accounts", "ApiToken")

    def authenticate_credentials(self, key):
        return super().authenticate_credentials(token_digest(key))


class TokenScheme(OpenApiAuthenticationExtension):
    """What the OpenAPI page says about tokens: where to get one and how to send it."""

    target_class = "config.authentication.TokenAuthentication"
    name = "tokenAuth"
    priority = 1

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "A personal API token, sent as `Authorization: Token <key>`. Make one on the "
                "service's \"API tokens\" page (`/accounts/tokens/`, linked from the front page "
                "when you are logged in) or with `POST /api/v1/tokens/`; it is shown once. It "
                "acts with your login's roles at your clubs; revoke it on the same page."),
        }
