"""What cannot be played, in DRF's error shape (field paths), so every caller can answer with it."""

from __future__ import annotations

from typing import Any


class HandInputError(ValueError):
    """What was entered cannot be recorded; ``errors`` is DRF's error shape (field paths)."""

    def __init__(self, errors: dict[str, Any]):
        self.errors = errors
        super().__init__(str(errors))


class SeatingError(HandInputError):
    """The table's seats cannot start a game under its house rule (a table seated or changed
    in the admin): nothing can be shown or recorded there until they are mended."""
