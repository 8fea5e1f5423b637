"""How long a house rule's free text may be, for the admin, the API and the club's form alike."""

# A house rule's name, as pages and score sheets show it (the record's column).
NAME_MAX = 120

# A house rule's description: what the club changed and why.
DESCRIPTION_MAX = 4000


def too_long(limit: int) -> str:
    return f"At most {limit:,} characters; shorten it (it is shown on every page that lists it)."
