"""The statistics' bar charts in Chromium, on a phone and on paper: every label stays inside
the chart, however wide its letters. Found printing a player's page (QA of issue #26):
"<b>Wolfgang</b>" (fifteen letters, the most a label keeps) lost its "<" at the chart's
left edge on the phone and more on paper, where the chart, drawn for a phone, was printed at
the page's whole width with its type half as big again as the text."""

from __future__ import annotations

import pytest

from history.charts import bars_svg
from tests.conftest import REPO

pytestmark = pytest.mark.browser

ROWS = [("<b>Wolfgang</b>", -816), ("X" * 80, 476), ("WWWWWWWWWWWWWWW", 20),
        ("=HYPERLINK(\"http://evil.example/\")", -338), ("Alice Archer", 800), ("Eve", -5)]
JS = """() => [...document.querySelectorAll('svg.chart')].map(svg => {
  const box = svg.getBoundingClientRect();
  return {width: box.width, lefts: [...svg.querySelectorAll('text')].map(
    t => t.getBoundingClientRect().left - box.left)};
})"""


def test_wide_labels_stay_inside_the_chart_on_a_phone_and_on_paper(chromium):
    css = (REPO / "static" / "css" / "app.css").read_text()
    html = (f"<!doctype html><html><head><style>{css}</style></head><body><main>"
            f'<div class="card">{bars_svg(ROWS, "Who paid whom")}</div></main></body></html>')
    page = chromium.new_page(viewport={"width": 390, "height": 844})
    try:
        page.set_content(html)
        (chart,) = page.evaluate(JS)
        assert min(chart["lefts"]) >= 0, chart
        page.emulate_media(media="print")
        page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        (chart,) = page.evaluate(JS)
        assert min(chart["lefts"]) >= 0, chart
        # Printed no wider than about a tablet's chart: its type near the text's 11pt.
        assert chart["width"] <= 13 / 2.54 * 96 + 1, chart
    finally:
        page.close()
