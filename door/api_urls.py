"""Routes of the door API under /api/v1/: /sessions/{id}/door/..."""

from rest_framework.routers import SimpleRouter

from door import api

router = SimpleRouter()
router.register("sessions", api.DoorViewSet, basename="session-door")

urlpatterns = router.urls
