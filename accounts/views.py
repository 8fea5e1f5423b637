"""Sign-up (when the service takes anyone: SIGNUP=open). Login, logout and password reset are
Django's own views (django.contrib.auth.urls) with this project's templates."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.signup import LoginTaken, SignUpForm

BACKEND = "django.contrib.auth.backends.ModelBackend"


def safe_next(request, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()},
                                       require_https=request.is_secure()):
        return target
    return default


def signup(request):
    if settings.SIGNUP != "open":
        status = 403 if request.method == "POST" else 200
        return render(request, "registration/signup_closed.html", status=status)
    if request.user.is_authenticated:
        return redirect(safe_next(request))
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save()
        except LoginTaken:
            pass
        else:
            login(request, user, backend=BACKEND)
            messages.success(request, "Welcome: you are signed up and logged in.")
            return redirect(safe_next(request))
    return render(request, "registration/signup.html",
                  {"form": form, "next": safe_next(request, "")},
                  status=400 if form.is_bound else 200)
