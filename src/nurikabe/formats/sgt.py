"""``WxH:`` game IDs: the Simon Tatham (Range-style) form and ohmec/puzzles's form.

* SGT style (formats.md, 3.3), cells row-major: ``a``..``z`` are runs of 1..26
  empty cells, a decimal is a clue, ``_`` separates two clues that would otherwise
  touch. ``7x7:2a3j4d1g4j2a2c5e``.
* ohmec style: rows separated by ``.``; ``a``..``z`` runs, ``1``-``9`` clues and
  ``A``-``Z`` clues 10-35, one character each; a saved state also has ``*`` (black)
  and ``_`` (white). ``7x7:2a3d.f4.d1b.e4a.g.b2a2b.a5e``.

A description with a ``.``, an upper-case letter or a ``*`` is read as ohmec's.
Either must fill exactly W x H cells. Writing gives the SGT form; it has no ``?``
clue, so a puzzle with one cannot be written.

>>> load("7x7:2a3j4d1g4j2a2c5e").puzzle == load("7x7:2a3d.f4.d1b.e4a.g.b2a2b.a5e").puzzle
True
>>> dump(load("3x1:1_2a"))
'3x1:1_2a'

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re

from ..errors import FormatError
from ..grid import MAX_SIDE
from ..puzzle import UNKNOWN_CLUE, Board
from ._common import check_clue, check_size, make_puzzle, quote
from .document import Document

NAME = "sgt"
ALIASES = ("ohmec", "tatham")

_HEAD_RE = re.compile(r"\s*(\d+)\s*[xX]\s*(\d+)\s*:")
_MAX_RUN = 26


def looks_like(text: str) -> bool:
    """Whether `text` is one line starting ``WxH:``."""
    s = text.strip()
    return "\n" not in s and "\r" not in s and _HEAD_RE.match(s) is not None


def _size(text: str) -> tuple[int, int, str, int]:
    s = text.strip()
    m = _HEAD_RE.match(s)
    if m is None:
        raise FormatError(f"expected a game ID like 7x7:..., got {quote(s)}")
    width, height = (int(g) if len(g) <= 9 else 10**9 for g in m.groups())
    check_size(height, width)
    return height, width, s[m.end() :].strip(), m.end() + 1


def load(text: str) -> Document:
    """Read a ``WxH:`` game ID (SGT or ohmec style).

    Raises:
        FormatError: a bad size, an unknown character, or too much or too little data.
    """
    rows, cols, desc, column = _size(text)
    if "." in desc or "*" in desc or any("A" <= ch <= "Z" for ch in desc):
        return _load_ohmec(rows, cols, desc, column)
    area = rows * cols
    cells: dict[int, int] = {}
    c = i = 0
    previous_clue = False
    while i < len(desc):
        ch = desc[i]
        if c >= area:
            raise FormatError(
                f"too much data: {quote(desc[i:])} after the last cell", column=column + i
            )
        if "a" <= ch <= "z":
            run = ord(ch) - ord("a") + 1
            if c + run > area:
                raise FormatError(
                    f"too much data: the run {ch!r} goes past the last cell", column=column + i
                )
            c += run
            i += 1
            previous_clue = False
        elif "0" <= ch <= "9":
            j = i
            while j < len(desc) and "0" <= desc[j] <= "9" and j - i < 10:
                j += 1
            value = int(desc[i:j])
            check_clue(value, area, column=column + i)
            cells[c] = value
            c += 1
            i = j
            previous_clue = True
        elif ch == "_" and previous_clue:
            i += 1
            previous_clue = False
        else:
            raise FormatError(f"unexpected character {ch!r} in the game ID", column=column + i)
    if c < area:
        raise FormatError(f"not enough data: {c} of the {area} cells", column=column + len(desc))
    return Document(make_puzzle(rows, cols, cells), format=NAME)


def _load_ohmec(rows: int, cols: int, desc: str, column: int) -> Document:
    parts = desc.split(".", MAX_SIDE)
    if len(parts) != rows:
        raise FormatError(f"expected {rows} rows separated by '.', got {len(parts)}")
    area = rows * cols
    cells: dict[int, int] = {}
    black = white = 0
    shaded = False
    for r, part in enumerate(parts):
        c = 0
        for k, ch in enumerate(part):
            i = r * cols + c
            if c >= cols:
                raise FormatError(
                    f"row {r + 1}: more than {cols} cells: {quote(part)}", column=column + k
                )
            if "a" <= ch <= "z":
                c += ord(ch) - ord("a") + 1
                if c > cols:
                    raise FormatError(
                        f"row {r + 1}: the run {ch!r} goes past the end of the row",
                        column=column + k,
                    )
                continue
            if "1" <= ch <= "9" or "A" <= ch <= "Z":
                value = int(ch, 36)
                check_clue(value, area, column=column + k)
                cells[i] = value
                white |= 1 << i
            elif ch == "*":
                black |= 1 << i
                shaded = True
            elif ch == "_":
                white |= 1 << i
                shaded = True
            else:
                raise FormatError(f"row {r + 1}: unexpected character {ch!r}", column=column + k)
            c += 1
        column += len(part) + 1
        if c != cols:
            raise FormatError(f"row {r + 1}: expected {cols} cells, got {c}: {quote(part)}")
    puzzle = make_puzzle(rows, cols, cells)
    if not shaded:
        return Document(puzzle, format=NAME)
    board = Board(puzzle, black, white)
    if board.is_complete():
        return Document(puzzle, solution=board, format=NAME)
    return Document(puzzle, board=board, format=NAME)


def dump(document: Document) -> str:
    """The SGT-style game ID of the puzzle.

    Raises:
        FormatError: the puzzle has a ``?`` clue, which this form cannot hold.
    """
    p = document.puzzle
    if UNKNOWN_CLUE in p.clues.values():
        raise FormatError("the sgt format cannot hold a '?' clue")
    out = []
    previous = -1
    for i, value in p.clues.items():
        run = i - previous - 1
        if run:
            full, rest = divmod(run, _MAX_RUN)
            out.append("z" * full + (chr(ord("a") + rest - 1) if rest else ""))
        elif previous >= 0:
            out.append("_")
        out.append(str(value))
        previous = i
    run = p.area - previous - 1
    if run:
        full, rest = divmod(run, _MAX_RUN)
        out.append("z" * full + (chr(ord("a") + rest - 1) if rest else ""))
    return f"{p.cols}x{p.rows}:" + "".join(out)
