"""The sheet pages and downloads, beside the session and table pages they belong to."""

from django.urls import path

from sheets import views

app_name = "sheets"

SESSION = "clubs/<slug:slug>/sessions/<int:session_id>/"
TABLE = SESSION + "tables/<int:table_id>/"

urlpatterns = [
    path(SESSION + "sheet/", views.session_sheet, name="session"),
    path(SESSION + "sheet.<str:fmt>", views.session_download, name="session-download"),
    path(SESSION + "sheet/layout/", views.choose_layout, name="choose-layout"),
    path(TABLE + "sheet/", views.table_sheet, name="table"),
    path(TABLE + "sheet.<str:fmt>", views.table_download, name="table-download"),
]
