"""pzprjs save files (``pzprv3``): a puzzle together with a board state.

Layout (formats.md, 2.2)::

    pzprv3            (or pzprv3.N; an optional "v:..." line may come before or after)
    nurikabe
    <rows>
    <cols>
    <one line per row: tokens separated by spaces>
    [info:{json}, history:..., TrialData(n) ...: only the info metadata is kept]

A token is a clue number, ``-`` for a ``?`` clue, ``#`` black, ``+`` a dot (known
white) or ``.`` an unknown cell. The one-line form with ``/`` between lines (as in
pzprjs's tests and in ``?pzprv3/...`` URLs) is read too.

Writing is canonical: the multi-line form, each token followed by one space, the
document's board (else its solution, else the empty board), and an ``info:`` line
only when the metadata holds an author, source, difficulty (``hard``) or comment.

>>> doc = load("pzprv3/nurikabe/2/3/1 # + /. - # /")
>>> doc.puzzle.clues, doc.board.to_rows()
({0: 1, 4: -1}, ['.#.', '?.#'])
>>> print(dump(doc), end="")
pzprv3
nurikabe
2
3
1 # +
. - #

Imports `puzzle`, `errors` and the formats registry.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import FormatError
from ..puzzle import Board
from ._common import (
    check_size,
    make_puzzle,
    numbered_lines,
    parse_int,
    quote,
    read_marked_rows,
    write_marked_rows,
)
from .document import Document

NAME = "pzprv3"
ALIASES = ("pzpr", "pzprjs")

GENRE = "nurikabe"
META_KEYS = ("author", "source", "hard", "comment")
"""The pzprjs metadata fields kept in `Document.meta` and written back."""

_HEAD_RE = re.compile(r"pzprv3(?:\.\d+)?", re.IGNORECASE)


def _first_lines(text: str, count: int) -> list[str]:
    """The first `count` non-blank lines, with ``/`` as a line break when the first line has one."""
    out: list[str] = []
    for _, line in numbered_lines(text[:4096]):
        out.extend(part.strip() for part in line.split("/"))
        if len(out) >= count:
            break
    return [line for line in out if line][:count]


def looks_like(text: str) -> bool:
    """Whether `text` starts with a ``pzprv3`` header (after an optional ``v:`` line)."""
    lines = _first_lines(text, 2)
    if lines and lines[0].lower().startswith("v:"):
        lines = lines[1:]
    return bool(lines) and _HEAD_RE.fullmatch(lines[0]) is not None


def _lines(text: str) -> list[tuple[int, str]]:
    lines = list(numbered_lines(text))
    if lines and "/" in lines[0][1]:
        # The one-line form: every '/' is a line break (as pzprjs reads it).
        split: list[tuple[int, str]] = []
        for number, line in lines:
            split.extend((number, part.strip()) for part in line.split("/"))
        # Keep rows of spaces out, but a row is never blank, so blank parts can go.
        lines = [(n, part) for n, part in split if part]
    return lines


def _metadata(line: str) -> dict[str, Any]:
    import json  # here, not at the top: detection passes through this module

    try:
        info = json.loads(line[len("info:") :])
    except (ValueError, RecursionError):
        return {}  # lenient: the metadata is optional
    metadata = info.get("metadata") if isinstance(info, dict) else None
    if not isinstance(metadata, dict):
        return {}
    return {k: metadata[k] for k in META_KEYS if isinstance(metadata.get(k), str) and metadata[k]}


def load(text: str) -> Document:
    """Read a pzprv3 save file: the puzzle, the board, and the info metadata.

    Raises:
        FormatError: no header, another genre, a bad size, or a bad row (with its line).
    """
    lines = _lines(text)
    k = 0

    def take(what: str) -> tuple[int, str]:
        nonlocal k
        if k >= len(lines):
            last = lines[-1][0] if lines else None
            raise FormatError(f"the file ends before the {what}", line=last)
        k += 1
        return lines[k - 1]

    number, line = take("pzprv3 header")
    if line.lower().startswith("v:"):
        number, line = take("pzprv3 header")
    if not _HEAD_RE.fullmatch(line):
        raise FormatError(f"expected the 'pzprv3' header, got {quote(line)}", line=number)
    number, line = take("puzzle type")
    if line.lower().startswith("v:"):
        number, line = take("puzzle type")
    if line.lower() != GENRE:
        raise FormatError(f"not a nurikabe file: type {quote(line, 30)}", line=number)
    number, line = take("row count")
    rows = parse_int(line, "the row count", line=number)
    number, line = take("column count")
    cols = parse_int(line, "the column count", line=number)
    check_size(rows, cols, line=number)
    body = lines[k : k + rows]
    if len(body) < rows:
        raise FormatError(f"expected {rows} rows, got {len(body)}", line=lines[-1][0])
    k += rows
    clues, black, white = read_marked_rows(body, cols, rows * cols, unknown="-")
    meta: dict[str, Any] = {}
    for _, line in lines[k:]:
        if line.startswith("info:"):
            meta.update(_metadata(line))
    puzzle = make_puzzle(rows, cols, clues)
    return Document(puzzle, board=Board(puzzle, black, white), meta=meta, format=NAME)


def dump(document: Document) -> str:
    """The canonical save file: the board if any, else the solution, else the empty board."""
    p = document.puzzle
    out = ["pzprv3", GENRE, str(p.rows), str(p.cols)]
    out += write_marked_rows(document, unknown="-")
    metadata = {
        k: document.meta[k]
        for k in META_KEYS
        if isinstance(document.meta.get(k), str) and document.meta[k]
    }
    if metadata:
        import json

        out.append("info:" + json.dumps({"metadata": metadata}, ensure_ascii=False))
    return "\n".join(out) + "\n"
