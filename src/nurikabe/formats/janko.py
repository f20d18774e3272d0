"""janko.at puzzle blocks: properties, a ``[problem]`` grid and maybe a ``[solution]``.

A block (formats.md, 3.1)::

    [begin]
    puzzle nurikabe
    author Warai Kamosika
    rows 2
    cols 3
    [problem]
    2 - -
    - - 1
    [solution]
    2 - x
    x x 1
    [end]

Section words come bracketed (``[problem]``) or bare (``problem``); the size is
``size N`` or ``rows R`` and ``cols C`` (or, lacking both, the problem's shape). In
``[problem]`` ``-`` is empty and a number a clue (``?`` a ``?`` clue); in
``[solution]`` ``x`` is black and anything else white. Other properties (author,
solver, source, info, unit, ...) go to `Document.meta`, a repeated one as a list.
Reading is lenient with the typos of real data: repeated sections (the first one
counts), a missing ``end``, ``send``/``eend``; text before ``[begin]`` (the rest of
an HTML page, say) and after ``[end]`` is ignored.

Writing is canonical: the bracketed form, ``rows``/``cols``, and a ``[solution]``
when the document has one.

>>> doc = load("begin\\nsize 2\\nproblem\\n2 -\\n- -\\nsolution\\n2 -\\nx x\\neend")
>>> doc.puzzle.clues, doc.solution.to_rows()
({0: 2}, ['..', '##'])

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import FormatError
from ..puzzle import UNKNOWN_CLUE, Board
from ._common import (
    cell_tokens,
    check_clue,
    check_size,
    count,
    make_puzzle,
    numbered_lines,
    parse_int,
    quote,
)
from .document import Document

NAME = "janko"
ALIASES = ("janko.at",)

GENRE = "nurikabe"
_SECTIONS = ("begin", "problem", "solution", "moves", "end")
_END_TYPOS = ("send", "eend", "ende", "edn")
_RESERVED = frozenset({"puzzle", "size", "rows", "cols", *_SECTIONS})
_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_TOKEN_RE = re.compile(r"\S+")


def _section(line: str) -> str | None:
    """The section a line opens (``begin``, ``problem``, ...), or None."""
    word = line.strip().lower()
    if word.startswith("[") and word.endswith("]"):
        word = word[1:-1].strip()
    if word in _END_TYPOS:
        return "end"
    return word if word in _SECTIONS else None


def looks_like(text: str) -> bool:
    """Whether some line opens a ``begin`` or ``problem`` section."""
    return any(_section(line) in ("begin", "problem") for _, line in numbered_lines(text))


def _is_property(line: str) -> bool:
    key = line.split(None, 1)[0]
    return len(key) >= 2 and _KEY_RE.fullmatch(key) is not None and key.lower() not in ("x",)


def load(text: str) -> Document:
    """Read a janko block.

    Raises:
        FormatError: another genre, no problem, a bad size or a bad row (with its line).
    """
    lines = list(numbered_lines(text))
    starts = [k for k, (_, line) in enumerate(lines) if _section(line) == "begin"]
    if starts:
        lines = lines[starts[0] + 1 :]
    props: dict[str, tuple[int, str]] = {}
    meta: dict[str, Any] = {}
    grids: dict[str, list[tuple[int, str]]] = {}
    grid_start: dict[str, int] = {}
    state = "props"
    for number, line in lines:
        section = _section(line)
        if section == "end":
            break
        if section is not None:
            if section in ("problem", "solution"):
                state = "skip" if section in grids else section
                if state == section:
                    grids[section] = []
                    grid_start[section] = number
            else:
                state = "moves" if section == "moves" else "props"
            continue
        if state in ("problem", "solution") and not _is_property(line):
            grids[state].append((number, line))
            continue
        if state in ("moves", "skip"):
            continue
        if not _is_property(line):
            raise FormatError(f"expected a property or a section, got {quote(line)}", line=number)
        state = "props"
        key, _, value = line.partition(" ") if " " in line else line.partition("\t")
        key, value = key.lower(), value.strip()
        if key in _RESERVED:
            props.setdefault(key, (number, value))
        elif value:
            if key in meta:
                old = meta[key]
                meta[key] = [*old, value] if isinstance(old, list) else [old, value]
            else:
                meta[key] = value
    if "puzzle" in props and props["puzzle"][1].lower() != GENRE:
        number, value = props["puzzle"]
        raise FormatError(f"not a nurikabe puzzle: {quote(value, 30)}", line=number)
    if "problem" not in grids:
        raise FormatError("no [problem] section")
    rows, cols = _size(props, grids["problem"], grid_start["problem"])
    problem = _grid(grids["problem"], rows, cols, "problem", grid_start["problem"])
    area = rows * cols
    clues: dict[int, int] = {}
    for i, (token, number, column) in enumerate(problem):
        if token in ("-", "."):
            continue
        if token == "?":
            clue = UNKNOWN_CLUE
        elif token.isascii() and token.isdigit():
            clue = parse_int(token, "a clue", line=number, column=column)
        else:
            raise FormatError(
                f"unknown cell {quote(token, 20)} in [problem] (expected - or a number)",
                line=number,
                column=column,
            )
        check_clue(clue, area, line=number, column=column)
        clues[i] = clue
    puzzle = make_puzzle(rows, cols, clues)
    solution = None
    if "solution" in grids:
        cells = _grid(grids["solution"], rows, cols, "solution", grid_start["solution"])
        black = white = 0
        for i, (token, number, column) in enumerate(cells):
            low = token.lower()
            if low in ("x", "#"):
                black |= 1 << i
            elif low == "?" and i not in clues:
                pass
            elif low in ("-", ".", "+", "?") or (low.isascii() and low.isdigit()):
                white |= 1 << i
            else:
                raise FormatError(
                    f"unknown cell {quote(token, 20)} in [solution] (expected x, - or a number)",
                    line=number,
                    column=column,
                )
        solution = Board(puzzle, black, white)
    return Document(puzzle, solution=solution, meta=meta, format=NAME)


def _size(
    props: dict[str, tuple[int, str]], problem: list[tuple[int, str]], start: int
) -> tuple[int, int]:
    def number(key: str) -> int:
        line, value = props[key]
        return parse_int(value, f"'{key}'", line=line)

    rows = number("rows") if "rows" in props else number("size") if "size" in props else None
    cols = number("cols") if "cols" in props else number("size") if "size" in props else None
    line = props["rows"][0] if "rows" in props else props["size"][0] if "size" in props else start
    if rows is None:
        rows = len(problem)
    if cols is None:
        cols = len(problem[0][1].split()) if problem else 0
    check_size(rows, cols, line=line)
    return rows, cols


def _grid(
    lines: list[tuple[int, str]], rows: int, cols: int, name: str, start: int
) -> list[tuple[str, int, int]]:
    """The tokens of a grid section, row-major, each with its line and column."""
    if len(lines) != rows:
        raise FormatError(f"expected {rows} rows in [{name}], got {len(lines)}", line=start)
    cells: list[tuple[str, int, int]] = []
    for number, line in lines:
        tokens = cell_tokens(line, _TOKEN_RE)
        if len(tokens) != cols:
            raise FormatError(
                f"expected {cols} cells, got {count(tokens)}: {quote(line)}", line=number
            )
        cells.extend((token, number, column) for token, column in tokens)
    return cells


def _meta_lines(meta: dict[str, Any]) -> list[str]:
    """``key value`` lines for the metadata that fits on a line (one per value of a list)."""
    out = []
    for key, value in meta.items():
        key = str(key).lower()
        if key in _RESERVED or _KEY_RE.fullmatch(key) is None or len(key) < 2:
            continue
        values = value if isinstance(value, list) else [value]
        for v in values:
            if v is None or isinstance(v, (dict, list)):
                continue
            text = str(v).strip()
            if text and text.splitlines() == [text]:
                out.append(f"{key} {text}")
    return out


def dump(document: Document) -> str:
    """The canonical bracketed block, with ``[solution]`` when the document has one."""
    p = document.puzzle
    clues = p.clues
    out = ["[begin]", f"puzzle {GENRE}", *_meta_lines(document.meta)]
    out += [f"rows {p.rows}", f"cols {p.cols}", "[problem]"]
    for r in range(p.rows):
        tokens = []
        for c in range(p.cols):
            value = clues.get(r * p.cols + c)
            tokens.append("-" if value is None else "?" if value == UNKNOWN_CLUE else str(value))
        out.append(" ".join(tokens))
    solution = document.solution
    if solution is not None:
        out.append("[solution]")
        for r in range(p.rows):
            tokens = []
            for c in range(p.cols):
                i = r * p.cols + c
                if solution.black_mask >> i & 1:
                    tokens.append("x")
                elif i in clues:
                    tokens.append("?" if clues[i] == UNKNOWN_CLUE else str(clues[i]))
                elif solution.white_mask >> i & 1:
                    tokens.append("-")
                else:
                    tokens.append("?")
            out.append(" ".join(tokens))
    out.append("[end]")
    return "\n".join(out) + "\n"
