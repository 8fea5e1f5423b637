"""The pages a club's secretary runs the club from (members, mending a night's mistakes),
under ``clubs/<slug>/``: kept apart from the night's pages in ``clubs/urls.py``."""

from django.urls import path

from clubs.views import member_pages, mend_pages

TABLE = "sessions/<int:session_id>/tables/<int:table_id>/"

urlpatterns = [
    path("members/", member_pages.members_page, name="members"),
    path("members/add/", member_pages.add_member, name="add-member"),
    path("members/<int:member_id>/", member_pages.member_page, name="member"),
    path("members/from-guest/", member_pages.guest_to_member, name="guest-to-member"),
    path("members/merge/", member_pages.merge_members, name="merge-members"),
    path("members/changes/<int:entry_id>/undo/", member_pages.undo_member_change,
         name="undo-member-change"),
    path("mended/", mend_pages.mended, name="mended"),
    path("mended/<int:entry_id>/undo/", mend_pages.undo, name="undo-mending"),
    path("sessions/<int:session_id>/delete/", mend_pages.delete_session, name="delete-session"),
    path(TABLE + "mend/", mend_pages.mend_table, name="mend-table"),
    path(TABLE + "mend/reseat/", mend_pages.reseat, name="reseat-table"),
    path(TABLE + "mend/void/", mend_pages.void_table, name="void-table"),
    path(TABLE + "mend/move/", mend_pages.move_hands, name="move-hands"),
    path(TABLE + "mend/delete/", mend_pages.delete_table, name="delete-table"),
]
