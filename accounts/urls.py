from django.urls import path

from accounts import invitation_pages, token_pages, views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/tokens/", token_pages.tokens_page, name="api-tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", token_pages.revoke_token_page,
         name="revoke-api-token"),
    path("invite/<str:secret>/", invitation_pages.invitation_page, name="invitation"),
    path("clubs/<slug:slug>/invitations/", invitation_pages.invitations_page, name="invitations"),
    path("clubs/<slug:slug>/invitations/<int:invitation_id>/withdraw/",
         invitation_pages.revoke_page, name="revoke-invitation"),
]
