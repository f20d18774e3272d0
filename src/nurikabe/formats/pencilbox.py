"""Pencilbox (Kanpen) text files: a puzzle and a board, as pzprjs reads and writes them.

Layout (formats.md, 2.2)::

    <rows>
    <cols>
    <one line per row: a number (clue), ? (a ? clue), # (black), + (dot) or . (empty)>

Writing is canonical: each token followed by one space, as pzprjs writes it, with
the document's board (else its solution, else the empty board).

>>> doc = load("2\\n3\\n1 # +\\n. ? #")
>>> doc.puzzle.clues, doc.board.to_rows()
({0: 1, 4: -1}, ['.#.', '?.#'])

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..puzzle import Board
from ._common import (
    check_size,
    make_puzzle,
    numbered_lines,
    parse_int,
    read_marked_rows,
    write_marked_rows,
)
from .document import Document

NAME = "pencilbox"
ALIASES = ("kanpen",)

_CELL_RE = re.compile(r"[?#+.]|\d+")


def looks_like(text: str) -> bool:
    """Whether two lines of one number (R, C) come first, then R rows, the first of C cells.

    A ``0`` token rules it out (in the text format it means empty; here it would be a
    clue of 0), which keeps one-column matrices in the text format.
    """
    lines = [line for _, line in numbered_lines(text[:100_000])]
    if len(lines) < 3 or not all(s.isascii() and s.isdigit() and len(s) < 4 for s in lines[:2]):
        return False
    rows, cols = int(lines[0]), int(lines[1])
    tokens = lines[2].split()
    return (
        len(lines) - 2 >= rows
        and len(tokens) == cols
        and all(_CELL_RE.fullmatch(t) and t.lstrip("0") != "" for t in tokens)
    )


def load(text: str) -> Document:
    """Read a Pencilbox text file: the puzzle and the board.

    Raises:
        FormatError: a bad size, a missing row or a bad token (with its line).
    """
    lines = list(numbered_lines(text))
    if len(lines) < 2:
        raise FormatError("expected a row count and a column count", line=1)
    rows = parse_int(lines[0][1], "the row count", line=lines[0][0])
    cols = parse_int(lines[1][1], "the column count", line=lines[1][0])
    check_size(rows, cols, line=lines[1][0])
    body = lines[2:]
    if len(body) < rows:
        raise FormatError(f"expected {rows} rows, got {len(body)}", line=lines[-1][0])
    clues, black, white = read_marked_rows(body[:rows], cols, rows * cols, unknown="?")
    puzzle = make_puzzle(rows, cols, clues)
    return Document(puzzle, board=Board(puzzle, black, white), format=NAME)


def dump(document: Document) -> str:
    """Rows, cols, then the cells: the board if any, else the solution, else the empty board."""
    p = document.puzzle
    out = [str(p.rows), str(p.cols)]
    out += write_marked_rows(document, unknown="?")
    return "\n".join(out) + "\n"
