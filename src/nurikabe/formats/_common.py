"""Helpers every format module shares: bounded number parsing, size checks, line splitting.

They exist so that each reader enforces the same limits in the same words: a size is
checked against `MAX_SIDE` before anything is allocated, a number has a bounded count
of digits before `int()` sees it, and every error is a `FormatError` with a line.

Imports `grid`, `puzzle` and `errors`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import islice
from typing import Any

from ..errors import FormatError, InvalidPuzzleError
from ..grid import MAX_SIDE
from ..puzzle import UNKNOWN_CLUE, Puzzle

MAX_DIGITS = 9
"""Longest decimal number a reader converts (far above any clue a 256x256 grid can hold)."""

_INT_RE = re.compile(r"[+-]?\d+")


def shorten(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters for an error message, marked with ``...`` when cut."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quote(text: str, limit: int = 60) -> str:
    """`text` shortened and quoted with `repr`, for an error message."""
    return repr(shorten(text, limit))


def is_int(token: str) -> bool:
    """Whether `token` is a decimal integer (an optional sign, then digits)."""
    return _INT_RE.fullmatch(token) is not None


def parse_int(token: str, what: str, *, line: int | None = None, column: int | None = None) -> int:
    """The decimal integer `token`, refusing anything else and anything absurdly long.

    Raises:
        FormatError: `token` is not a decimal integer of at most `MAX_DIGITS` digits.
    """
    if not is_int(token) or not token.isascii():
        raise FormatError(f"{what} must be a number, got {quote(token)}", line=line, column=column)
    if len(token.lstrip("+-")) > MAX_DIGITS:
        raise FormatError(f"{what} is too large: {quote(token)}", line=line, column=column)
    return int(token)


def check_size(rows: int, cols: int, *, line: int | None = None) -> None:
    """Refuse a grid with no cells or a side above `MAX_SIDE`, before anything is allocated.

    Raises:
        FormatError: the size is impossible or unsupported.
    """
    if rows < 1 or cols < 1:
        raise FormatError(f"grid {rows}x{cols} has no cells", line=line)
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise FormatError(
            f"grid {rows}x{cols} is larger than the supported {MAX_SIDE}x{MAX_SIDE}", line=line
        )


def check_width(cells: int, *, line: int | None = None) -> None:
    """Refuse a first row of more cells than a grid may have (`cells` counted by `cell_tokens`).

    Raises:
        FormatError: the row has more than `MAX_SIDE` cells.
    """
    if cells > MAX_SIDE:
        raise FormatError(
            f"a row of more than {MAX_SIDE} cells (the largest grid supported is "
            f"{MAX_SIDE}x{MAX_SIDE})",
            line=line,
        )


def check_clue(
    value: int, area: int, *, line: int | None = None, column: int | None = None
) -> None:
    """Refuse a clue below 1 (other than ``?``) or above the grid's area, naming where it is.

    Raises:
        FormatError: the clue cannot be in a puzzle of `area` cells.
    """
    if value != UNKNOWN_CLUE and value < 1:
        raise FormatError(f"clue {value} is not a positive number", line=line, column=column)
    if value > area:
        raise FormatError(
            f"clue {value} is larger than the grid ({area} cells)", line=line, column=column
        )


def make_puzzle(rows: int, cols: int, clues: Mapping[int, int]) -> Puzzle:
    """A `Puzzle`, letting only `InvalidPuzzleError` out (the values are checked already)."""
    try:
        return Puzzle(rows, cols, clues)
    except InvalidPuzzleError:
        raise
    except (TypeError, ValueError) as exc:  # pragma: no cover - defensive
        raise InvalidPuzzleError(str(exc)) from None


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each non-blank line of `text`, stripped, with its 1-based line number."""
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped:
            yield number, stripped


def cell_tokens(line: str, pattern: re.Pattern[str]) -> list[tuple[str, int]]:
    """The matches of `pattern` in `line` with their 1-based columns, at most ``MAX_SIDE + 1``.

    A row with more cells than any grid may have is refused anyway, so reading
    stops there rather than splitting megabytes of junk.
    """
    return [(m.group(), m.start() + 1) for m in islice(pattern.finditer(line), MAX_SIDE + 1)]


def chars(line: str) -> list[tuple[str, int]]:
    """The characters of `line` with their 1-based columns, at most ``MAX_SIDE + 1``."""
    return [(ch, k + 1) for k, ch in enumerate(line[: MAX_SIDE + 1])]


def count(tokens: list[tuple[str, int]]) -> str:
    """How many cells `tokens` holds, for a message (``more than 256`` when cut short)."""
    return str(len(tokens)) if len(tokens) <= MAX_SIDE else f"more than {MAX_SIDE}"


_MARK_TOKEN_RE = re.compile(r"\S+")


def read_marked_rows(
    body: list[tuple[int, str]], cols: int, area: int, *, unknown: str
) -> tuple[dict[int, int], int, int]:
    """Read rows of space-separated cell tokens as pzprv3 and Pencilbox write them.

    A token is a clue number, `unknown` for a ``?`` clue, ``#`` black, ``+`` a dot or
    ``.`` empty. Returns the clues and the black and white masks (clue cells white).

    Raises:
        FormatError: a row of the wrong width or an unknown token, with its line and column.
    """
    clues: dict[int, int] = {}
    black = white = 0
    for r, (number, line) in enumerate(body):
        tokens = cell_tokens(line, _MARK_TOKEN_RE)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells, got {count(tokens)}: {quote(line)}", line=number
            )
        for c, (token, column) in enumerate(tokens):
            bit = 1 << (r * cols + c)
            if token == "#":
                black |= bit
            elif token == "+":
                white |= bit
            elif token == ".":
                continue
            else:
                if token == unknown:
                    value = UNKNOWN_CLUE
                elif token.isascii() and token.isdigit():
                    value = parse_int(token, "a clue", line=number, column=column)
                else:
                    raise FormatError(
                        f"unknown cell {quote(token, 20)} "
                        f"(expected a number, {unknown}, #, + or .)",
                        line=number,
                        column=column,
                    )
                check_clue(value, area, line=number, column=column)
                clues[r * cols + c] = value
                white |= bit
    return clues, black, white


def write_marked_rows(document: Any, *, unknown: str) -> list[str]:
    """The rows of a pzprv3 or Pencilbox file, each token followed by one space.

    Shows the document's board if any, else its solution, else the empty board; a clue
    cell shows its clue (`unknown` for ``?``).
    """
    p = document.puzzle
    board = document.board or document.solution or p.empty_board()
    rows = []
    for r in range(p.rows):
        tokens = []
        for c in range(p.cols):
            i = r * p.cols + c
            value = p.clues.get(i)
            if value is not None:
                tokens.append(unknown if value == UNKNOWN_CLUE else str(value))
            elif board.black_mask >> i & 1:
                tokens.append("#")
            elif board.white_mask >> i & 1:
                tokens.append("+")
            else:
                tokens.append(".")
        rows.append("".join(t + " " for t in tokens))
    return rows
