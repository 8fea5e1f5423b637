"""The pages a club's secretary runs the club from (members, and what grows beside them),
under ``clubs/<slug>/``: kept apart from the night's pages in ``clubs/urls.py``."""

from django.urls import path

from clubs.views import member_pages

urlpatterns = [
    path("members/", member_pages.members_page, name="members"),
    path("members/add/", member_pages.add_member, name="add-member"),
    path("members/<int:member_id>/", member_pages.member_page, name="member"),
    path("members/from-guest/", member_pages.guest_to_member, name="guest-to-member"),
    path("members/merge/", member_pages.merge_members, name="merge-members"),
    path("members/changes/<int:entry_id>/undo/", member_pages.undo_member_change,
         name="undo-member-change"),
]
