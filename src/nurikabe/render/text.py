"""Text pictures of a puzzle or a board, for terminals: `render_text`.

The picture is a box-drawn frame around the grid; cells are separated by one
space, and black cells run together into solid walls so the sea reads at a glance.
Every cell is as wide as the widest clue, so a 50x50 grid with two-digit clues is
about 150 characters wide. Pure functions: state in, string out.

Also owns `as_mask`, which the SVG renderer shares: it turns the forms callers use
for a set of cells (a mask, a `CellSet`, cell indices, violations) into a mask.

Imports only `puzzle`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, TextIO

from ..puzzle import UNKNOWN_CLUE, Board, Puzzle

__all__ = ["CellsLike", "as_mask", "render_for_terminal", "render_text"]

CellsLike = Any
"""A set of cells: an int mask, a `CellSet`, a `Violation`, or an iterable of cell
indices or of such objects."""


def as_mask(cells: CellsLike) -> int:
    """The mask of `cells`: None, an int mask, anything with an int ``.mask`` (a `CellSet`,
    a `Violation`), or an iterable whose items are cell indices or any of those.

    >>> as_mask(None), as_mask(0b101), as_mask([0, 3]), as_mask([])
    (0, 5, 9, 0)

    Raises:
        TypeError: `cells` is none of these. ValueError: a negative mask or cell index.
    """
    if cells is None:
        return 0
    if isinstance(cells, bool):
        raise TypeError("a set of cells cannot be a bool")
    if isinstance(cells, int):
        if cells < 0:
            raise ValueError(f"a mask cannot be negative: {cells}")
        return cells
    mask = getattr(cells, "mask", None)
    if isinstance(mask, int):
        return mask
    if not isinstance(cells, Iterable) or isinstance(cells, (str, bytes)):
        raise TypeError(f"not a set of cells: {cells!r}")
    m = 0
    for item in cells:
        if isinstance(item, int) and not isinstance(item, bool):
            if item < 0:
                raise ValueError(f"a cell index cannot be negative: {item}")
            m |= 1 << item
        else:
            m |= as_mask(item)
    return m


class _Style:
    def __init__(self, unicode: bool) -> None:
        if unicode:
            self.top = ("┌", "─", "┐")
            self.bottom = ("└", "─", "┘")
            self.side = "│"
            self.black = "█"
            self.white = "·"
        else:
            self.top = ("+", "-", "+")
            self.bottom = ("+", "-", "+")
            self.side = "|"
            self.black = "#"
            self.white = "."


def clue_label(value: int) -> str:
    """How a clue is written: its number, or ``?``."""
    return "?" if value == UNKNOWN_CLUE else str(value)


def render_text(
    puzzle: Puzzle,
    board: Board | None = None,
    *,
    marks: CellsLike = None,
    unicode: bool = True,
) -> str:
    """A picture of `puzzle`, and of `board` when given, for a terminal.

    Clues are right-aligned numbers (``?`` for an unknown clue), black cells are
    solid (``█``, or ``#`` in ASCII), white (dotted) cells ``·`` (``.``), unknown
    cells blank. Cells in `marks` are bracketed; a run of marked cells in a row
    shares one pair of brackets. With ``unicode=False`` only ASCII is used.
    The result has no trailing newline.

    >>> p = Puzzle.from_grid([[2, 0, 0], [0, 0, 1]])
    >>> board = Board.from_rows(p, ["2.#", "?#1"])
    >>> print(render_text(p, board, unicode=False))  # doctest: -NORMALIZE_WHITESPACE
    +-------+
    | 2 . # |
    |   # 1 |
    +-------+
    >>> print(render_text(p, marks=[1, 2], unicode=False))  # doctest: -NORMALIZE_WHITESPACE
    +-------+
    | 2[   ]|
    |     1 |
    +-------+

    Raises:
        TypeError, ValueError: `marks` is not a set of cells (see `as_mask`).
    """
    style = _Style(unicode)
    grid = puzzle.grid
    clues = puzzle.clues
    width = max([1, *(len(clue_label(v)) for v in clues.values())])
    black = board.black_mask & grid.full if board is not None else 0
    white = board.white_mask & grid.full & ~black if board is not None else 0
    marked = as_mask(marks) & grid.full

    def content(i: int) -> str:
        if i in clues:
            return clue_label(clues[i]).rjust(width)
        if black >> i & 1:
            return style.black * width
        if white >> i & 1:
            return style.white.rjust(width)
        return " " * width

    inner = grid.cols * (width + 1) + 1
    lines = [style.top[0] + style.top[1] * inner + style.top[2]]
    for r in range(grid.rows):
        parts = [style.side]
        base = r * grid.cols
        for c in range(grid.cols + 1):
            left = base + c - 1 if c > 0 else -1
            right = base + c if c < grid.cols else -1
            left_marked = left >= 0 and bool(marked >> left & 1)
            right_marked = right >= 0 and bool(marked >> right & 1)
            if right_marked and not left_marked:
                parts.append("[")
            elif left_marked and not right_marked:
                parts.append("]")
            elif left >= 0 and right >= 0 and black >> left & black >> right & 1:
                parts.append(style.black)
            else:
                parts.append(" ")
            if right >= 0:
                parts.append(content(right))
        parts.append(style.side)
        lines.append("".join(parts))
    lines.append(style.bottom[0] + style.bottom[1] * inner + style.bottom[2])
    return "\n".join(lines)


def render_for_terminal(
    puzzle: Puzzle,
    board: Board | None = None,
    *,
    marks: CellsLike = None,
    stream: TextIO | None = None,
) -> str:
    """`render_text` as `stream` (standard output by default) can show it: box-drawing
    characters when it writes UTF-8, ASCII otherwise. Cells in `marks` are bracketed.

    >>> import io
    >>> p = Puzzle.from_grid([[1, 0]])
    >>> print(render_for_terminal(p, stream=io.TextIOWrapper(io.BytesIO(), encoding="latin-1")))
    +-----+
    | 1   |
    +-----+
    """
    out = sys.stdout if stream is None else stream
    encoding = (getattr(out, "encoding", None) or "").lower().replace("-", "")
    return render_text(puzzle, board, marks=marks, unicode=encoding == "utf8")
