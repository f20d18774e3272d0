"""Reading and writing puzzles: one module per format, plus `read`, `load`, `write`, `detect`.

Reading is lenient (extra whitespace, either case, the variants seen in the wild)
and detects the format by itself; writing is canonical. Every reader raises
`FormatError` or `InvalidPuzzleError` and nothing else, whatever the input.

Each format module defines ``NAME``, ``looks_like(text) -> bool``,
``load(text) -> Document`` and ``dump(document) -> str``, and may define
``ALIASES``. ``_modules()`` lists them in detection order, the most specific
signature first: ``url`` (puzz.link and kin), ``pzprv3``, ``janko``, ``jsonl``,
``sgt`` (``WxH:`` game IDs), ``pencilbox``, ``j`` (the J essay's ``_1``/``0``/``_2``
matrices), ``text`` (thesis format and plain matrix), ``solution`` (``#``/``.``
grids); each is imported when detection or a name first reaches it. Shared parsing
limits live in ``_common``; `Document`, what they read and write, in ``document``
(which the format modules import, never this package). `read_board` reads a board
for a given puzzle (what ``nurikabe check PUZZLE BOARD`` needs).

>>> detect("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"), detect("2 2\\n1 0\\n0 0")
('url', 'text')

Imports `puzzle`, `grid` and `errors`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

from ..errors import FormatError
from ..puzzle import Board, Puzzle
from .document import Document

__all__ = [
    "Document",
    "detect",
    "format_names",
    "load",
    "read",
    "read_board",
    "write",
]

MAX_INPUT_CHARS = 4_000_000
"""Longest text a reader accepts (a 256x256 grid with padding fits many times over)."""


_MODULES = [
    "puzzlink",
    "pzprv3",
    "janko",
    "jsonl",
    "sgt",
    "pencilbox",
    "jmatrix",
    "text",
    "solution",
]
"""The format modules in detection order: the most specific signatures first."""


def _modules() -> Iterator[ModuleType]:
    """The format modules in detection order, each imported only when reached.

    So detecting a URL imports the URL reader alone.
    """
    for name in _MODULES:
        yield importlib.import_module(f".{name}", __name__)


def format_names() -> list[str]:
    """Names of every format, for `write` and for ``--to`` options."""
    return [m.NAME for m in _modules()]


def _module(name: str) -> ModuleType:
    name = name.strip().lower()
    for m in _modules():
        if name == m.NAME or name in getattr(m, "ALIASES", ()):
            return m
    raise FormatError(f"unknown format {name!r} (known: {', '.join(format_names())})")


def detect(text: str) -> str:
    """The name of the format `text` looks like.

    Raises:
        FormatError: it looks like none of them.
    """
    text = _checked(text)
    for m in _modules():
        if m.looks_like(text):
            return str(m.NAME)
    raise FormatError("not a puzzle in any known format")


def _guess(text: str) -> ModuleType:
    """The module to read `text` with: the detected format, else the one it nearly is.

    Text that matches no signature but starts with a line of numbers is read as the
    text format, so that the error names the line and the cell at fault.
    """
    try:
        return _module(detect(text))
    except FormatError:
        from . import text as text_format
        from ._common import is_int

        first = text.strip().splitlines()[0]
        if all(is_int(token) for token in first.split()):
            return text_format
        raise


def _checked(text: str) -> str:
    """`text` without a byte-order mark, once it is known to be text of a sane length."""
    if not isinstance(text, str):
        raise FormatError("input is not text")
    if len(text) > MAX_INPUT_CHARS:
        raise FormatError(f"input is too long ({len(text)} characters)")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise FormatError("input is empty")
    if "\x00" in text:
        raise FormatError("input is binary, not text")
    return text


def load(text: str, *, format: str | None = None, source: str | None = None) -> Document:
    """Read everything `text` holds, detecting its format unless `format` is given.

    Raises:
        FormatError: the text does not parse (with `source` named in the message).
        InvalidPuzzleError: it parses but is not a puzzle.
    """
    try:
        text = _checked(text)
        module = _module(format) if format else _guess(text)
        document: Document = module.load(text)
    except FormatError as exc:
        raise (exc.located(source) if source else exc) from None
    document.format = module.NAME
    return document


def read_board(text: str, puzzle: Puzzle, *, source: str | None = None) -> Board:
    """Read a board (a player's shading or a solution) of `puzzle`.

    `text` is a grid of ``#`` / ``.`` / ``?`` rows (one character per cell or
    whitespace-separated tokens; clue numbers may stand for ``.``), a pzprv3 or
    Pencilbox file (its board), a janko block (its ``[solution]``), a JSON record
    (its ``solution``), a J essay matrix or an ohmec ``WxH:`` state. The size must be
    the puzzle's, and so must the clues of a file that holds a puzzle; a clue cell not
    shaded is white.

    >>> p = read("2 3\\n1 0 0\\n0 0 2")
    >>> read_board("1##\\n?#2", p).to_rows()
    ['.##', '?#.']

    Raises:
        FormatError: the text is no board, or not one of the puzzle's size or clues
            (with `source` named in the message).
    """
    from . import janko, jmatrix, jsonl, pencilbox, pzprv3, sgt, solution

    try:
        text = _checked(text)
        for module in (pzprv3, janko, jsonl, sgt, pencilbox, jmatrix):
            if module.looks_like(text):
                document = module.load(text)
                break
        else:
            return solution.parse_board(text, puzzle)
        board = document.board if document.board is not None else document.solution
        if board is None:
            raise FormatError(f"the {module.NAME} input holds no board or solution")
        p = document.puzzle
        if (p.rows, p.cols) != (puzzle.rows, puzzle.cols):
            raise FormatError(
                f"the board is {p.rows}x{p.cols} but the puzzle is {puzzle.rows}x{puzzle.cols}"
            )
        if p.clues != puzzle.clues:
            first = min(set(p.clues.items()) ^ set(puzzle.clues.items()))[0]
            where = f"r{first // p.cols + 1}c{first % p.cols + 1}"
            raise FormatError(f"the board's clues are not the puzzle's (they differ at {where})")
        black = board.black_mask
        return Board(puzzle, black, board.white_mask | (puzzle.clue_mask & ~black))
    except FormatError as exc:
        raise (exc.located(source) if source else exc) from None


def read(text: str, *, format: str | None = None, source: str | None = None) -> Puzzle:
    """Read the puzzle `text` holds. See `load`.

    >>> read("2 3\\n1 0 0\\n0 0 2").clues
    {0: 1, 5: 2}
    """
    return load(text, format=format, source=source).puzzle


def write(
    puzzle: Puzzle | Document,
    format: str,
    *,
    board: Board | None = None,
    solution: Board | None = None,
) -> str:
    """Write a puzzle (and, where the format holds them, a board or a solution) canonically.

    `board` and `solution` override those of a `Document`. Formats that hold one
    board (pzprv3, Pencilbox, solution grids) write the board, else the solution.

    >>> write(read("1 . .\\n. . 2"), "url")
    'https://puzz.link/p?nurikabe/3/2/1j2'

    Raises:
        FormatError: an unknown format name, or a puzzle the format cannot hold
            (a ``?`` clue in an ``sgt`` game ID).
    """
    if isinstance(puzzle, Document):
        document = puzzle
        if board is not None or solution is not None:
            document = Document(
                document.puzzle,
                board if board is not None else document.board,
                solution if solution is not None else document.solution,
                document.meta,
                document.format,
            )
    else:
        document = Document(puzzle, board, solution)
    return str(_module(format).dump(document))
