"""``{{ date|day }}`` (clubs/templatetags/days.py) writes what Django's ``date:"j M Y"`` writes
under the site's language, from the date's numbers (issue #27: the date filter's translation
lookup was most of a row's cost in a list of seasons or nights). Held equal here for every day
of four years, so a change of LANGUAGE_CODE or of Django's month names fails this test."""

from datetime import date, timedelta

from django.template.defaultfilters import date as django_date

from clubs.templatetags.days import day


def test_day_writes_what_the_date_filter_writes():
    first = date(2023, 1, 1)
    for offset in range(4 * 366):
        d = first + timedelta(days=offset)
        assert day(d) == django_date(d, "j M Y"), d


def test_no_date_is_blank():
    assert day(None) == "" == django_date(None, "j M Y")
