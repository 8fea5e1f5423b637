"""Sign-up (when the service takes anyone: SIGNUP=open). Login, logout and password reset are
Django's own views (django.contrib.auth.urls) with this project's templates."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from accounts import limits, verification
from accounts.forms import LoginForm
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
    if request.method == "POST" and (
            limited := limits.hit("signup", limits.client_address(request))):
        return render(request, "registration/signup.html", {
            "form": SignUpForm(initial={"email": request.POST.get("email", "")}),
            "next": safe_next(request, ""), "limited": limited.words("sign-ups")}, status=429)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save()
        except LoginTaken:
            pass
        else:
            verification.start(request, user)
            login(request, user, backend=BACKEND)
            messages.success(request, f"Welcome: you are signed up and logged in. We sent a link "
                                      f"to {user.email}: open it to confirm your email, then "
                                      "you can start a club.")
            return redirect(safe_next(request))
    return render(request, "registration/signup.html",
                  {"form": form, "next": safe_next(request, "")},
                  status=400 if form.is_bound else 200)


class LoginView(auth_views.LoginView):
    """Django's login, limited per address (``accounts.limits``; django-axes also locks one
    login after wrong passwords). A refusal is the page again, saying when to try."""

    form_class = LoginForm  # the email as it was signed up, whatever its capitals

    def post(self, request, *args, **kwargs):
        if limited := limits.hit("login", limits.client_address(request)):
            form = self.form_class(request, initial={"username": request.POST.get("username")})
            return self.render_to_response(self.get_context_data(
                form=form, limited=limited.words("attempts to log in")), status=429)
        return super().post(request, *args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, limited per address and per email asked (so nobody floods a
    mailbox with reset emails)."""

    def post(self, request, *args, **kwargs):
        email = (request.POST.get("email") or "")[:254]
        if limited := limits.first_limited(("password_reset", limits.client_address(request)),
                                           ("password_reset_email", email)):
            form = self.form_class(initial={"email": email})
            return self.render_to_response(self.get_context_data(
                form=form, limited=limited.words("password reset emails asked")), status=429)
        return super().post(request, *args, **kwargs)


@login_required
def verify_email(request):
    """Where the login stands, and the confirmation link sent again (POST, limited)."""
    waiting = verification.unconfirmed(request.user)
    status = 200
    if request.method == "POST" and waiting:
        if limited := limits.hit("verify_resend", str(request.user.pk)):
            messages.error(request, limited.words("confirmation emails"))
            status = 429
        else:
            verification.send(request, request.user)
            messages.success(request, f"Sent: open the link in the email to "
                                      f"{request.user.email}.")
            return redirect("verify-email")
    return render(request, "registration/verify_email.html",
                  {"waiting": waiting, "email": request.user.email}, status=status)


def verify_email_link(request, uidb64: str, token: str):
    user = verification.confirm(uidb64, token)
    if user is None:
        return render(request, "registration/verify_email.html",
                      {"bad_link": True, "waiting": verification.unconfirmed(request.user)},
                      status=400)
    messages.success(request, "Your email is confirmed: you can start a club and make API "
                              "tokens.")
    return redirect("start-club" if request.user.pk == user.pk else "login")
