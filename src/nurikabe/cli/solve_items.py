"""The puzzles of ``nurikabe solve`` and what solving one gives: its record and exit code.

This module owns the command's exit codes, reading SRC into its puzzles (`read_items`:
one puzzle, a JSON-lines file, a folder; a puzzle that cannot be read is an `Item` with
its error, so a batch goes on) and solving one (`solve_item`: the `Outcome` with its
JSON record and exit code). `nurikabe.cli.solve` (one puzzle) and
`nurikabe.cli.solve_batch` (many) both use it; it imports neither.

Only the solver API is called, and nothing heavy at start-up (no dataclasses, no
pathlib), so that solving one puzzle stays quick as a whole process.
"""

from __future__ import annotations

import argparse
import os.path
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import FormatError, NurikabeError
from ..formats import Document
from ..solver import Limit, Result, Status, count_solutions, solve
from .common import CliError, load_source, read_source, source_id

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FOUND",
    "EXIT_INTERRUPTED",
    "EXIT_LIMIT",
    "EXIT_MULTIPLE",
    "EXIT_NONE",
    "EXIT_OF_STATUS",
    "EXIT_UNIQUE",
    "FOUND",
    "Item",
    "Outcome",
    "found_only",
    "read_items",
    "solve_item",
]

EXIT_UNIQUE = 0
EXIT_NONE = 1
EXIT_BAD_INPUT = 2
EXIT_MULTIPLE = 3
EXIT_LIMIT = 4
EXIT_FOUND = 5
EXIT_INTERRUPTED = 130

FOUND = "found"
"""The status of a puzzle whose search stopped at its first solution (``--limit 1``)."""

EXIT_OF_STATUS = {
    Status.UNIQUE: EXIT_UNIQUE,
    Status.NONE: EXIT_NONE,
    Status.MULTIPLE: EXIT_MULTIPLE,
    Status.UNKNOWN: EXIT_LIMIT,
}
"""The exit code of each solver status (a count cut short by a limit is `EXIT_LIMIT`)."""


# -- reading ------------------------------------------------------------------------------------


class Item:
    """One puzzle of the input, or the reason it could not be read."""

    __slots__ = ("document", "error", "id")

    def __init__(self, id: str, document: Document | None = None, error: str | None = None) -> None:
        self.id = id
        self.document = document
        self.error = error


def _is_multi_jsonl(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) > 1 and lines[0].lstrip().startswith("{")


def _items_of_text(text: str, name: str, src: str) -> Iterator[Item]:
    """Each record of a JSON-lines text; a bad line becomes an error item, the rest go on."""
    from ..formats.jsonl import load as load_record

    base = source_id(src)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            document = load_record(line)
        except FormatError as exc:
            error = FormatError(exc.message, line=number, column=exc.column, source=name)
            yield Item(f"{base}:{number}", error=str(error))
            continue
        except NurikabeError as exc:
            yield Item(f"{base}:{number}", error=f"{name}, line {number}: {exc}")
            continue
        yield Item(
            source_id(src, document) if document.meta.get("id") else f"{base}:{number}", document
        )


def read_items(src: str, batch: bool) -> tuple[bool, Iterator[Item], int | None]:
    """Whether SRC is a batch (`batch`: even of one record), its puzzles, and how many
    there are if known.

    Raises:
        CliError: SRC cannot be read, a folder without puzzle files, or one puzzle
            that does not parse (in a batch, a bad record is an `Item` with its error).
    """
    if src != "-" and "\n" not in src and os.path.isdir(src):
        from pathlib import Path

        path = Path(src)
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
        if not files:
            raise CliError(f"{src}: no puzzle files in this folder")
        return True, _items_of_folder(files), None
    text, name = read_source(src)
    if batch or _is_multi_jsonl(text):
        if not text.lstrip().startswith("{"):
            # A batch of one puzzle in another format.
            document = load_source(src) if src != "-" else _load_text(text, name)
            return True, iter([Item(source_id(src, document), document)]), 1
        count = sum(1 for line in text.splitlines() if line.strip())
        return True, _items_of_text(text, name, src), count
    document = _load_text(text, name)
    return False, iter([Item(source_id(src, document), document)]), 1


def _load_text(text: str, name: str) -> Document:
    from ..formats import load

    try:
        return load(text, source=name)
    except FormatError as exc:
        raise CliError(str(exc.located(name))) from None
    except NurikabeError as exc:
        raise CliError(f"{name}: {exc}") from None


def _items_of_folder(files: list[Path]) -> Iterator[Item]:
    for path in files:
        try:
            text, name = read_source(str(path))
        except CliError as exc:
            yield Item(path.name, error=str(exc))
            continue
        if _is_multi_jsonl(text):
            yield from _items_of_text(text, name, str(path))
            continue
        try:
            document = _load_text(text, name)
        except CliError as exc:
            yield Item(path.name, error=str(exc))
            continue
        yield Item(source_id(str(path), document), document)


# -- solving one --------------------------------------------------------------------------------


class Outcome:
    """What solving one puzzle gave, ready to print: its exit code, its JSON record and
    (for a puzzle that was read) the solver's result."""

    __slots__ = ("code", "item", "record", "result")

    def __init__(
        self,
        item: Item,
        code: int,
        record: dict[str, Any] | None = None,
        result: Result | None = None,
    ) -> None:
        self.item = item
        self.code = code
        self.record = {} if record is None else record
        self.result = result


def solve_item(item: Item, args: argparse.Namespace) -> Outcome:
    """Solve one puzzle with the command's options (``count``, ``all``, ``limit``,
    ``timeout``, ``engine``); an item that could not be read gives its error record
    and `EXIT_BAD_INPUT`."""
    if item.document is None:
        return Outcome(
            item, EXIT_BAD_INPUT, {"id": item.id, "status": "error", "error": item.error}
        )
    puzzle = item.document.puzzle
    counting = args.count or args.all
    limit = Limit(
        solutions=args.limit if args.limit is not None else (None if counting else 2),
        seconds=args.timeout,
    )
    result: Result
    if counting:
        result = count_solutions(
            puzzle, limit=limit, engine=args.engine, keep=None if args.all else 2
        )
        code = EXIT_OF_STATUS[result.status] if result.complete else EXIT_LIMIT
    else:
        result = solve(puzzle, limit=limit, engine=args.engine)
        code = EXIT_OF_STATUS[result.status]
    record: dict[str, Any] = {
        "id": item.id,
        "status": result.status.value,
        "solutions": [board.to_rows() for board in result.solutions],
        "seconds": round(result.stats.seconds, 6),
        "engine": result.stats.engine,
    }
    if counting:
        record["count"] = result.count
        record["complete"] = result.complete
    if result.limit_hit and (counting or result.status is Status.UNKNOWN):
        record["limit_hit"] = result.limit_hit
    if not counting and found_only(result):
        record["status"], code = FOUND, EXIT_FOUND
    return Outcome(item, code, record, result)


def found_only(result: Result) -> bool:
    """Whether the search stopped at a solution because it was asked for one only."""
    return (
        result.status is Status.UNKNOWN
        and bool(result.solutions)
        and result.limit_hit == "solutions"
    )
