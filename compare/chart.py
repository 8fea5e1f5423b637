"""Each player's total under each rule as an SVG bar chart drawn on the server: it prints, and
needs no JavaScript. Bars go right of the zero line for a gain, left for a loss."""

from __future__ import annotations

from django.utils.html import escape

COLOURS = ("#2f6f4f", "#b5562d", "#3b5b9a", "#a08a1e", "#7a3f86", "#2d8c8c", "#8c2d4a", "#555")
BAR, GAP, LABEL_W, WIDTH = 12, 10, 150, 640


def totals_chart(report: dict) -> str:
    slugs = report["rules"]
    players = report["players"]
    biggest = max((abs(t) for p in players for t in p["totals"]), default=0) or 1
    plot = WIDTH - LABEL_W - 20
    zero = LABEL_W + plot / 2
    scale = (plot / 2 - 40) / biggest
    group = BAR * len(slugs) + GAP
    legend_h = 20 * ((len(slugs) + 3) // 4)
    height = legend_h + group * len(players) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
           f'viewBox="0 0 {WIDTH} {height}" width="100%" '
           f'aria-label="Each player\'s total under each house rule">']
    for i, slug in enumerate(slugs):
        x, y = 10 + (i % 4) * 155, 4 + (i // 4) * 20
        out.append(f'<rect x="{x}" y="{y}" width="12" height="12" fill="{COLOURS[i % 8]}"/>'
                   f'<text x="{x + 16}" y="{y + 11}" font-size="12">{escape(slug)}</text>')
    out.append(f'<line x1="{zero}" y1="{legend_h}" x2="{zero}" y2="{height - 10}" '
               'stroke="#999"/>')
    for row, player in enumerate(players):
        top = legend_h + row * group + GAP / 2
        out.append(f'<text x="{LABEL_W - 6}" y="{top + group / 2}" font-size="12" '
                   f'text-anchor="end">{escape(player["name"])}</text>')
        for i, total in enumerate(player["totals"]):
            length = abs(total) * scale
            x = zero if total >= 0 else zero - length
            y = top + i * BAR
            anchor, tx = ("start", zero + length + 3) if total >= 0 else ("end", zero - length - 3)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{length:.1f}" height="{BAR - 2}" '
                       f'fill="{COLOURS[i % 8]}"><title>{escape(player["name"])} under '
                       f'{escape(slugs[i])}: {total}</title></rect>'
                       f'<text x="{tx:.1f}" y="{y + BAR - 3:.1f}" font-size="10" '
                       f'text-anchor="{anchor}">{total}</text>')
    out.append("</svg>")
    return "".join(out)
