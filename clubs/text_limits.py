"""How long a club's free text may be, for forms and the API alike. The models keep
TextFields (changing them is a migration); these bounds are checked where text comes in."""

# A house rule's description, and the message for text too long, live with the house rules.
from houserules.text_limits import DESCRIPTION_MAX, too_long

# A club night's notes: a paragraph or two. 100,000 characters made a 72,000-pixel page.
NOTES_MAX = 2000

__all__ = ["DESCRIPTION_MAX", "NOTES_MAX", "too_long"]
