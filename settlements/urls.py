from django.urls import path

from settlements.api import SettleView

urlpatterns = [
    path("settle", SettleView.as_view(), name="api-settle"),
]
