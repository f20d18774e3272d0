"""The J essay's matrices: ``0`` white, ``_1`` black, ``_2`` free, ``k > 0`` a clue.

J writes a negative number with ``_``. A puzzle is a matrix of ``0`` (empty) and
clues; a board has ``_1`` black, ``0`` white and ``_2`` free (not yet known) cells
besides its clues. The essay defines each noun as a block: a line
``n1=: ".;._2 (0 : 0)`` (or ``noun define`` for ``(0 : 0)``), then the rows, then a
line ``)``. Reading takes the first such block, or else the whole text as one bare
matrix (which must hold a ``_1`` or ``_2`` to be told apart from the plain matrix
of the text format); ``NB.`` comments and J lines outside the block are skipped.
Read alone, a matrix with a ``_1`` or ``_2`` gives a puzzle (its clues) and a board,
a solution when no cell is free.

Writing is canonical: the block, named by the document's ``id`` when it is a J
name (else ``puzzle``), numbers right-aligned; the board if the document has one,
else its solution, else the puzzle. A ``?`` clue has no J form and is refused.

>>> doc = load('n1=: ".;._2 (0 : 0)\\n0 1\\n2 0\\n)')
>>> doc.puzzle.clues, doc.meta["id"], doc.board is None
({1: 1, 2: 2}, 'n1', True)
>>> doc = load("_1  1\\n 2  0")
>>> doc.solution.to_rows()
['#.', '..']
>>> print(dump(doc), end="")
puzzle=: ".;._2 (0 : 0)
_1  1
 2  0
)

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..puzzle import UNKNOWN_CLUE, Board
from ._common import (
    cell_tokens,
    check_clue,
    check_size,
    check_width,
    count,
    make_puzzle,
    parse_int,
    quote,
)
from .document import Document

NAME = "j"
ALIASES = ("jmatrix", "jsoftware")

WHITE, BLACK, FREE = 0, -1, -2
_TOKEN_OF = {BLACK: "_1", FREE: "_2"}

_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_BLOCK_RE = re.compile(
    r"\s*([A-Za-z][A-Za-z0-9_]*)\s*=[:.]\s*\"\.\s*;\.\s*_2\s*"
    r"(?:\(\s*0\s*:\s*0\s*\)|noun\s+define)\s*"
)
_END_RE = re.compile(r"\s*\)\s*")
_ROW_RE = re.compile(r"\s*_?\d+(?:\s+_?\d+)*\s*")
_TOKEN_RE = re.compile(r"\S+")
_COMMENT = "NB."


def _lines(text: str) -> list[tuple[int, str]]:
    """Each line with its 1-based number, ``NB.`` comments cut off and the end stripped."""
    return [
        (number, raw.split(_COMMENT, 1)[0].rstrip())
        for number, raw in enumerate(text.splitlines(), start=1)
    ]


def _block(lines: list[tuple[int, str]]) -> tuple[str | None, list[tuple[int, str]]]:
    """The first block's noun name and its non-blank rows, or no name and every non-blank line.

    Raises:
        FormatError: a block without its closing ``)`` line.
    """
    for k, (number, line) in enumerate(lines):
        head = _BLOCK_RE.fullmatch(line)
        if head is None:
            continue
        rows: list[tuple[int, str]] = []
        for row_number, row in lines[k + 1 :]:
            if _END_RE.fullmatch(row):
                return head.group(1), rows
            if row.strip():
                rows.append((row_number, row.strip()))
        raise FormatError(f"the block {head.group(1)} has no closing ')' line", line=number)
    return None, [(number, line.strip()) for number, line in lines if line.strip()]


def looks_like(text: str) -> bool:
    """Whether `text` holds a J noun block, or is a bare matrix of numbers with a ``_``."""
    lines = _lines(text)
    if any(_BLOCK_RE.fullmatch(line) for _, line in lines):
        return True
    rows = [line for _, line in lines if line.strip()]
    return (
        bool(rows)
        and all(_ROW_RE.fullmatch(line) for line in rows)
        and any("_" in line for line in rows)
    )


def _cell(token: str, area: int, line: int, column: int) -> int:
    if token in ("_1", "_2"):
        return -int(token[1:])
    if not (token.isascii() and token.isdigit()):
        raise FormatError(
            f"unknown cell {quote(token, 20)} (expected _1 black, 0 white, _2 free or a clue)",
            line=line,
            column=column,
        )
    value = parse_int(token, "a cell", line=line, column=column)
    if value:
        check_clue(value, area, line=line, column=column)
    return value


def load(text: str) -> Document:
    """Read a J puzzle or board matrix (see the module docstring).

    Raises:
        FormatError: no rows, an unclosed block, ragged rows or a bad cell (with its line).
    """
    name, body = _block(_lines(text))
    if not body:
        raise FormatError(f"the block {name} has no rows" if name else "input is empty")
    first_number, first = body[0]
    cols = len(cell_tokens(first, _TOKEN_RE))
    check_width(cols, line=first_number)
    rows = len(body)
    check_size(rows, cols, line=first_number)
    area = rows * cols
    clues: dict[int, int] = {}
    black = white = free = 0
    for r, (number, line) in enumerate(body):
        tokens = cell_tokens(line, _TOKEN_RE)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells, got {count(tokens)}: {quote(line)}", line=number
            )
        for c, (token, column) in enumerate(tokens):
            value = _cell(token, area, number, column)
            bit = 1 << (r * cols + c)
            if value > 0:
                clues[r * cols + c] = value
            elif value == BLACK:
                black |= bit
            elif value == FREE:
                free |= bit
            else:
                white |= bit
    puzzle = make_puzzle(rows, cols, clues)
    meta = {"id": name} if name else {}
    if not black and not free:
        return Document(puzzle, meta=meta, format=NAME)  # 0 is an empty cell, not a white one
    board = Board(puzzle, black, white | puzzle.clue_mask)
    if free:
        return Document(puzzle, board=board, meta=meta, format=NAME)
    return Document(puzzle, solution=board, meta=meta, format=NAME)


def dump(document: Document) -> str:
    """The canonical J block of the document's board, solution or puzzle.

    Raises:
        FormatError: the puzzle has a ``?`` clue, which J matrices cannot hold.
    """
    p = document.puzzle
    if UNKNOWN_CLUE in p.clues.values():
        raise FormatError("the J matrix form has no '?' clue")
    board = document.board or document.solution
    values = []
    for i in range(p.rows * p.cols):
        if i in p.clues:
            values.append(p.clues[i])
        elif board is None or board.white_mask >> i & 1:
            values.append(WHITE)
        elif board.black_mask >> i & 1:
            values.append(BLACK)
        else:
            values.append(FREE)
    tokens = [_TOKEN_OF.get(v, str(v)) for v in values]
    width = max(len(t) for t in tokens)
    ident = str(document.meta.get("id", ""))
    head = ident if _NAME_RE.fullmatch(ident) and "__" not in ident else "puzzle"
    rows = [
        " ".join(t.rjust(width) for t in tokens[r * p.cols : (r + 1) * p.cols])
        for r in range(p.rows)
    ]
    return "\n".join([f'{head}=: ".;._2 (0 : 0)', *rows, ")"]) + "\n"
