"""What league's pages let a higher layer add to them without league importing it.

``standings_shown``: sent while a standings page is drawn (sender ``Club``; ``club``,
``season``, None on the all-time page, and ``request``). A receiver answers with HTML to show
beside the standings (its own template rendered, marked safe), or None for nothing. History
answers with the club rating when the club has turned it on (``history.receivers``)."""

from django.dispatch import Signal

from clubs.models import Club

standings_shown = Signal()


def beside_standings(club, season, request) -> list:
    """The receivers' HTML, in the order they were connected (the Nones left out)."""
    return [html for _receiver, html in standings_shown.send(
        sender=Club, club=club, season=season, request=request) if html]
