"""Board and solution grids: one row per line of ``#`` (black), ``.`` (white), ``?`` (unknown).

Reading accepts ``x`` for black, ``+`` for white and ``_`` for unknown too, and clue
numbers in place of ``.``: one character per cell, or whitespace-separated tokens
(which lets a clue have several digits). Read alone, such a grid gives a puzzle
whose clues are its numbers and a board (a solution when nothing is unknown);
`parse_board` reads one for a given puzzle, which is what ``nurikabe check`` needs.

Writing is canonical: rows of ``#``, ``.`` and ``?``, clue cells written ``.``.

>>> doc = load("2 # .\\n. # 1")
>>> doc.puzzle.clues, doc.solution.to_rows()
({0: 2, 5: 1}, ['.#.', '.#.'])
>>> print(dump(doc), end="")
.#.
.#.

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..puzzle import Board, Puzzle
from ._common import (
    cell_tokens,
    chars,
    check_clue,
    check_size,
    check_width,
    count,
    make_puzzle,
    numbered_lines,
    parse_int,
    quote,
)
from .document import Document

NAME = "solution"
ALIASES = ("board", "grid")

_LINE_RE = re.compile(r"[#.xX+?_0-9\s]+")
_TOKEN_RE = re.compile(r"\S+")
_SPACE_RE = re.compile(r"\s")
_RUN_RE = re.compile(r"\d+|\S")
_BLACK = frozenset("#xX")
_WHITE = frozenset(".+")
_UNKNOWN = frozenset("?_")


_HEADER_RE = re.compile(r"\d+\s+\d+")


def looks_like(text: str) -> bool:
    """Whether every line is made of cell symbols and numbers, with some black or dotted cell.

    A first line of two numbers followed by rows is a text-format header, not a grid row:
    such text is left to the text reader, whose errors name the bad cell.
    """
    lines = [line for _, line in numbered_lines(text)]
    if len(lines) > 1 and _HEADER_RE.fullmatch(lines[0].strip()):
        return False
    return (
        bool(lines)
        and all(_LINE_RE.fullmatch(line) for line in lines)
        and any(ch in line for line in lines for ch in "#xX+")
    )


def _tokens(line: str, cols: int | None) -> list[tuple[str, int]]:
    """A row's cells with their columns: split on spaces if it has any, else one per character.

    Knowing the width, a space-less row of another length is read with each run of
    digits as one cell (``11#..``).
    """
    if _SPACE_RE.search(line):
        return cell_tokens(line, _TOKEN_RE)
    if cols is not None and len(line) != cols:
        return cell_tokens(line, _RUN_RE)
    return chars(line)


def _cell(token: str, line: int, column: int) -> str | int:
    """``#``, ``.``, ``?`` or a clue number."""
    if token in _BLACK:
        return "#"
    if token in _WHITE:
        return "."
    if token in _UNKNOWN:
        return "?"
    if token.isascii() and token.isdigit():
        return parse_int(token, "a clue", line=line, column=column)
    raise FormatError(
        f"unknown cell {quote(token, 20)} (expected #, ., ? or a number)", line=line, column=column
    )


def load(text: str) -> Document:
    """Read a grid alone: its numbers are the clues, its shading the board or solution.

    Raises:
        FormatError: no rows, ragged rows or an unknown symbol (with its line).
    """
    lines = list(numbered_lines(text))
    if not lines:
        raise FormatError("input is empty")
    rows = len(lines)
    cols = len(_tokens(lines[0][1], None))
    check_width(cols, line=lines[0][0])
    check_size(rows, cols, line=lines[0][0])
    area = rows * cols
    clues: dict[int, int] = {}
    black = white = 0
    for r, (number, line) in enumerate(lines):
        tokens = _tokens(line, cols)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells, got {count(tokens)}: {quote(line)}", line=number
            )
        for c, (token, column) in enumerate(tokens):
            i = r * cols + c
            cell = _cell(token, number, column)
            if isinstance(cell, int):
                check_clue(cell, area, line=number, column=column)
                clues[i] = cell
                white |= 1 << i
            elif cell == "#":
                black |= 1 << i
            elif cell == ".":
                white |= 1 << i
    puzzle = make_puzzle(rows, cols, clues)
    board = Board(puzzle, black, white)
    if board.is_complete():
        return Document(puzzle, solution=board, format=NAME)
    return Document(puzzle, board=board, format=NAME)


def parse_board(text: str, puzzle: Puzzle) -> Board:
    """Read a grid of `puzzle`'s size as a board of it.

    Numbers must stand on `puzzle`'s clues (with the same value); a clue cell written
    as anything but black is white.

    >>> p = Puzzle.from_grid([[1, 0], [0, 0]])
    >>> parse_board("1#\\n#?", p).to_rows()
    ['.#', '#?']

    Raises:
        FormatError: the grid is not the puzzle's size, or has a bad cell (with its line).
    """
    lines = list(numbered_lines(text))
    rows, cols = puzzle.rows, puzzle.cols
    if len(lines) != rows:
        where = lines[rows][0] if len(lines) > rows else lines[-1][0] if lines else None
        raise FormatError(
            f"expected {rows} rows (the puzzle is {rows}x{cols}), got {len(lines)}", line=where
        )
    black = white = 0
    for r, (number, line) in enumerate(lines):
        tokens = _tokens(line, cols)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells (the puzzle is {rows}x{cols}), got {count(tokens)}: "
                f"{quote(line)}",
                line=number,
            )
        for c, (token, column) in enumerate(tokens):
            i = r * cols + c
            cell = _cell(token, number, column)
            clue = puzzle.clues.get(i)
            if isinstance(cell, int):
                if clue is None:
                    raise FormatError(
                        f"a clue {cell} where the puzzle has none", line=number, column=column
                    )
                if clue != cell and clue != -1:
                    raise FormatError(
                        f"a clue {cell} where the puzzle has {clue}", line=number, column=column
                    )
                white |= 1 << i
            elif cell == "#":
                black |= 1 << i
            elif cell == "." or clue is not None:
                white |= 1 << i
    return Board(puzzle, black, white)


def dump(document: Document) -> str:
    """Rows of ``#``, ``.`` and ``?``: the board if any, else the solution, else the empty board."""
    board = document.board or document.solution or document.puzzle.empty_board()
    return "\n".join(board.to_rows()) + "\n"
