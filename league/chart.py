"""A running total through the season as an SVG line chart, drawn on the server (prints, needs
no JavaScript). Plain Python: points in, markup out."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT, PAD = 640, 320, 84


def running_total_svg(points: list[tuple[str, int]], title: str) -> str:
    """``points``: (label, running total after that night) in order. Escaped, safe to mark."""
    if not points:
        return ""
    values = [v for _, v in points]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def x(i):
        return PAD + i * step

    def y(v):
        return PAD + (high - v) * (HEIGHT - 2 * PAD) / span

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="5"><title>{escape(label)}: {v}</title>'
        f"</circle>"
        for i, (label, v) in enumerate(points)
    )
    labels = (
        f'<text x="{PAD}" y="{HEIGHT - 12}" class="axis">{escape(points[0][0])}</text>'
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - 12}" class="axis" text-anchor="end">'
        f"{escape(points[-1][0])}</text>"
        f'<text x="{PAD - 6}" y="{y(high) + 7:.1f}" class="axis" text-anchor="end">{high}</text>'
        f'<text x="{PAD - 6}" y="{y(low) + 7:.1f}" class="axis" text-anchor="end">{low}</text>'
    )
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}">'
        f"<title>{escape(title)}</title>"
        f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="zero" '
        f'stroke="#999" stroke-dasharray="4 3"/>'
        f'<polyline points="{line}" fill="none" stroke="#0b6e4f" stroke-width="2.5"/>'
        f'<g fill="#0b6e4f">{dots}</g>{labels}</svg>'
    )
