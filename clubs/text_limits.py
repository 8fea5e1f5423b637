"""How long a club's free text may be, for forms and the API alike. The models keep
TextFields (changing them is a migration); these bounds are checked where text comes in."""

# A club night's notes: a paragraph or two. 100,000 characters made a 72,000-pixel page.
NOTES_MAX = 2000
# A house rule's description: what the club changed and why.
DESCRIPTION_MAX = 4000


def too_long(limit: int) -> str:
    return f"At most {limit:,} characters; shorten it (it is shown on every page that lists it)."
