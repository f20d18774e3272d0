"""Printable booklets: puzzles, then their solutions, laid out on PDF pages (`write_booklet`).

This module owns the page layout (how many grids a page holds, where they go and how
big their cells are) and the drawing of one grid on a reportlab canvas as vector
graphics (`draw_grid`): thin grey grid lines, a thick black border, black cells (in
solutions; no dots), clue numbers centred in their cells (``?`` for an unknown clue).
The look is the one of `render.svg`: its palette, and its proportions per cell for
the border and the clue text, so the font size follows the cell size and a 40x40 grid
stays as legible as its cells allow.

Layout rules:

- Puzzles: `per_page` (1, 2, 4 or 6) in a grid of slots, arranged (2 as 1x2 or 2x1,
  4 as 2x2, 1x4 or 4x1, 6 as 2x3 or 3x2) so that the smallest cell of the booklet is
  as large as possible. Cells are square, as large as the slot allows and at most
  `MAX_CELL`. A puzzle whose cells would be smaller than `MIN_CELL` in a slot gets a
  page of its own instead.
- Solutions (at the back): page by page, as many as keep their cells at least
  `MIN_SOLUTION_CELL` (up to 20 for 10x10), at most `MAX_SOLUTION_CELL`.
- Every page has a header (the title; the author line and the puzzles it holds
  beneath) and its number at the foot. The PDF's metadata carries title and author,
  and its outline points at the puzzles and at the solutions.

Needs reportlab (the ``print`` extra); only the print path imports this module.

Imports `errors`, `puzzle`, `rules`, `solver` (to solve a puzzle given without its
solution) and `render.svg` / `render.text` (the shared look).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from ..errors import NurikabeError
from ..puzzle import Board, Puzzle
from .svg import COLORS, UNIT
from .text import clue_label

__all__ = [
    "MAX_CELL",
    "MIN_CELL",
    "MIN_SOLUTION_CELL",
    "PAPERS",
    "PER_PAGE",
    "BookletError",
    "BookletPuzzle",
    "draw_grid",
    "write_booklet",
]

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
"""Paper sizes by name, in points (portrait)."""

PER_PAGE = (1, 2, 4, 6)
"""How many puzzles a page may hold."""

MIN_CELL = 9.0
"""Smallest puzzle cell, in points (3.2 mm; clues of 5.6 pt): a puzzle that would be
smaller gets a page of its own. A 20x20 still goes six to a page."""
MAX_CELL = 48.0
"""Largest puzzle cell, in points (17 mm), so that a small grid alone on a page is not huge."""
MIN_SOLUTION_CELL = 8.0
"""Smallest solution cell, in points; it decides how many solutions share a page."""
MAX_SOLUTION_CELL = 16.0
"""Largest solution cell, in points: solutions are printed small."""

# Arrangements as (columns, rows) of slots, preferred first when they tie.
_ARRANGEMENTS = {
    1: ((1, 1),),
    2: ((1, 2), (2, 1)),
    4: ((2, 2), (1, 4), (4, 1)),
    6: ((2, 3), (3, 2)),
}
_SOLUTION_ARRANGEMENTS = ((4, 5), (3, 4), (3, 3), (2, 3), (2, 2), (1, 2), (1, 1))

# Page furniture, in points.
_MARGIN = 36.0  # half an inch, inside what office printers can reach
_HEADER = 48.0
_FOOTER = 22.0
_GUTTER = (26.0, 18.0)  # between slots: across, down
_LABEL = {"puzzle": 17.0, "solution": 11.0}  # the band above a grid with its number
_FONT, _BOLD = "Helvetica", "Helvetica-Bold"  # the SVG's font family

# Clue text size in SVG units (of `UNIT` per cell) by label length, as render.svg draws it.
_CLUE_UNITS = {1: 20, 2: 18, 3: 14}
_CLUE_UNITS_LONG = 11
_BORDER_UNITS = 4  # render.svg's border stroke
# A baseline this far (in em) below the cell's centre centres digits visually (render.svg).
_BASELINE_DROP = 0.35

_GREY = HexColor("#555555")


class BookletError(NurikabeError):
    """A booklet that cannot be made: bad options, or a puzzle without one known solution."""


@dataclass(frozen=True)
class BookletPuzzle:
    """One puzzle of a booklet, with its solution and what its label says."""

    puzzle: Puzzle
    """The puzzle."""
    solution: Board
    """Its solution, drawn in the solutions section."""
    level: str | None = None
    """Its grade level (``easy`` .. ``extreme``), if known."""
    score: int | None = None
    """Its grade score, if known."""
    name: str | None = None
    """Where it came from (an id or a file name), for messages."""

    @classmethod
    def solved(
        cls,
        puzzle: Puzzle,
        solution: Board | None = None,
        *,
        level: str | None = None,
        score: int | None = None,
        name: str | None = None,
        seconds: float = 10.0,
    ) -> BookletPuzzle:
        """`puzzle` with `solution`, checked against the rules; without one, solved here.

        The exact solver runs with a limit of `seconds`; only a unique solution is
        printed.

        >>> p = Puzzle.from_grid([[2, 0], [0, 0]])
        >>> BookletPuzzle.solved(p, name="tiny")
        Traceback (most recent call last):
        ...
        nurikabe.render.pdf.BookletError: tiny: has several solutions; ...

        Raises:
            BookletError: the solution given breaks a rule, or the puzzle has no
                solution, several, or none found within `seconds`.
        """
        from ..rules import is_solved

        what = name or "puzzle"
        if solution is not None:
            if not is_solved(puzzle, solution):
                raise BookletError(f"{what}: the solution given does not solve the puzzle")
            return cls(puzzle, solution, level, score, name)
        from ..solver import Limit, Status, solve

        result = solve(puzzle, limit=Limit(solutions=2, seconds=seconds))
        if result.status is Status.UNIQUE and result.solution is not None:
            return cls(puzzle, result.solution, level, score, name)
        why = {
            Status.NONE: "has no solution",
            Status.MULTIPLE: "has several solutions; a booklet prints only unique puzzles",
        }.get(result.status, f"not solved within {seconds:g} s")
        raise BookletError(f"{what}: {why}")


def _color(name: str) -> Color:
    return HexColor(COLORS[name])


def _clue_size(label: str, cell: float) -> float:
    return cell * _CLUE_UNITS.get(len(label), _CLUE_UNITS_LONG) / UNIT


def _border_width(cell: float) -> float:
    return min(2.4, max(0.8, cell * _BORDER_UNITS / UNIT))


def draw_grid(
    canvas: Canvas,
    puzzle: Puzzle,
    solution: Board | None,
    x: float,
    top: float,
    cell: float,
) -> None:
    """Draw `puzzle` (with the black cells of `solution`, if given) with its top-left
    corner at (`x`, `top`) and cells of `cell` points, as vector graphics."""
    rows, cols = puzzle.rows, puzzle.cols
    width, height = cols * cell, rows * cell
    bottom = top - height
    canvas.saveState()
    canvas.setLineWidth(min(0.6, max(0.3, cell / 40)))
    canvas.setStrokeColor(_color("line"))
    lines = [(x, top - r * cell, x + width, top - r * cell) for r in range(1, rows)]
    lines += [(x + c * cell, bottom, x + c * cell, top) for c in range(1, cols)]
    if lines:
        canvas.lines(lines)
    if solution is not None and solution.black_mask:
        # One path of row runs: fewer operators, and no seams between neighbours.
        path = canvas.beginPath()
        black = solution.black_mask
        for r in range(rows):
            c = 0
            while c < cols:
                if black >> (r * cols + c) & 1:
                    start = c
                    while c < cols and black >> (r * cols + c) & 1:
                        c += 1
                    path.rect(x + start * cell, top - (r + 1) * cell, (c - start) * cell, cell)
                else:
                    c += 1
        canvas.setFillColor(_color("black"))
        canvas.drawPath(path, stroke=0, fill=1)
    canvas.setLineWidth(_border_width(cell))
    canvas.setStrokeColor(_color("border"))
    canvas.rect(x, bottom, width, height, stroke=1, fill=0)
    canvas.setFillColor(_color("clue"))
    for i, value in puzzle.clues.items():
        r, c = divmod(i, cols)
        label = clue_label(value)
        size = _clue_size(label, cell)
        canvas.setFont(_FONT, size)
        centre_y = top - (r + 0.5) * cell
        canvas.drawCentredString(x + (c + 0.5) * cell, centre_y - _BASELINE_DROP * size, label)
    canvas.restoreState()


@dataclass(frozen=True)
class _Frame:
    """The part of a page that holds grids, and how it is cut into slots."""

    left: float
    top: float
    width: float
    height: float
    columns: int = 1
    rows: int = 1

    @property
    def slot(self) -> tuple[float, float]:
        across, down = _GUTTER
        return (
            (self.width - (self.columns - 1) * across) / self.columns,
            (self.height - (self.rows - 1) * down) / self.rows,
        )

    def slot_corner(self, k: int) -> tuple[float, float]:
        """Left and top of slot `k`, filled row by row."""
        row, column = divmod(k, self.columns)
        slot_w, slot_h = self.slot
        return (
            self.left + column * (slot_w + _GUTTER[0]),
            self.top - row * (slot_h + _GUTTER[1]),
        )

    def cell(self, puzzle: Puzzle, label: float, largest: float) -> float:
        """The cell size of `puzzle` in one slot, under a label band of `label` points."""
        slot_w, slot_h = self.slot
        room = 2 * _border_width(largest)  # the border straddles the grid's edge
        fit = min((slot_w - room) / puzzle.cols, (slot_h - label - room) / puzzle.rows)
        return max(0.0, min(largest, fit))


def _body(paper: tuple[float, float]) -> _Frame:
    width, height = paper
    top = height - _MARGIN - _HEADER
    return _Frame(_MARGIN, top, width - 2 * _MARGIN, top - _MARGIN - _FOOTER)


def _arranged(body: _Frame, columns: int, rows: int) -> _Frame:
    return _Frame(body.left, body.top, body.width, body.height, columns, rows)


def _best_arrangement(
    body: _Frame,
    options: Sequence[tuple[int, int]],
    puzzles: Sequence[Puzzle],
    label: float,
    largest: float,
) -> _Frame:
    """The arrangement whose smallest cell over `puzzles` is largest (the first on a tie)."""
    frames = [_arranged(body, c, r) for c, r in options]
    return max(frames, key=lambda f: min((f.cell(p, label, largest) for p in puzzles), default=0.0))


def _paginate_solutions(puzzles: Sequence[Puzzle], body: _Frame) -> list[tuple[list[int], _Frame]]:
    """Solution pages, each with the most slots that keep the cells of the solutions it
    holds at least `MIN_SOLUTION_CELL` (so a few big grids do not spread out the rest)."""
    label = _LABEL["solution"]
    pages: list[tuple[list[int], _Frame]] = []
    k = 0
    while k < len(puzzles):
        for columns, rows in _SOLUTION_ARRANGEMENTS:
            frame = _arranged(body, columns, rows)
            chunk = list(range(k, min(len(puzzles), k + columns * rows)))
            cells = (frame.cell(puzzles[j], label, MAX_SOLUTION_CELL) for j in chunk)
            if all(cell >= MIN_SOLUTION_CELL for cell in cells):
                break
        pages.append((chunk, frame))  # the last arrangement (1x1) takes whatever is left
        k += len(chunk)
    return pages


def _paginate(
    puzzles: Sequence[Puzzle], frame: _Frame, label: float, largest: float, smallest: float
) -> list[tuple[list[int], _Frame]]:
    """Pages as (indices of `puzzles`, frame): `frame`'s slots filled in order, except
    that a puzzle too big for a slot (cells under `smallest`) gets a page of its own."""
    alone = _arranged(frame, 1, 1)
    capacity = frame.columns * frame.rows
    pages: list[tuple[list[int], _Frame]] = []
    current: list[int] = []
    for k, puzzle in enumerate(puzzles):
        if capacity > 1 and frame.cell(puzzle, label, largest) < smallest:
            if current:
                pages.append((current, frame))
                current = []
            pages.append(([k], alone))
            continue
        current.append(k)
        if len(current) == capacity:
            pages.append((current, frame))
            current = []
    if current:
        pages.append((current, frame))
    return pages


@dataclass(frozen=True)
class _Style:
    """What the page furniture says."""

    title: str
    author: str | None
    scores: bool
    paper: tuple[float, float]


def _header(canvas: Canvas, style: _Style, section: str) -> None:
    width, height = style.paper
    top = height - _MARGIN
    canvas.setFillColor(_color("border"))
    canvas.setFont(_BOLD, 15)
    canvas.drawString(_MARGIN, top - 15, style.title)
    canvas.setFont(_FONT, 9.5)
    canvas.setFillColor(_GREY)
    if style.author:
        canvas.drawString(_MARGIN, top - 29, style.author)
    canvas.drawRightString(width - _MARGIN, top - 29, section)
    canvas.setStrokeColor(_color("line"))
    canvas.setLineWidth(0.5)
    canvas.line(_MARGIN, top - 35, width - _MARGIN, top - 35)
    canvas.setFont(_FONT, 9)
    canvas.drawCentredString(width / 2, _MARGIN, str(canvas.getPageNumber()))


def _label(
    canvas: Canvas, item: BookletPuzzle, number: int, kind: str, style: _Style, x: float, y: float
) -> None:
    """The line above a grid: its number, level (and score), and for puzzles its size."""
    big = 12.0 if kind == "puzzle" else 8.0
    canvas.setFillColor(_color("border"))
    canvas.setFont(_BOLD, big)
    text = str(number)
    canvas.drawString(x, y, text)
    level = item.level or ""
    if style.scores and item.score is not None:
        level = f"{level} {item.score}" if level else f"score {item.score}"
    if level and kind == "puzzle":
        canvas.setFont(_FONT, big - 2)
        canvas.setFillColor(_GREY)
        canvas.drawString(x + canvas.stringWidth(text, _BOLD, big) + big / 2, y, level)


def _draw_page(
    canvas: Canvas,
    items: Sequence[BookletPuzzle],
    indices: list[int],
    frame: _Frame,
    kind: str,
    style: _Style,
    on_grid: Callable[[], object] | None,
) -> None:
    label = _LABEL[kind]
    largest = MAX_CELL if kind == "puzzle" else MAX_SOLUTION_CELL
    slot_w, slot_h = frame.slot
    for k, index in enumerate(indices):
        item = items[index]
        p = item.puzzle
        cell = frame.cell(p, label, largest)
        left, top = frame.slot_corner(k)
        width, height = p.cols * cell, p.rows * cell
        # Centred in its slot, the label band above the grid.
        x = left + (slot_w - width) / 2
        grid_top = top - (slot_h - label - height) / 2 - label
        _label(canvas, item, index + 1, kind, style, x, grid_top + label * 0.35)
        if kind == "puzzle":
            canvas.setFont(_FONT, 8.5)
            canvas.setFillColor(_GREY)
            canvas.drawRightString(x + width, grid_top + label * 0.35, f"{p.rows}×{p.cols}")
        draw_grid(canvas, p, item.solution if kind == "solution" else None, x, grid_top, cell)
        if on_grid is not None:
            on_grid()


def _span(indices: list[int]) -> str:
    first, last = indices[0] + 1, indices[-1] + 1
    return f"{first}" if first == last else f"{first}–{last}"


def write_booklet(
    items: Sequence[BookletPuzzle],
    out: str | Path | BinaryIO,
    *,
    per_page: int = 4,
    paper: str = "a4",
    title: str = "Nurikabe",
    author: str | None = None,
    solutions: bool = True,
    scores: bool = False,
    on_grid: Callable[[], object] | None = None,
) -> int:
    """Write a PDF booklet of `items` to `out` (a path or a binary file); the page count.

    The puzzles come first, `per_page` to a page, numbered from 1 in the order given,
    each labelled with its level (and score, with `scores`); then, unless `solutions`
    is false, the solutions, smaller and several to a page. `paper` is ``"a4"`` or
    ``"letter"``; `title` heads every page, and `author` (an author line such as
    ``"Puzzles by A. Setter"``) stands beneath it. `on_grid` is called after each grid
    drawn (for a progress bar). The output is vector graphics and text, no images.

    >>> import io
    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 1]])
    >>> item = BookletPuzzle.solved(p, level="easy")
    >>> out = io.BytesIO()
    >>> write_booklet([item], out, per_page=1), out.getvalue()[:5]
    (2, b'%PDF-')

    Raises:
        BookletError: no puzzles, or `per_page` or `paper` is not one of those offered.
    """
    if per_page not in PER_PAGE:
        raise BookletError(
            f"puzzles per page must be one of {', '.join(map(str, PER_PAGE))}, got {per_page}"
        )
    if paper.lower() not in PAPERS:
        raise BookletError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    if not items:
        raise BookletError("no puzzles to print")
    size = PAPERS[paper.lower()]
    style = _Style(title, author, scores, size)
    target = str(out) if isinstance(out, Path) else out
    canvas = Canvas(target, pagesize=size, invariant=True, pageCompression=1)
    canvas.setTitle(title)
    if author:
        canvas.setAuthor(author)
    canvas.setCreator("nurikabe")
    canvas.setSubject(f"{len(items)} Nurikabe puzzle{'' if len(items) == 1 else 's'}")

    body = _body(size)
    puzzles = [item.puzzle for item in items]
    label = _LABEL["puzzle"]
    frame = _best_arrangement(body, _ARRANGEMENTS[per_page], puzzles, label, MAX_CELL)
    pages = [("puzzle", page) for page in _paginate(puzzles, frame, label, MAX_CELL, MIN_CELL)]
    if solutions:
        pages += [("solution", page) for page in _paginate_solutions(puzzles, body)]
    previous = ""
    for kind, (indices, page_frame) in pages:
        section = ("Puzzles " if kind == "puzzle" else "Solutions ") + _span(indices)
        if kind != previous:
            key = f"{kind}s"
            canvas.bookmarkPage(key)
            canvas.addOutlineEntry(key.capitalize(), key, level=0)
            previous = kind
        _header(canvas, style, section)
        _draw_page(canvas, items, indices, page_frame, kind, style, on_grid)
        canvas.showPage()
    canvas.save()
    return len(pages)
