"""Routes of the sheets API under /api/v1/: /sessions/{id}/sheet/ and /tables/{id}/sheet/."""

from rest_framework.routers import SimpleRouter

from sheets import api

router = SimpleRouter()
router.register("sessions", api.SessionSheetViewSet, basename="session-sheet")
router.register("tables", api.TableSheetViewSet, basename="table-sheet")

urlpatterns = router.urls
