"""The thesis text format (Groenen, Leiden 2008) and the plain matrix it grew from.

Canonical form: an ``R C`` line, then R rows of C integers separated by one space,
``0`` for an empty cell and ``-1`` for a ``?`` clue::

    2 3
    1 0 0
    0 0 -1

Reading is lenient: ``.`` or ``-`` also mean empty and ``?`` a ``?`` clue; the
header may be left out when every row has the same number of cells; rows written
without spaces (``1..2``) hold one cell per character. A first line of two numbers
is taken for the header, unless every line has two cells and the number of rows
after it is not the first number (then it is a two-column matrix).

>>> print(dump(load("1 . ?\\n. . 3")), end="")
2 3
1 0 -1
0 0 3

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..puzzle import UNKNOWN_CLUE
from ._common import (
    cell_tokens,
    chars,
    check_clue,
    check_size,
    check_width,
    count,
    is_int,
    make_puzzle,
    numbered_lines,
    parse_int,
    quote,
)
from .document import Document

NAME = "text"
ALIASES = ("thesis", "groenen", "matrix", "txt")

_LINE_RE = re.compile(r"[0-9.?\-\s]+")
_TOKEN_RE = re.compile(r"\S+")
_SPACE_RE = re.compile(r"\s")


def looks_like(text: str) -> bool:
    """Whether every line holds only numbers, ``.``, ``-``, ``?`` and spaces."""
    return all(_LINE_RE.fullmatch(line) for _, line in numbered_lines(text))


def _tokens(line: str, cols: int | None) -> list[tuple[str, int]]:
    """The cell tokens of one row with their 1-based columns.

    A row with spaces is split on them; a row without holds one cell per character,
    unless it is a single number and the grid has one column (or the width is unknown
    and the row is a number).
    """
    if _SPACE_RE.search(line):
        return cell_tokens(line, _TOKEN_RE)
    if (cols == 1 or (cols is None and len(line) == 1)) and is_int(line):
        return [(line, 1)]
    return chars(line)


def _cell(token: str, area: int, line: int, column: int) -> int:
    if token in (".", "-"):
        return 0
    if token == "?":
        return UNKNOWN_CLUE
    value = parse_int(token, "a cell", line=line, column=column)
    if value in (0, UNKNOWN_CLUE):
        return value
    check_clue(value, area, line=line, column=column)
    return value


def _header(lines: list[tuple[int, str]]) -> tuple[int, int] | None:
    """The ``R C`` header, if the first line is one (see the module docstring)."""
    first = lines[0][1].split()
    if len(first) != 2 or not all(t.isascii() and t.isdigit() for t in first):
        return None
    rows, cols = (int(t) if len(t) <= 9 else 10**9 for t in first)
    if len(lines) == 1:
        return rows, cols  # a header announcing rows that are missing (or a 0x0 grid)
    if rows < 1 or cols < 1:
        return None
    if len(lines) - 1 == rows:
        return rows, cols
    widths = {len(line.split()) for _, line in lines}
    if widths == {2}:
        return None  # a plain matrix of two columns
    return rows, cols


def load(text: str) -> Document:
    """Read a thesis-format puzzle or a plain matrix.

    Raises:
        FormatError: no rows, ragged rows, a bad token or a bad size (with its line).
    """
    lines = list(numbered_lines(text))
    if not lines:
        raise FormatError("input is empty")
    header = _header(lines)
    if header is not None:
        rows, cols = header
        check_size(rows, cols, line=lines[0][0])
        body = lines[1:]
        if len(body) > rows:
            number, line = body[rows]
            raise FormatError(
                f"more than the {rows} rows the header gives: {quote(line)}", line=number
            )
    else:
        body = lines
        rows = len(body)
        cols = len(_tokens(body[0][1], None))
        check_width(cols, line=body[0][0])
        check_size(rows, cols, line=body[0][0])
    area = rows * cols
    clues: dict[int, int] = {}
    for r, (number, line) in enumerate(body):
        tokens = _tokens(line, cols)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells, got {count(tokens)}: {quote(line)}", line=number
            )
        for c, (token, column) in enumerate(tokens):
            value = _cell(token, area, number, column)
            if value:
                clues[r * cols + c] = value
    if len(body) < rows:
        raise FormatError(f"expected {rows} rows, got {len(body)}", line=lines[-1][0])
    return Document(make_puzzle(rows, cols, clues), format=NAME)


def dump(document: Document) -> str:
    """The canonical thesis text: ``R C``, then rows of ints (0 empty, -1 ``?``)."""
    p = document.puzzle
    out = [f"{p.rows} {p.cols}"]
    clues = p.clues
    for r in range(p.rows):
        base = r * p.cols
        out.append(" ".join(str(clues.get(base + c, 0)) for c in range(p.cols)))
    return "\n".join(out) + "\n"
