"""``{% door_takings session %}``: the night's table money on the session page (the clubs
templates may show what a feature app keeps; clubs' Python never imports it)."""

from django import template

from door.checkin import takings

register = template.Library()


@register.inclusion_tag("door/_takings.html")
def door_takings(session):
    return {"takings": takings(session)}
