"""Routes of the accounts API under /api/v1/."""

from rest_framework.routers import SimpleRouter

from accounts import api

router = SimpleRouter()
router.register("invitations", api.InvitationViewSet, basename="invitation")
router.register("tokens", api.ApiTokenViewSet, basename="api-token")
router.register("email-verification", api.EmailVerificationViewSet,
                basename="email-verification")

urlpatterns = router.urls
