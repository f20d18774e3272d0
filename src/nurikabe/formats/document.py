"""`Document`: what a file or URL holds, as every format reader gives it and writer takes it.

Its own module so that the format modules import it without importing the package
that picks among them (`formats.__init__` imports the format modules, never the
other way round). A plain class rather than a dataclass: `dataclasses` imports
`inspect` and `ast`, a few milliseconds of every ``nurikabe solve`` process.

Imports only `puzzle`.
"""

from __future__ import annotations

from typing import Any

from ..puzzle import Board, Puzzle

__all__ = ["Document"]


class Document:
    """What a file or URL holds: a puzzle, and maybe a player's board, a solution and metadata."""

    __slots__ = ("board", "format", "meta", "puzzle", "solution")

    puzzle: Puzzle
    """The puzzle."""
    board: Board | None
    """A board state (a pzprv3 save with dots, say), if the input has one."""
    solution: Board | None
    """The solution, if the input has one (a janko ``[solution]`` section, say)."""
    meta: dict[str, Any]
    """Author, source, id and the like, as found."""
    format: str
    """Name of the format it was read from."""

    def __init__(
        self,
        puzzle: Puzzle,
        board: Board | None = None,
        solution: Board | None = None,
        meta: dict[str, Any] | None = None,
        format: str = "",
    ) -> None:
        self.puzzle = puzzle
        self.board = board
        self.solution = solution
        self.meta = {} if meta is None else meta
        self.format = format

    def _fields(self) -> tuple[object, ...]:
        return (self.puzzle, self.board, self.solution, self.meta, self.format)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Document)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"Document(puzzle={self.puzzle!r}, board={self.board!r},"
            f" solution={self.solution!r}, meta={self.meta!r}, format={self.format!r})"
        )
