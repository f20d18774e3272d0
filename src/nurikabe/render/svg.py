"""Standalone SVG pictures of a puzzle or a board: `render_svg`.

The drawing uses a fixed coordinate system (32 units per cell) in the viewBox, so
it scales to any size; ``cell_size`` only sets the width and height attributes.
It draws, bottom to top: the paper, highlighted and error backgrounds, thin grid
lines, black cells, outlines on highlighted black cells, dots on white cells, the
thick border and the clues. Colors follow pzprjs where it has one (formats.md
2.1): dots green ``rgb(0,160,0)``, black cells in error dark red
``rgb(192,0,0)``, white cells in error pink ``rgb(255,160,160)``.

Each kind of mark sits in its own group with a class (``black``, ``dots``,
``clues``, ``highlight``, ``premises``, ``errors``), so a page can style or count
them. Pure functions: state in, string out.

Imports `grid`, `puzzle` and `render.text`; `result_svg` draws a solver's `Result`, whose
type only it imports (`solver.result`, for the annotation).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from ..grid import bits
from ..puzzle import Board, Puzzle
from .text import CellsLike, as_mask, clue_label

if TYPE_CHECKING:
    from ..solver.result import Result

__all__ = ["COLORS", "UNIT", "render_svg", "result_svg"]

UNIT = 32
"""Size of one cell in viewBox units."""

_MARGIN = 4
"""Room around the grid in viewBox units, so that the thick border is not clipped."""

COLORS = {
    "paper": "#ffffff",
    "line": "#999999",
    "border": "#000000",
    "black": "#000000",
    "clue": "#000000",
    "clue-on-black": "#ffffff",
    "dot": "rgb(0,160,0)",
    "highlight": "rgb(140,200,255)",
    "premises": "rgb(255,222,120)",
    "error-white": "rgb(255,160,160)",
    "error-black": "rgb(192,0,0)",
}
"""The palette, by role."""


def _default_cell_size(rows: int, cols: int) -> int:
    # About 36 px per cell for small grids, shrinking so that big grids stay near 800 px.
    return max(14, min(36, 800 // max(rows, cols)))


def _rect(x: int, y: int, w: int, h: int, extra: str = "") -> str:
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}"{extra}/>'


def render_svg(
    puzzle: Puzzle,
    board: Board | None = None,
    *,
    highlight: CellsLike = None,
    premises: CellsLike = None,
    errors: CellsLike = None,
    cell_size: float | None = None,
    title: str | None = None,
) -> str:
    """A standalone SVG document showing `puzzle`, and `board` when given.

    `highlight` (the cells a hint decides) and `premises` (the cells it relies on)
    get colored backgrounds, or a colored inner outline on black cells. `errors`
    (cells, or violations from `nurikabe.rules.check`) are tinted pink, or dark
    red when black. `cell_size` is the pixel size of a cell (by default 14-36,
    smaller for bigger grids); `title` becomes the SVG's ``<title>``.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 1]])
    >>> svg = render_svg(p, Board.from_rows(p, ["2.#", "##1"]), cell_size=20)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), svg.count("<text")
    (True, 2)

    Raises:
        TypeError: a set of cells is given in a form `as_mask` does not know.
        ValueError: `cell_size` is not positive, or a cell index is negative.
    """
    grid = puzzle.grid
    rows, cols = grid.rows, grid.cols
    if cell_size is None:
        cell_size = _default_cell_size(rows, cols)
    if not cell_size > 0:
        raise ValueError(f"cell_size must be positive, got {cell_size!r}")
    full = grid.full
    clue_mask = puzzle.clue_mask
    black = board.black_mask & full if board is not None else 0
    white = board.white_mask & full & ~black if board is not None else 0
    lit = as_mask(highlight) & full
    premise = as_mask(premises) & full & ~lit
    wrong = as_mask(errors) & full

    u, m = UNIT, _MARGIN
    vw, vh = cols * u + 2 * m, rows * u + 2 * m
    scale = cell_size / u
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'viewBox="0 0 {vw} {vh}" width="{_num(vw * scale)}" height="{_num(vh * scale)}" '
        f'class="nurikabe">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(_rect(0, 0, vw, vh, f' fill="{COLORS["paper"]}" class="paper"'))

    def xy(i: int) -> tuple[int, int]:
        r, c = divmod(i, cols)
        return m + c * u, m + r * u

    def cell_group(name: str, mask: int, fill: str) -> None:
        if not mask:
            return
        out.append(f'<g class="{name}" fill="{fill}">')
        for i in bits(mask):
            x, y = xy(i)
            out.append(_rect(x, y, u, u))
        out.append("</g>")

    # Backgrounds of non-black cells: hint colors, then errors over them.
    cell_group("highlight", lit & ~black, COLORS["highlight"])
    cell_group("premises", premise & ~black, COLORS["premises"])
    cell_group("errors", wrong & ~black, COLORS["error-white"])

    # Thin grid lines, one path, one device pixel wide at any zoom.
    path = [f"M{m} {m + r * u}h{cols * u}" for r in range(1, rows)]
    path += [f"M{m + c * u} {m}v{rows * u}" for c in range(1, cols)]
    if path:
        out.append(
            f'<path class="grid" d="{"".join(path)}" stroke="{COLORS["line"]}" '
            'stroke-width="1" vector-effect="non-scaling-stroke" fill="none"/>'
        )

    # Black cells; crisp edges keep hairline seams from showing between neighbours.
    if black:
        out.append(f'<g class="black" fill="{COLORS["black"]}" shape-rendering="crispEdges">')
        for i in bits(black):
            x, y = xy(i)
            extra = f' fill="{COLORS["error-black"]}"' if wrong >> i & 1 else ""
            out.append(_rect(x, y, u, u, extra))
        out.append("</g>")
    for name, mask in (("highlight-black", lit & black), ("premises-black", premise & black)):
        if mask:
            color = COLORS["highlight" if name == "highlight-black" else "premises"]
            out.append(f'<g class="{name}" fill="none" stroke="{color}" stroke-width="4">')
            for i in bits(mask):
                x, y = xy(i)
                out.append(_rect(x + 4, y + 4, u - 8, u - 8))
            out.append("</g>")

    dots = white & ~clue_mask
    if dots:
        out.append(f'<g class="dots" fill="{COLORS["dot"]}">')
        for i in bits(dots):
            x, y = xy(i)
            out.append(f'<circle cx="{x + u // 2}" cy="{y + u // 2}" r="{u // 8}"/>')
        out.append("</g>")

    out.append(
        _rect(
            m,
            m,
            cols * u,
            rows * u,
            f' class="border" fill="none" stroke="{COLORS["border"]}" stroke-width="4"',
        )
    )

    if puzzle.clues:
        out.append(
            '<g class="clues" font-family="Helvetica, Arial, sans-serif" '
            f'text-anchor="middle" fill="{COLORS["clue"]}">'
        )
        for i, value in puzzle.clues.items():
            label = clue_label(value)
            size = {1: 20, 2: 18, 3: 14}.get(len(label), 11)
            x, y = xy(i)
            extra = f' fill="{COLORS["clue-on-black"]}"' if black >> i & 1 else ""
            # A baseline 0.35 em below the centre puts digits visually centred without
            # relying on dominant-baseline, which some renderers ignore.
            out.append(
                f'<text x="{x + u // 2}" y="{_num(y + u / 2 + size * 0.35)}" '
                f'font-size="{size}"{extra}>{escape(label)}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def result_svg(result: Result) -> str:
    """The picture of a solver's answer (``nurikabe solve --svg``): its first solution,
    with the cells where the first two solutions differ highlighted when it found two;
    the bare puzzle when it found none.

    >>> from nurikabe import solve
    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 0], [0, 0, 2]])  # two solutions
    >>> result_svg(solve(p)).count("<rect") - render_svg(p, solve(p).solutions[0]).count("<rect")
    4
    """
    if not result.solutions:
        return render_svg(result.puzzle)
    return render_svg(result.puzzle, result.solutions[0], highlight=result.difference())


def _num(value: float) -> str:
    """A number without a needless fraction: 20.0 -> ``20``, 12.25 -> ``12.25``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text or "0"
