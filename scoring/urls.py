from django.urls import path

from scoring.api import ScoreView

urlpatterns = [
    path("score", ScoreView.as_view(), name="api-score"),
]
