from django.urls import path

from accounts import invitation_pages, token_pages, views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    # Django's own login and password reset, rate limited (before django.contrib.auth.urls).
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/verify/", views.verify_email, name="verify-email"),
    path("accounts/verify/<str:uidb64>/<str:token>/", views.verify_email_link,
         name="verify-email-link"),
    path("accounts/tokens/", token_pages.tokens_page, name="api-tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", token_pages.revoke_token_page,
         name="revoke-api-token"),
    path("invite/<str:secret>/", invitation_pages.invitation_page, name="invitation"),
    path("clubs/<slug:slug>/invitations/", invitation_pages.invitations_page, name="invitations"),
    path("clubs/<slug:slug>/invitations/<int:invitation_id>/withdraw/",
         invitation_pages.revoke_page, name="revoke-invitation"),
]
