"""JSON records, one puzzle per object; a JSON-lines file holds many (the corpus format).

A record has ``rows``, ``cols`` and ``clues`` (``[[r, c, value], ...]``, 0-based,
-1 for ``?``), and optionally ``solution`` (row strings of ``#`` and ``.``), ``id``
and any other metadata, kept in `Document.meta`.

>>> doc = load('{"id": "x", "rows": 1, "cols": 3, "clues": [[0, 0, 2]], "solution": ["..#"]}')
>>> doc.puzzle.clues, doc.meta["id"], doc.solution.to_rows()
({0: 2}, 'x', ['..#'])
>>> print(dump(doc))
{"rows": 1, "cols": 3, "clues": [[0, 0, 2]], "id": "x", "solution": ["..#"]}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import FormatError, InvalidPuzzleError
from ..puzzle import Board, Puzzle
from .document import Document

if TYPE_CHECKING:
    from pathlib import Path

NAME = "jsonl"
ALIASES = ("json",)


def looks_like(text: str) -> bool:
    """Whether `text` starts like a JSON object."""
    return text.lstrip().startswith("{")


def _record_to_document(record: Any, line: int | None = None) -> Document:
    if not isinstance(record, dict):
        raise FormatError("expected a JSON object", line=line)
    try:
        rows, cols, clues = record["rows"], record["cols"], record.get("clues", [])
    except KeyError as exc:
        raise FormatError(f"record lacks the field {exc.args[0]!r}", line=line) from None
    if not isinstance(rows, int) or not isinstance(cols, int) or not isinstance(clues, list):
        raise FormatError("rows and cols must be integers and clues a list", line=line)
    triples = []
    for clue in clues:
        if (
            not isinstance(clue, list)
            or len(clue) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in clue)
        ):
            raise FormatError(f"a clue must be [row, col, value]: {clue!r}", line=line)
        triples.append((clue[0], clue[1], clue[2]))
    try:
        puzzle = Puzzle.from_clues(rows, cols, triples)
    except InvalidPuzzleError as exc:
        raise InvalidPuzzleError(f"line {line}: {exc}" if line else str(exc)) from None
    solution = None
    if record.get("solution") is not None:
        rows_text = record["solution"]
        if not isinstance(rows_text, list) or not all(isinstance(s, str) for s in rows_text):
            raise FormatError("solution must be a list of row strings", line=line)
        try:
            solution = Board.from_rows(puzzle, rows_text)
        except FormatError as exc:
            raise FormatError(f"solution: {exc.message}", line=line) from None
    meta = {k: v for k, v in record.items() if k not in ("rows", "cols", "clues", "solution")}
    return Document(puzzle, solution=solution, meta=meta, format=NAME)


def iter_documents(text: str) -> Iterator[Document]:
    """Every record of a JSON-lines text, in order; blank lines are skipped.

    Raises:
        FormatError: a line that is not a record (with its line number).
    """
    import json  # here, not at the top: detection passes through this module

    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, or a huge number
            raise FormatError(f"not JSON: {exc}", line=number) from None
        yield _record_to_document(record, number)


def read_file(path: str | Path) -> list[Document]:
    """Every record of a JSON-lines file.

    Raises:
        FormatError: as `iter_documents`, naming the file. OSError: the file cannot be read.
    """
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    try:
        return list(iter_documents(text))
    except FormatError as exc:
        raise exc.located(str(path)) from None


def load(text: str) -> Document:
    """The first record of `text`.

    Raises:
        FormatError: no record, or not a record.
    """
    for document in iter_documents(text):
        return document
    raise FormatError("no JSON record found")


def dump(document: Document) -> str:
    """One JSON line: rows, cols, clues, then metadata and the solution if present."""
    p = document.puzzle
    record: dict[str, Any] = {
        "rows": p.rows,
        "cols": p.cols,
        "clues": [[i // p.cols, i % p.cols, v] for i, v in p.clues.items()],
    }
    for key, value in document.meta.items():
        record.setdefault(key, value)
    if document.solution is not None:
        record["solution"] = document.solution.to_rows()
    import json

    # Metadata that JSON cannot hold is kept as text (or, for odd keys, left out).
    return json.dumps(record, default=str, skipkeys=True)
