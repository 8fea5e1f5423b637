"""The one thing the sheets app stores: the sheet a scorer picked for a session."""

from django.conf import settings
from django.db import models

from sheets.data import LAYOUTS


class SessionLayout(models.Model):
    """The score sheet a session prints, picked by a scorer instead of the one its house rule
    names (``HouseRule.score_sheet``). No row: the house rule's."""

    session = models.OneToOneField("clubs.ClubSession", on_delete=models.CASCADE,
                                   primary_key=True, related_name="sheet_layout")
    layout = models.CharField(max_length=10, choices=list(LAYOUTS.items()))
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.session}: {self.layout}"
