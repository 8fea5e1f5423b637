"""The "API tokens" page: a member's personal tokens, made and revoked by themselves."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import tokens
from accounts.models import ApiToken

SESSION_KEY = "api_token_made"


class TokenForm(forms.Form):
    name = forms.CharField(max_length=80, label="What will use it",
                           help_text="A name to know it by, e.g. “League spreadsheet”.")


@login_required
def tokens_page(request):
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            token, secret = tokens.issue(request.user, form.cleaned_data["name"])
        except tokens.TokenRefused as refused:
            form.add_error("name", str(refused))
        else:
            request.session[SESSION_KEY] = {"name": token.name, "secret": secret}
            return redirect("api-tokens")
    return render(request, "accounts/tokens.html", {
        "form": form, "made": request.session.pop(SESSION_KEY, None),
        "tokens": ApiToken.objects.filter(user=request.user),
        "example_url": request.build_absolute_uri("/api/v1/clubs/"),
    }, status=400 if form.is_bound else 200)


@require_POST
@login_required
def revoke_token_page(request, token_id: int):
    token = ApiToken.objects.filter(user=request.user, pk=token_id).first()
    if token is None:
        messages.error(request, "No such token among yours: it may be revoked already.")
    else:
        tokens.revoke(token, request.user)
        messages.success(request, f"The token “{token.name}” is revoked: programs using it are "
                                  "refused from now on.")
    return redirect("api-tokens")
