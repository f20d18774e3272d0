"""Pictures of per-cell figures (the thesis's figure 16) as standalone SVG heat maps.

Pure functions: numbers in, an SVG document out. No plotting library is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

__all__ = ["heatmap_svg"]

CELL = 56
MARGIN = 28


def _shade(t: float) -> str:
    """White (t = 0) to deep blue (t = 1)."""
    t = min(max(t, 0.0), 1.0)
    r = round(255 - t * (255 - 31))
    g = round(255 - t * (255 - 78))
    b = round(255 - t * (255 - 140))
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap_svg(
    rows: int, cols: int, values: Sequence[float], *, title: str, fmt: str = "{:.2f}"
) -> str:
    """An SVG grid with each cell shaded by its value (row-major) and labelled with it.

    >>> svg = heatmap_svg(1, 2, [0.0, 1.0], title="t")
    >>> svg.startswith("<svg") and svg.count("<rect") == 2
    True
    """
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    width = cols * CELL + 2 * MARGIN
    height = rows * CELL + 2 * MARGIN + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<text x="{width / 2}" y="{MARGIN - 8}" text-anchor="middle" font-size="14">'
        f"{escape(title)}</text>",
    ]
    for i, value in enumerate(values):
        r, c = divmod(i, cols)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        t = (value - lo) / span
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{_shade(t)}" '
            'stroke="#444" stroke-width="1"/>'
        )
        color = "#fff" if t > 0.55 else "#000"
        parts.append(
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 5}" text-anchor="middle" '
            f'font-size="13" fill="{color}">{escape(fmt.format(value))}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
