"""Routes of the house-rule API under /api/v1/house-rules/ (config/urls.py includes this)."""

from rest_framework.routers import SimpleRouter

from houserules.api import HouseRuleViewSet

router = SimpleRouter()
router.register("house-rules", HouseRuleViewSet, basename="house-rule")

urlpatterns = router.urls
