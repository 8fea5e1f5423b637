"""How long a house rule's free text may be, for the admin and the API alike."""

# A house rule's description: what the club changed and why.
DESCRIPTION_MAX = 4000


def too_long(limit: int) -> str:
    return f"At most {limit:,} characters; shorten it (it is shown on every page that lists it)."
