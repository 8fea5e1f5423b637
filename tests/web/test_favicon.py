"""The site's icon (found walking the product in a browser: every first page load asked for
/favicon.ico and got the 25 KB not-found page, a console error and a 'Not Found' server log line)."""

from __future__ import annotations

from django.contrib.staticfiles import finders


def test_favicon_is_the_icon_not_a_404(client, db):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302
    assert answer["Location"].endswith("img/icon.svg")
    assert finders.find("img/icon.svg")


def test_pages_name_the_icon(client, db):
    page = client.get("/").content.decode()
    assert 'rel="icon"' in page and "img/icon.svg" in page
