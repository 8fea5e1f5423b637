"""The statistics' charts as SVG drawn on the server (print, need no JavaScript). Plain
Python: figures in, escaped markup out (safe to mark safe)."""

from __future__ import annotations

from html import escape

WIDTH, ROW, LABEL = 640, 44, 210
VALUE_ROOM = 100
# Letters of a label that fit left of the axis (LABEL units at the axis' 22-unit type, about
# 12 units a letter): a longer name is cut with "…" (whole in its title), where 22 letters
# ran off the chart's left edge ("ript>alert(1)</scri", "holomew Fitzwillia").
LABEL_LETTERS = 15


# Fifteen wide letters still ran off the edge ("<b>Wolfgang</b>", "XXXXXXXXXXXXXX…": about
# 18 and 15 units a letter at the axis' type), on a phone and more on paper. A label whose
# width, reckoned on the wide side from the letters' advances in DejaVu Sans (em, the type
# the pages fall back to), passes the room left of the axis is drawn squeezed to fit it
# (SVG's textLength), never cut at the chart's edge.
AXIS_TYPE = 22
LABEL_ROOM = LABEL - 12
_EM = {**dict.fromkeys("iIjlt.,:;'|!()[]{} ", 0.4), **dict.fromkeys("<>=+~^#%&@MWmw", 0.95)}


def short_label(label: str) -> str:
    return label if len(label) <= LABEL_LETTERS else label[:LABEL_LETTERS - 1].rstrip() + "…"


def label_width(label: str) -> float:
    """The label's width in chart units at the axis' type, reckoned on the wide side."""
    return AXIS_TYPE * sum(_EM.get(c, 0.75 if c.isupper() or c.isdigit() else 0.65)
                           for c in label)


def _fit(label: str) -> str:
    """The attributes that squeeze a label into the room left of the axis, if it needs it."""
    if label_width(label) <= LABEL_ROOM:
        return ""
    return f' textLength="{LABEL_ROOM}" lengthAdjust="spacingAndGlyphs"'


def bars_svg(rows: list[tuple[str, int]], title: str, unit: str = "") -> str:
    """One horizontal bar per row, left of the axis for a negative value and right for a
    positive one, the value written at the bar's end: who paid whom (net, by opponent),
    results by seat wind."""
    if not rows:
        return ""
    height = ROW * len(rows) + 24
    span = max(1, *(abs(v) for _, v in rows))
    # Room beside each end for the value written there: "+17790" at the axis' type (22 units
    # a letter) is about 80 units; at 85 its last digit was cut off.
    half = (WIDTH - LABEL - 2 * VALUE_ROOM) / 2
    axis = LABEL + VALUE_ROOM + half
    out = []
    for i, (label, value) in enumerate(rows):
        y = 12 + i * ROW
        length = half * abs(value) / span
        x = axis if value >= 0 else axis - length
        cls, fill = ("pos", "#0b6e4f") if value >= 0 else ("neg", "#b3261e")
        tx, anchor = (axis + length + 6, "start") if value >= 0 else (axis - length - 6, "end")
        out.append(
            f'<text x="{LABEL - 8}" y="{y + 27}" class="axis" text-anchor="end"'
            f"{_fit(short_label(label))}>{escape(short_label(label))}<title>{escape(label)}</title></text>"
            f'<rect x="{x:.1f}" y="{y + 6}" width="{max(length, 1):.1f}" height="{ROW - 14}" '
            f'class="{cls}" fill="{fill}"><title>{escape(label)}: {value:+d}{escape(unit)}</title></rect>'
            f'<text x="{tx:.1f}" y="{y + 27}" class="axis" text-anchor="{anchor}">{value:+d}</text>')
    return (
        f'<svg class="chart bars" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
        f'<line x1="{axis:.1f}" x2="{axis:.1f}" y1="4" y2="{height - 4}" stroke="#999"/>'
        + "".join(out) + "</svg>")
