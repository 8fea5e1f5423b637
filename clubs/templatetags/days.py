"""``{{ date|day }}``: a date as the pages write it, "3 Feb 2026" (Django's ``date:"j M Y"``).

Written here from the date's numbers: the date filter looks the month's name up in the
translations on every call, most of a row's cost in a list of a club's seasons or a season's
nights (issue #27: 35 us a date). The site speaks British English only (``LANGUAGE_CODE``),
whose short month names these are."""

from django import template

register = template.Library()

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@register.filter
def day(value) -> str:
    if not value:
        return ""
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"
