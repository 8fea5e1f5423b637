"""``{{ text|for_people }}``: an engine's or a rule's wording in a club's words (clubs.plain_words)."""

from django import template

from clubs.plain_words import description_for_people as _description
from clubs.plain_words import for_people as _for_people

register = template.Library()


@register.filter
def for_people(text):
    return _for_people(str(text)) if text is not None else ""


@register.filter
def description_for_people(text):
    return _description(str(text)) if text is not None else ""
