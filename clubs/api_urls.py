"""Routes of the club API under /api/v1/ (config/urls.py includes this module there)."""

from rest_framework.routers import SimpleRouter

from clubs import api

router = SimpleRouter()
# Hands first: Django tries the routes in order, and recording a hand is the request a club
# night makes most often (the schema lists paths sorted, whatever this order).
router.register("hands", api.HandViewSet, basename="hand")
router.register("clubs", api.ClubViewSet, basename="club")
router.register("members", api.MemberViewSet, basename="member")
router.register("seasons", api.SeasonViewSet, basename="season")
router.register("sessions", api.SessionViewSet, basename="session")
router.register("tables", api.TableViewSet, basename="table")
router.register("audit-entries", api.AuditEntryViewSet, basename="audit-entry")

urlpatterns = router.urls
