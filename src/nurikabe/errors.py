"""The exceptions the library raises for bad input.

Every error a user can cause with bad input is a `ValueError` subclass, so that
callers can catch one type. Front ends translate these into a one-line message
(CLI, exit code 2) or a 4xx JSON error (web); they never invent their own.

This module imports nothing from the package.
"""

from __future__ import annotations


class NurikabeError(ValueError):
    """Base class of every error caused by bad input."""


class FormatError(NurikabeError):
    """Text that does not parse as any supported format.

    Carries where the problem is, when that is known, so that front ends can
    print ``source:line: message``.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        """The cause, without the location."""
        self.line = line
        """1-based line of the input where the problem is, if known."""
        self.column = column
        """1-based column of the input where the problem is, if known."""
        self.source = source
        """Name of the input (a path, ``<stdin>``, a URL), if known."""

    def __str__(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.message}" if prefix else self.message

    def located(self, source: str) -> FormatError:
        """Return a copy of this error that names `source`, unless one is named already."""
        if self.source:
            return self
        return FormatError(self.message, line=self.line, column=self.column, source=source)


class InvalidPuzzleError(NurikabeError):
    """Input that parses but does not describe a puzzle (no cells, a clue below 1, ...)."""


class InvalidBoardError(NurikabeError):
    """A board that does not fit its puzzle: a mask that is negative, not an int, has
    cells off the grid, or shares cells with the other mask."""


class IllegalMoveError(NurikabeError):
    """A move that cannot be played: off the grid, or shading a clue cell."""


class DatabaseError(NurikabeError):
    """A database file that cannot be used.

    Missing, not a database, damaged, read-only, locked by another program for too
    long, or without the tables it should hold. The message is one line that names
    the file (see `nurikabe.database`).
    """
