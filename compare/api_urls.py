"""Routes under /api/v1/ (config/urls.py includes this before the house-rule routes, so
house-rules/compare/ is not read as a house rule's slug)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from compare.api import CompareHandView, CompareSettleView, ComparisonViewSet, RuleComparisonView

router = SimpleRouter()
router.register("comparisons", ComparisonViewSet, basename="comparison")

urlpatterns = [
    path("house-rules/compare/", RuleComparisonView.as_view(), name="api-compare-rules"),
    path("compare", CompareHandView.as_view(), name="api-compare"),
    path("compare/settle", CompareSettleView.as_view(), name="api-compare-settle"),
    *router.urls,
]
